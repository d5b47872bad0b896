// Who wrote a comment: the name in their user type's colour, the type in words (never colour alone), and
// their badges, each with its own class and its name. The profile service decides both; an unknown author has none.
import { t } from '../../../app/i18n'
import '../copy'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { CommentAuthor_CommentFragmentDoc, type Badge, type UserType } from '../../../gql/graphql'
import './CommentAuthor.css'

/** The class suffix of a user type or badge: `pornPortal` → `porn-portal`. */
export const cssName = (name: UserType | Badge) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

export function CommentAuthor({ comment: masked }: { comment: FragmentType<typeof CommentAuthor_CommentFragmentDoc> }) {
  const comment = getFragmentData(CommentAuthor_CommentFragmentDoc, masked)
  const author = comment.author
  const username = comment.authorName ?? t('comments.author_fallback')
  // The display name, where the author set one (product.md, "Account and profile"), beside their comments; the username after it, muted.
  const displayName = author?.displayName?.trim() || null
  const name = displayName ?? username
  if (!author) return <strong className="comment-author">{name}</strong>
  return (
    <span className={`comment-author comment-author--${cssName(author.userType)}`}>
      <strong className="comment-author__name">{name}</strong>{' '}
      {displayName && comment.authorName ? <span className="comment-author__username muted">@{comment.authorName}</span> : null}
      {displayName && comment.authorName ? ' ' : null}
      <span className="comment-author__type">{t(`comments.user_type.${author.userType}`)}</span>
      {author.badges.length > 0 ? (
        <ul className="comment-author__badges" aria-label={t('comments.badges')}>
          {author.badges.map((badge) => (
            <li key={badge} className={`badge badge--${cssName(badge)}`}>
              {t(`comments.badge.${badge}`)}
            </li>
          ))}
        </ul>
      ) : null}
    </span>
  )
}
