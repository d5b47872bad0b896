// A video's comments: newest, oldest or top first, ten at a time with "Load more"; members may add one.
import { useMutation, useQuery } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { formatReleaseDate } from '../../../components/VideoCard/format'
import { AddCommentDocument, VideoCommentsDocument, type CommentSort } from '../../../gql/graphql'
import { commentErrorMessage } from '../comments'

export const COMMENT_PAGE_SIZE = 10

function CommentPage({ videoId, sort, after, isLast, onMore }: {
  videoId: string
  sort: CommentSort
  after: string | null
  isLast: boolean
  onMore: (cursor: string) => void
}) {
  const { data, loading, error } = useQuery(VideoCommentsDocument, {
    variables: { videoId, sort, after, size: COMMENT_PAGE_SIZE },
  })
  if (loading) return <li className="muted">Loading comments…</li>
  if (error || !data) return <li role="alert">Comments could not be loaded.</li>
  const page = data.comments
  return (
    <>
      {page.comments.map((comment) => (
        <li key={comment.id} className="comment">
          <p className="comment__meta">
            <strong>{comment.authorName ?? 'Member'}</strong>{' '}
            <span className="muted">{formatReleaseDate(comment.createdAt)}</span>
            {comment.pinned ? <span className="comment__pinned"> · Pinned</span> : null}
          </p>
          <p className="comment__text">{comment.text}</p>
          <p className="comment__votes muted">
            <span aria-label={`${comment.likes} likes`}>▲ {comment.likes}</span>{' '}
            <span aria-label={`${comment.dislikes} dislikes`}>▼ {comment.dislikes}</span>
            {comment.replyCount > 0 ? ` · ${comment.replyCount} replies` : null}
          </p>
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
