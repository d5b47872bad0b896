// A comment's likes and dislikes (Comments.tsx).
import { useMutation } from '@apollo/client/react'
import { t } from '../../../app/i18n'
import '../copy'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { VoteCommentDocument, type CommentItem_CommentFragment } from '../../../gql/graphql'
import { voteErrorMessage } from '../comments'

/** Like and dislike, once each comment (product.md, "Comments, ratings and favourites": a repeat vote is refused with its message). */
export function Votes({ comment }: { comment: CommentItem_CommentFragment }) {
  const { user } = useSession()
  const flashes = useFlash()
  const [vote, { loading }] = useMutation(VoteCommentDocument)
  const counts = (
    <>
      <span aria-hidden="true">▲ {comment.likes}</span> <span aria-hidden="true">▼ {comment.dislikes}</span>
    </>
  )
  if (!user.isAuthenticated || !user.can('vote', 'Comment')) {
    return (
      // A span may not carry an aria-label (it has no role): the counts in words are its hidden text instead.
      <span className="comment__votes muted">
        {counts}
        <span className="visually-hidden">{t('comments.votes', { likes: comment.likes, dislikes: comment.dislikes })}</span>
      </span>
    )
  }
  const cast = (choice: 'like' | 'dislike') => async () => {
    if (loading) return
    try {
      await vote({ variables: { commentId: comment.id, vote: choice } })
    } catch (error) {
      flashes.add({ type: 'error', message: voteErrorMessage(error) })
    }
  }
  // The buttons' names are their words and their visible counts ("Like 3"): a name that contains what is shown
  // lets a voice user say what they see (WCAG 2.5.3).
  return (
    <span className="comment__votes">
      <button
        type="button"
        className="button comment__vote"
        aria-pressed={comment.userVote === 'like'}
        onClick={cast('like')}
        disabled={loading}
      >
        <span aria-hidden="true">▲</span> <span className="visually-hidden">{t('comments.like')}</span> {comment.likes}
      </button>
      <button
        type="button"
        className="button comment__vote"
        aria-pressed={comment.userVote === 'dislike'}
        onClick={cast('dislike')}
        disabled={loading}
      >
        <span aria-hidden="true">▼</span> <span className="visually-hidden">{t('comments.dislike')}</span> {comment.dislikes}
      </button>
    </span>
  )
}
