// A comment in the list (Comments.tsx): its author, text, votes, moderator tools and, for a top-level comment, its
// thread of replies, loaded a page at a time. A reply is a comment too, so the comment, its thread and a page of
// replies are one module (apart, they would import each other in a cycle).
import { useMutation, useQuery } from '@apollo/client/react'
import { createContext, useContext, useState } from 'react'
import { t } from '../../../app/i18n'
import '../copy'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { formatReleaseDate } from '../../../components/VideoCard/format'
import {
  CommentRepliesDocument,
  ReplyToCommentDocument,
  VideoCommentsDocument,
  CommentItem_CommentFragmentDoc,
  type CommentItem_CommentFragment,
} from '../../../gql/graphql'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { commentErrorMessage, draftKey, readDraft } from '../comments'
import { CommentAuthor } from './CommentAuthor'
import { DraftForm, sessionStore } from './DraftForm'
import { ModeratorTools } from './ModeratorTools'
import { Votes } from './Votes'

/** Comments and replies, a page at a time. */
export const COMMENT_PAGE_SIZE = 10

/** Whether the signed-in user may write (comment, reply) on this page's video. */
export const MayWrite = createContext(false)

/** One page of a comment's replies; the last page offers the next. */
function ReplyPage({ commentId, after, isLast, onMore }: {
  commentId: string
  after: string | null
  isLast: boolean
  onMore: (cursor: string) => void
}) {
  const { data, loading } = useQuery(CommentRepliesDocument, {
    variables: { commentId, after, size: COMMENT_PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
    errorPolicy: 'all',
  })
  if (loading && !data) return <li className="muted">{t('comments.loading_replies')}</li>
  if (!data?.commentReplies) return <li role="alert">{t('comments.fetch_failed')}</li>
  const page = data.commentReplies
  return (
    <>
      {page.comments.map((reply) => (
        <CommentItem key={getFragmentData(CommentItem_CommentFragmentDoc, reply).id} comment={reply} isReply />
      ))}
      {isLast && page.nextCursor ? (
        <li>
          <button type="button" className="button" onClick={() => onMore(page.nextCursor!)}>
            {t('comments.more_replies')}
          </button>
        </li>
      ) : null}
    </>
  )
}

/** A comment's thread: its replies (shown on demand, a page at a time) and the reply form. */
function Thread({ comment }: { comment: CommentItem_CommentFragment }) {
  const { user } = useSession()
  const flashes = useFlash()
  const key = draftKey({ commentId: comment.id })
  // A reply being written stays open across a re-render or a way back (its draft is kept), and so does its thread.
  const [replying, setReplying] = useState(() => readDraft(sessionStore(), key) !== '')
  const [open, setOpen] = useState(replying)
  const [focusReply, setFocusReply] = useState(false)
  const [cursors, setCursors] = useState<readonly (string | null)[]>([null])
  // Replies posted here: the thread shows them at once, before the list's count catches up (it is a projection).
  const [posted, setPosted] = useState(0)
  const [reply] = useMutation(ReplyToCommentDocument, { refetchQueries: [CommentRepliesDocument, VideoCommentsDocument] })
  const mayReply = useContext(MayWrite) && user.can('reply', 'Comment')
  const count = Math.max(comment.replyCount, posted)
  function toggleReplying() {
    const next = !replying
    setReplying(next)
    setFocusReply(next)
    if (next) setOpen(true)
  }
  return (
    <div className="comment__thread">
      <p className="comment__thread-actions">
        {mayReply ? (
          <button type="button" className="button" aria-expanded={replying} onClick={toggleReplying}>
            {t('comments.reply')}
          </button>
        ) : null}{' '}
        {count > 0 ? (
          <button type="button" className="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? t('comments.hide_replies') : t('comments.show_replies', { count })}
          </button>
        ) : null}
      </p>
      {replying ? (
        <DraftForm
          storageKey={key}
          label={t('comments.reply_to', { name: comment.author?.displayName || comment.authorName || t('comments.this_comment') })}
          submitLabel={t('comments.post_reply')}
          focusOnOpen={focusReply}
          onPost={async (text) => {
            try {
              await reply({ variables: { commentId: comment.id, text } })
              setPosted((n) => n + 1)
              setReplying(false)
              setOpen(true)
              return true
            } catch (error) {
              flashes.add({ type: 'error', message: commentErrorMessage(error) })
              return false
            }
          }}
        />
      ) : null}
      {open && count > 0 ? (
        <ul className="comment-list comment-list--replies" aria-label={t('comments.replies_to', { name: comment.authorName ?? t('comments.this_comment') })}>
          {cursors.map((after, index) => (
            <ReplyPage
              key={after ?? 'first'}
              commentId={comment.id}
              after={after}
              isLast={index === cursors.length - 1}
              onMore={(cursor) => setCursors((current) => [...current, cursor])}
            />
          ))}
        </ul>
      ) : null}
    </div>
  )
}

export function CommentItem({ comment: masked, isReply = false }: { comment: FragmentType<typeof CommentItem_CommentFragmentDoc>; isReply?: boolean }) {
  const comment = getFragmentData(CommentItem_CommentFragmentDoc, masked)
  return (
    <li className={isReply ? 'comment comment--reply' : 'comment'} data-comment-id={comment.id}>
      <div className="comment__meta">
        <CommentAuthor comment={comment} /> <span className="muted">{formatReleaseDate(comment.createdAt)}</span>
        {comment.pinned ? <span className="comment__pinned"> · {t('comments.pinned')}</span> : null}
      </div>
      <p className="comment__text">{comment.text}</p>
      <div className="comment__actions">
        <Votes comment={comment} />
      </div>
      <ModeratorTools comment={comment} isReply={isReply} />
      {isReply ? null : <Thread comment={comment} />}
    </li>
  )
}
