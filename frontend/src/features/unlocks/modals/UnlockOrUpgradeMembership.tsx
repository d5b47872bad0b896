// UnlockOrUpgradeMembership (product.md, "Unlocks"): spend a pay-per-video credit on this video, or upgrade to a
// membership that plays every video.
import { useMutation, useQuery } from '@apollo/client/react'
import { useState } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { useModals } from '../../../app/shell/ModalManager'
import { UnlockVideoDocument, VideoUnlockTermsDocument } from '../../../gql/graphql'
import { refusedVideoUnlock, videoUnlockMessage, type VideoUnlockOutcome } from '../videoUnlock'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { translateRich } from '../../../app/i18n/rich'

export function UnlockOrUpgradeMembership({ props, close }: ModalBodyProps<'UnlockOrUpgradeMembership'>) {
  const { videoId, videoNewId = videoId, videoTitle: title = t('unlock_video.this_video'), onUnlocked } = props
  const credits = props.payPerVideoCredits ?? null
  // One of the free limited trial's videos (the server answered free_trial_video): no credit is spent.
  const freeVideosLeft = props.freeVideosLeft ?? null
  const flashes = useFlash()
  const modals = useModals()
  // The price of a video and the trial's videos: the unlocks service's settings.
  const terms = useQuery(VideoUnlockTermsDocument)
  const [unlock, { loading }] = useMutation(UnlockVideoDocument)
  const [outcome, setOutcome] = useState<VideoUnlockOutcome | null>(null)

  async function onUnlock() {
    if (loading) return
    try {
      const { data } = await unlock({ variables: { input: { videoId, videoNewId } } })
      if (!data) throw new Error('no answer')
      setOutcome({
        kind: 'success',
        creditsLeft: data.UnlockVideo.payPerVideoCredits ?? null,
        freeVideosLeft: data.UnlockVideo.freeVideosLeft ?? null,
      })
      onUnlocked?.()
    } catch (error) {
      const answered = refusedVideoUnlock(error)
      // The free ones taken meanwhile (another tab): the server would then ask for credits, which a trial has none of.
      const refused: VideoUnlockOutcome =
        freeVideosLeft !== null && answered.kind === 'notEnoughCredits' ? { kind: 'trialExpired' } : answered
      if (refused.kind === 'failed') flashes.add({ type: 'error', translation: 'video_unlock_modal.error' })
      setOutcome(refused)
    }
  }

  if (outcome?.kind === 'success') {
    return (
      <div className="unlock-video">
        <p role="status" className="notice notice--success">
          {t('unlock_video.unlocked', { title })}
          {outcome.creditsLeft !== null ? ` ${t('unlock_video.credits_left', { count: outcome.creditsLeft })}` : ''}
          {outcome.freeVideosLeft !== null && outcome.freeVideosLeft !== undefined
            ? ` ${t('unlock_video.free_videos_left_sentence', { count: outcome.freeVideosLeft })}`
            : ''}
        </p>
        <div className="modal__actions">
          <button type="button" className="button button--accent" onClick={close}>
            {t('common.watch_now')}
          </button>
        </div>
      </div>
    )
  }
  if (!terms.data) {
    return terms.error ? (
      <p role="alert" className="notice notice--error">
        {t('video_unlock_modal.error')}
      </p>
    ) : (
      <p className="muted" aria-busy="true">
        {t('common.loading')}
      </p>
    )
  }
  const { videoUnlockCostCredits: cost, freeLimitedTrialVideos } = terms.data.unlockState
  const message = outcome ? videoUnlockMessage(outcome) : null
  const upgrade = (
    <button
      type="button"
      className="button"
      onClick={() => {
        close()
        modals.open('PurchaseMembership', { reason: 'upgrade' })
      }}
    >
      {t('unlock_video.upgrade')}
    </button>
  )
  if (freeVideosLeft !== null) {
    return (
      <div className="unlock-video" data-kind="free-trial">
        <p>
          {translateRich('unlock_video.free_trial', { title: <strong>{title}</strong>, count: freeLimitedTrialVideos })}
        </p>
        {/* Refused by the trial, the count the page was loaded with no longer holds: the refusal says why. */}
        {outcome?.kind === 'trialRefused' ? null : (
          <p data-testid="free-videos-left">{t('unlock_video.free_videos_left', { count: freeVideosLeft })}</p>
        )}
        {message ? (
          <p role="alert" className="notice notice--error">
            {message}
          </p>
        ) : null}
        <div className="modal__actions">
          {outcome?.kind === 'trialExpired' || outcome?.kind === 'trialRefused' ? null : (
            <button type="button" className="button button--accent" onClick={onUnlock} disabled={loading} aria-busy={loading}>
              {loading ? t('common.unlocking') : t('unlock_video.watch_free')}
            </button>
          )}
          {upgrade}
        </div>
      </div>
    )
  }
  return (
    <div className="unlock-video">
      <p>
        {translateRich('unlock_video.intro', { title: <strong>{title}</strong>, count: cost })}
      </p>
      {credits !== null ? <p data-testid="credits-balance">{t('unlock_video.credits', { count: credits })}</p> : null}
      {message ? (
        <p role="alert" className="notice notice--error">
          {message}
        </p>
      ) : null}
      <div className="modal__actions">
        <button
          type="button"
          className="button button--accent"
          onClick={onUnlock}
          disabled={loading || credits === 0 || outcome?.kind === 'alreadyUnlocked'}
          aria-busy={loading}
        >
          {loading ? t('common.unlocking') : t('unlock_video.unlock', { count: cost })}
        </button>
        {upgrade}
      </div>
    </div>
  )
}
