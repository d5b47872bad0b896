// A video's comments (product.md, "Comments, ratings and favourites" moderator row): newest, oldest or
// top first, ten at a time with "Load more"; signed-in users add, reply (threaded under the comment, loaded a page at
// a time), like and dislike once ('already liked', 'already disliked'), and keep a draft while typing (kept in the
// tab's session storage, so a re-render or going back does not lose it); moderators pin, unpin and remove. Each
// comment shows its author's display name where set, user type and badges (CommentAuthor).
import { useMutation, useQuery } from '@apollo/client/react'
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/videos'
import { useFlash } from '../../../app/shell/Flash'
import { buildAbility, subject } from '../../../app/session/ability'
import { useSession } from '../../../app/session/SessionContext'
import { formatReleaseDate } from '../../../components/VideoCard/format'
import {
  AddCommentDocument,
  CommentRepliesDocument,
  PinCommentDocument,
  RemoveCommentDocument,
  ReplyToCommentDocument,
  UnpinCommentDocument,
  VideoCommentsDocument,
  VoteCommentDocument,
  CommentItem_CommentFragmentDoc,
  type CommentItem_CommentFragment,
  type CommentSort,
} from '../../../gql/graphql'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { commentErrorMessage, draftKey, readDraft, voteErrorMessage, writeDraft } from '../comments'
import { CommentAuthor } from './CommentAuthor'

export const COMMENT_PAGE_SIZE = 10

/**
 * The video as the access rules read it (`subject('Video', …)`): writing a comment or a reply is for who may comment on
 * it (product.md, "Roles and abilities"), the gateway's rule too.
 */
export interface CommentedVideo {
  id: string
  site: string
  channelPackId: string | null
  isThirdPartyChannel: boolean
  isFreeLimitedTrial: boolean
}

/** Whether the signed-in user may write (comment, reply) on this page's video. */
const MayWrite = createContext(false)

const sessionStore = (): Storage | undefined => (typeof window === 'undefined' ? undefined : window.sessionStorage)

/** Moderators' tools on a comment (product.md, "Comments, ratings and favourites"): pin or unpin (top-level comments), remove; each refreshes the list. */
function ModeratorTools({ comment, isReply }: { comment: { id: string; pinned: boolean }; isReply: boolean }) {
  const { user } = useSession()
  const flashes = useFlash()
  const options = { refetchQueries: [VideoCommentsDocument, CommentRepliesDocument] }
  const [pin, pinning] = useMutation(PinCommentDocument, options)
  const [unpin, unpinning] = useMutation(UnpinCommentDocument, options)
  const [remove, removing] = useMutation(RemoveCommentDocument, options)
  const busy = pinning.loading || unpinning.loading || removing.loading
  const mayPin = !isReply && user.can(comment.pinned ? 'unpin' : 'pin', 'Comment')
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
            comment.pinned ? t('comments.unpin_failed') : t('comments.pin_failed'),
          )}
        >
          {comment.pinned ? t('comments.unpin') : t('comments.pin')}
        </button>
      ) : null}{' '}
      {mayRemove ? (
        <button type="button" className="button" disabled={busy} onClick={run(() => remove(variables), t('comments.remove_failed'))}>
          {t('comments.remove')}
        </button>
      ) : null}
    </p>
  )
}

