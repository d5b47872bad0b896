// A video's comments (product.md, "Comments, ratings and favourites" moderator row): newest, oldest or
// top first, ten at a time with "Load more"; signed-in users add, reply (threaded under the comment, loaded a page at
// a time), like and dislike once ('already liked', 'already disliked'), and keep a draft while typing (kept in the
// tab's session storage, so a re-render or going back does not lose it); moderators pin, unpin and remove. Each
// comment shows its author's display name where set, user type and badges (CommentAuthor).
import { useMutation, useQuery } from '@apollo/client/react'
import { useId, useMemo, useState } from 'react'
import { t } from '../../../app/i18n'
import '../copy'
import { useFlash } from '../../../app/shell/Flash'
import { buildAbility, subject } from '../../../app/session/ability'
import { useSession } from '../../../app/session/SessionContext'
import {
  AddCommentDocument,
  VideoCommentsDocument,
  CommentItem_CommentFragmentDoc,
  type CommentSort,
} from '../../../gql/graphql'
import { getFragmentData } from '../../../gql/fragment-masking'
import { commentErrorMessage, draftKey } from '../comments'
import { COMMENT_PAGE_SIZE, CommentItem, MayWrite } from './CommentItem'
import { DraftForm } from './DraftForm'

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
