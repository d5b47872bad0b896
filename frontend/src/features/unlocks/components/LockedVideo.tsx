// The way in for a signed-in user whose access does not cover a video (product.md, "Access-denied routing", "Membership"):
// why it is refused, and the step that fits: the pack's unlock with gems, one of the free limited trial's videos, a
// credit, reactivation, the upgrade, or support for someone who already pays for the site.
import { useQuery } from '@apollo/client/react'
import type { ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { VideoAccessOneDocument } from '../../../gql/graphql'
import { refusalStep, type RefusalStep } from '../videoUnlock'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

export interface LockedVideoFactsOf {
  uuid: string
  newId?: string
  title: string
  isThirdPartyChannel?: boolean
  channel?: { name?: string | null } | null
}

export interface LockedVideoProps {
  video: LockedVideoFactsOf
  /** After an unlock, so the player asks for its tokens again. */
  onUnlocked: () => void
}

export interface WayIn {
  /** The video's access is known, so the step is the one product.md, "Access-denied routing" routes to. */
  ready: boolean
  /** Why the video is refused, in the user's terms (empty until known). */
  note: string
  label: string
  /** The step's kind (data-step on the page, for tests and styling). */
  step: RefusalStep['kind'] | 'unknown'
  open: () => void
}

/** Which step a locked video offers (product.md, "Access-denied routing"), from the server's reason and the user's credits. */
export function useWayIn(video: LockedVideoFactsOf, onUnlocked: () => void): WayIn {
  const { user } = useSession()
  const { open } = useModals()
  const navigate = useNavigate()
  const { data, refetch } = useQuery(VideoAccessOneDocument, {
    variables: { videoIds: [video.uuid] },
    fetchPolicy: 'network-only',
  })
  const access = data?.videoAccess[0]
  const credits = data?.getGemsBalance.payPerVideoCredits ?? 0
  const freeVideosLeft = data?.unlockState.freeLimitedTrialVideosLeft ?? 0
  const freeTrialVideos = data?.unlockState.freeLimitedTrialVideos ?? 0
  const profile = user.profile
  const step = refusalStep({
    deniedReason: access?.deniedReason ?? null,
    mayUnlockChannelPack: user.can('unlock', 'ChannelPack'),
    subscriptionKind: profile?.subscriptionKind ?? null,
    isActive: profile?.isActive === true,
    payPerVideoCredits: credits,
    isThirdPartyChannel: video.isThirdPartyChannel === true,
    isFreeLimitedTrial: access?.isFreeLimitedTrial === true,
    freeVideosLeft,
    freeTrialVideos,
    title: video.title,
  })
  // The access answer may open what the tokens did not (a grant that just arrived, a failure on the way): then
  // asking again is the step, and support if it keeps failing.
  const opensNow = access !== undefined && !access.denied
  function openWayIn() {
    if (opensNow) {
      onUnlocked()
      return
    }
    const unlocked = () => {
      void refetch().catch(() => undefined)
      onUnlocked()
    }
    switch (step.kind) {
      case 'freeVideo':
        open('UnlockOrUpgradeMembership', {
          videoId: video.uuid,
          videoNewId: video.newId ?? video.uuid,
          videoTitle: video.title,
          freeVideosLeft: step.left,
          onUnlocked: unlocked,
        })
        return
      case 'upgrade':
        open('PurchaseMembership', { reason: 'upgrade' })
        return
      case 'reactivate':
        open('PurchaseMembership', { reason: 'expired' })
        return
      case 'support':
        void navigate('/support')
        return
      case 'modal':
        if (step.modal === 'UnlockChannel') {
          open('UnlockChannel', {
            channelPackId: access?.channelPackId ?? '',
            packName: video.channel?.name
              ? t('unlock_channel_modal.named_pack', { name: video.channel.name })
              : t('unlock_channel_modal.this_pack'),
            onUnlocked: unlocked,
          })
        } else if (step.modal === 'UnlockOrUpgradeMembership') {
          open('UnlockOrUpgradeMembership', {
            videoId: video.uuid,
            videoNewId: video.newId ?? video.uuid,
            videoTitle: video.title,
            payPerVideoCredits: credits,
            onUnlocked: unlocked,
          })
        } else {
          open('PurchaseMembership', { singleSiteOnly: true })
        }
    }
  }
  if (opensNow) {
    return { ready: true, note: t('locked.start_failed'), label: t('locked.try_again'), step: 'unknown', open: openWayIn }
  }
  return { ready: data !== undefined, note: data ? step.note : '', label: step.label, step: data ? step.kind : 'unknown', open: openWayIn }
}

/**
 * The trailer's place for a refused video: `trailer` renders the trailer with what goes over it, told whether the
 * upgrade overlay belongs there; the way in follows. One video access answer decides both, so the overlay never
 * offers the upgrade beside a free limited trial's free video.
 */
export function LockedVideo({
  video,
  onUnlocked,
  trailer,
}: LockedVideoProps & { trailer?: (showUpgradeOverlay: boolean) => ReactNode }) {
  const way = useWayIn(video, onUnlocked)
  return (
    <>
      {trailer?.(way.ready && way.step !== 'freeVideo')}
      <WayInButton way={way}>{way.note || t('locked.checking')}</WayInButton>
    </>
  )
}

export function WayInButton({ way, children }: { way: WayIn; children: string }) {
  return (
    <div className="player__locked" role="status" data-step={way.step}>
      <p>{children}</p>
      {way.step === 'support' ? (
        <Link className="button button--accent" to="/support">
          {way.label}
        </Link>
      ) : (
        <button type="button" className="button button--accent" onClick={way.open} disabled={!way.ready}>
          {way.label}
        </button>
      )}
      {way.step === 'unknown' && way.ready ? (
        <Link className="button" to="/support">
          {t('common.contact_support')}
        </Link>
      ) : null}
    </div>
  )
}
