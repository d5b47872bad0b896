// A video's comments: newest, oldest or top first, ten at a time with "Load more"; members may add one. Each shows
// its author's user type and badges (CommentAuthor).
import { useMutation, useQuery } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { formatReleaseDate } from '../../../components/VideoCard/format'
import {
  AddCommentDocument,
  PinCommentDocument,
  RemoveCommentDocument,
  UnpinCommentDocument,
  VideoCommentsDocument,
  type CommentSort,
} from '../../../gql/graphql'
import { commentErrorMessage } from '../comments'
import { CommentAuthor } from './CommentAuthor'

export const COMMENT_PAGE_SIZE = 10

/** Moderators' tools on a comment (§6): pin or unpin, remove; each refreshes the list. */
function ModeratorTools({ comment }: { comment: { id: string; pinned: boolean } }) {
  const { user } = useSession()
  const flashes = useFlash()
  const options = { refetchQueries: [VideoCommentsDocument] }
  const [pin, pinning] = useMutation(PinCommentDocument, options)
  const [unpin, unpinning] = useMutation(UnpinCommentDocument, options)
  const [remove, removing] = useMutation(RemoveCommentDocument, options)
  const busy = pinning.loading || unpinning.loading || removing.loading
  const mayPin = user.can(comment.pinned ? 'unpin' : 'pin', 'Comment')
  const mayRemove = user.can('remove', 'Comment')
  if (!mayPin && !mayRemove) return null
  const run = (action: () => Promise<unknown>, failure: string) => () =>
    void action().catch(() => flashes.add({ type: 'error', message: failure }))
  const variables = { variables: { commentId: comment.id } }
  return (
    <p className="comment__tools">
      {mayPin ? (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={run(
            () => (comment.pinned ? unpin(variables) : pin(variables)),
            comment.pinned ? 'Failed to unpin the comment.' : 'Failed to pin the comment.',
          )}
        >
          {comment.pinned ? 'Unpin' : 'Pin'}
        </button>
      ) : null}{' '}
      {mayRemove ? (
        <button type="button" className="button" disabled={busy} onClick={run(() => remove(variables), 'Failed to remove the comment.')}>
          Remove
        </button>
      ) : null}
    </p>
  )
}

function CommentPage({ videoId, sort, after, isLast, onMore }: {
  videoId: string
  sort: CommentSort
  after: string | null
  isLast: boolean
  onMore: (cursor: string) => void
}) {
  const { data, loading } = useQuery(VideoCommentsDocument, {
    variables: { videoId, sort, after, size: COMMENT_PAGE_SIZE },
    // An author's badges that could not be loaded leave that author plain; the comments still show.
    errorPolicy: 'all',
  })
  if (loading) return <li className="muted">Loading comments…</li>
  if (!data?.comments) return <li role="alert">Comments could not be loaded.</li>
  const page = data.comments
  return (
    <>
      {page.comments.map((comment) => (
        <li key={comment.id} className="comment">
          <div className="comment__meta">
            <CommentAuthor comment={comment} />{' '}
            <span className="muted">{formatReleaseDate(comment.createdAt)}</span>
            {comment.pinned ? <span className="comment__pinned"> · Pinned</span> : null}
          </div>
          <p className="comment__text">{comment.text}</p>
          <p className="comment__votes muted">
            <span aria-label={`${comment.likes} likes`}>▲ {comment.likes}</span>{' '}
            <span aria-label={`${comment.dislikes} dislikes`}>▼ {comment.dislikes}</span>
            {comment.replyCount > 0 ? ` · ${comment.replyCount} replies` : null}
          </p>
          <ModeratorTools comment={comment} />
        </li>
      ))}
      {isLast && page.nextCursor ? (
        <li>
          <button type="button" className="button" onClick={() => onMore(page.nextCursor!)}>
            Load more comments
          </button>
        </li>
      ) : null}
    </>
  )
}

function AddComment({ videoId }: { videoId: string }) {
  const id = useId()
  const [text, setText] = useState('')
  const flashes = useFlash()
  const [addComment, { loading }] = useMutation(AddCommentDocument, {
    refetchQueries: [VideoCommentsDocument],
  })
  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!text.trim() || loading) return
    try {
      await addComment({ variables: { videoId, text: text.trim() } })
      setText('')
    } catch (error) {
      flashes.add({ type: 'error', message: commentErrorMessage(error) })
    }
  }
  return (
    <form className="comment-form" onSubmit={submit}>
      <label htmlFor={id}>Add a comment</label>
      <textarea id={id} value={text} onChange={(event) => setText(event.target.value)} rows={3} maxLength={2000} required />
      <button type="submit" className="button button--accent" disabled={loading}>
        Post
      </button>
    </form>
  )
}

export function Comments({ videoId, commentCount }: { videoId: string; commentCount: number }) {
  const { user } = useSession()
  const [sort, setSort] = useState<CommentSort>('newest')
  const [cursors, setCursors] = useState<readonly (string | null)[]>([null])
  const sortId = useId()
  return (
    <section className="comments" aria-labelledby={`${sortId}-heading`}>
      <h2 id={`${sortId}-heading`}>Comments ({commentCount})</h2>
      <label htmlFor={sortId}>Sort by </label>
      <select
        id={sortId}
        value={sort}
        onChange={(event) => {
          setSort(event.target.value as CommentSort)
          setCursors([null])
        }}
      >
        <option value="newest">Newest</option>
        <option value="oldest">Oldest</option>
        <option value="top">Top</option>
      </select>
      {user.isAuthenticated ? <AddComment videoId={videoId} /> : null}
      <ul className="comment-list">
        {cursors.map((after, index) => (
          <CommentPage
            key={`${sort}:${after ?? 'first'}`}
            videoId={videoId}
            sort={sort}
            after={after}
            isLast={index === cursors.length - 1}
            onMore={(cursor) => setCursors((current) => [...current, cursor])}
          />
        ))}
      </ul>
    </section>
  )
}
