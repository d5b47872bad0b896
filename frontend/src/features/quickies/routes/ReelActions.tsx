// What a member does with the reel in the player, each sent to the recommender (product.md, "Recommendations"): the
// view when it opens, a rating of 1 to 10 and its removal, the bookmark and its removal, and the purchase when a
// pay-per-video member unlocks the full video from it.
import { useApolloClient } from '@apollo/client/react'
import { useEffect, useId, useRef, useState } from 'react'
import { useSession } from '../../../app/session/SessionContext'
import { useModals } from '../../../app/shell/ModalManager'
import { ReelVideoDocument, type Quickie_ReelFragment } from '../../../gql/graphql'
import { trackerOf, trackReel } from '../../recommendations'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

export const REEL_RATING_MAX = 10

export function ReelActions({ reel }: { reel: Quickie_ReelFragment }) {
  const id = useId()
  const { user } = useSession()
  const { open } = useModals()
  const client = useApolloClient()
  const who = trackerOf(user.profile)
  const [rating, setRating] = useState(String(REEL_RATING_MAX))
  const [rated, setRated] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const viewed = useRef<string | null>(null)

  useEffect(() => {
    // One view per reel opened in the player.
    if (!who || viewed.current === reel.uuid) return
    viewed.current = reel.uuid
    void trackReel(who, 'view', reel.uuid)
  }, [who, reel.uuid])

  if (!who) return null

  async function send(action: Parameters<typeof trackReel>[1], done: string, value?: number) {
    setBusy(true)
    const ok = await trackReel(who, action, reel.uuid, value)
    setBusy(false)
    setNotice(ok ? done : t('quickies.failed'))
    if (ok && (action === 'add-bookmark' || action === 'delete-bookmark')) {
      await client.refetchQueries({ include: 'active' }).catch(() => undefined)
    }
    return ok
  }

  async function unlockFullVideo(videoSlug: string) {
    setBusy(true)
    try {
      const { data } = await client.query({ query: ReelVideoDocument, variables: { videoSlug } })
      const video = data?.getVideo.video
      if (!video) throw new Error('no video')
      open('UnlockOrUpgradeMembership', {
        videoId: video.uuid,
        videoNewId: video.newId,
        videoTitle: video.title,
        // The recommender hears of the purchase with the reel's id, once the unlock succeeded.
        onUnlocked: () => void trackReel(who, 'purchase', reel.uuid),
      })
    } catch {
      setNotice(t('quickies.video_failed'))
    } finally {
      setBusy(false)
    }
  }

  const mayUnlock = user.profile?.subscriptionKind === 'porn-portal'
  const toggleBookmark = () =>
    void (reel.bookmarked
      ? send('delete-bookmark', t('quickies.bookmark_removed'))
      : send('add-bookmark', t('quickies.bookmarked')))
  const rate = (value: number) => void send('rating', t('videos.you_rated', { rating: value }), value).then((ok) => ok && setRated(value))
  const removeRating = () => void send('delete-rating', t('quickies.rating_removed')).then((ok) => ok && setRated(null))
  return (
    <div className="reel-actions" data-testid="reel-actions">
      <button
        type="button"
        className="button"
        disabled={busy}
        aria-pressed={reel.bookmarked}
        onClick={toggleBookmark}
      >
        {t(reel.bookmarked ? 'quickies.remove_bookmark' : 'quickies.bookmark', { count: reel.bookmarks })}
      </button>
      <form
        className="reel-actions__rating"
        onSubmit={(event) => {
          event.preventDefault()
          rate(Number(rating))
        }}
      >
        <label htmlFor={id}>{t('videos.your_rating')}</label>{' '}
        <select id={id} value={rating} onChange={(event) => setRating(event.target.value)}>
          {Array.from({ length: REEL_RATING_MAX }, (_, index) => REEL_RATING_MAX - index).map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>{' '}
        <button type="submit" className="button" disabled={busy}>
          {t('videos.rate')}
        </button>
        {rated !== null ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={removeRating}
          >
            {t('quickies.remove_rating')}
          </button>
        ) : null}
      </form>
      {mayUnlock && reel.videoSlug ? (
        <button type="button" className="button button--accent" disabled={busy} onClick={() => void unlockFullVideo(reel.videoSlug!)}>
          {t('quickies.unlock_full')}
        </button>
      ) : null}
      {notice ? (
        <p role="status" className="muted">
          {notice}
        </p>
      ) : null}
    </div>
  )
}