/** Like and dislike, once each comment (product.md, "Comments, ratings and favourites": a repeat vote is refused with its message). */
function Votes({ comment }: { comment: CommentItem_CommentFragment }) {
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

/** A comment or reply form whose text is kept as a draft while it is typed (setDraft), and forgotten once posted. */
function DraftForm({
  storageKey,
  label,
  submitLabel,
  onPost,
  focusOnOpen = false,
}: {
  storageKey: string
  label: string
  submitLabel: string
  /** Posts the text; true when it was taken. */
  onPost: (text: string) => Promise<boolean>
  /** The reader opened the form just now: the text area takes the focus (a draft restored on load does not). */
  focusOnOpen?: boolean
}) {
  const id = useId()
  const textRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (focusOnOpen) textRef.current?.focus()
  }, [focusOnOpen])
  const { user } = useSession()
  const keepsDraft = user.can('setDraft', 'Comment')
  const [text, setText] = useState(() => (keepsDraft ? readDraft(sessionStore(), storageKey) : ''))
  const [busy, setBusy] = useState(false)
  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!text.trim() || busy) return
    setBusy(true)
    const posted = await onPost(text.trim())
    setBusy(false)
    if (posted) {
      setText('')
      writeDraft(sessionStore(), storageKey, '')
    }
  }
  return (
    <form className="comment-form" onSubmit={submit} aria-busy={busy}>
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={textRef}
        id={id}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          if (keepsDraft) writeDraft(sessionStore(), storageKey, event.target.value)
        }}
        rows={3}
        maxLength={2000}
        required
      />
      <button type="submit" className="button button--accent" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  )
}

function AddComment({ videoId }: { videoId: string }) {
  const flashes = useFlash()
  const [addComment] = useMutation(AddCommentDocument, { refetchQueries: [VideoCommentsDocument] })
  return (
    <DraftForm
      storageKey={draftKey({ videoId })}
      label={t('comments.add')}
      submitLabel={t('comments.post')}
      onPost={async (text) => {
        try {
          await addComment({ variables: { videoId, text } })
          return true
        } catch (error) {
          flashes.add({ type: 'error', message: commentErrorMessage(error) })
          return false
        }
      }}
    />
  )
}

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

function CommentItem({ comment: masked, isReply = false }: { comment: FragmentType<typeof CommentItem_CommentFragmentDoc>; isReply?: boolean }) {
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
  // A refetch (after a post, a vote, a pin) keeps the comments on screen, and with them each thread's state.
  if (loading && !data) return <li className="muted">{t('comments.loading')}</li>
  if (!data?.comments) return <li role="alert">{t('comments.list_failed')}</li>
  const page = data.comments
  return (
    <>
      {page.comments.map((comment) => (
        <CommentItem key={getFragmentData(CommentItem_CommentFragmentDoc, comment).id} comment={comment} />
      ))}
      {isLast && page.nextCursor ? (
        <li>
          <button type="button" className="button" onClick={() => onMore(page.nextCursor!)}>
            {t('comments.more_comments')}
          </button>
        </li>
      ) : null}
    </>
  )
}

export function Comments({ videoId, commentCount, video }: { videoId: string; commentCount: number; video?: CommentedVideo }) {
  const { user, abilityRules } = useSession()
  // Only a signed-in user may write: a visitor's page builds no ability.
  const ability = useMemo(() => (user.isAuthenticated ? buildAbility(abilityRules ?? []) : null), [user.isAuthenticated, abilityRules])
  const mayWrite =
    ability !== null && (video ? ability.can('comment', subject('Video', { ...video })) : user.can('add', 'Comment'))
  const [sort, setSort] = useState<CommentSort>('newest')
  const [cursors, setCursors] = useState<readonly (string | null)[]>([null])
  const sortId = useId()
  return (
    <section className="comments" aria-labelledby={`${sortId}-heading`}>
      <h2 id={`${sortId}-heading`}>{t('comments.heading', { count: commentCount })}</h2>
      <label htmlFor={sortId}>{t('comments.sort_by')} </label>
      <select
        id={sortId}
        value={sort}
        onChange={(event) => {
          setSort(event.target.value as CommentSort)
          setCursors([null])
        }}
      >
        <option value="newest">{t('comments.sort.newest')}</option>
        <option value="oldest">{t('comments.sort.oldest')}</option>
        <option value="top">{t('comments.sort.top')}</option>
      </select>
      {mayWrite && user.can('add', 'Comment') ? <AddComment videoId={videoId} /> : null}
      <MayWrite.Provider value={mayWrite}>
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
      </MayWrite.Provider>
    </section>
  )
}
