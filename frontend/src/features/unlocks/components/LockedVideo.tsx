// The way in for a signed-in user whose access does not cover a video (§4 "Access denied routing"): the pack's
// unlock with gems, a credit, or a membership.
import { useQuery } from '@apollo/client/react'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { VideoAccessOneDocument } from '../../../gql/graphql'
import { modalForLockedVideo } from '../videoUnlock'

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

const LABELS = {
  UnlockChannel: 'Unlock the channel pack',
  UnlockOrUpgradeMembership: 'Unlock this video',
  PurchaseMembership: 'Get full access',
} as const

export interface WayIn {
  /** The video's access is known, so the modal is the one §6 routes to. */
  ready: boolean
  label: string
  open: () => void
}

/** Which modal a locked video opens (§6 "When access is denied"), from its access answer and the user's credits. */
export function useWayIn(video: LockedVideoFactsOf, onUnlocked: () => void): WayIn {
  const { user } = useSession()
  const { open } = useModals()
  const { data } = useQuery(VideoAccessOneDocument, { variables: { videoIds: [video.uuid] }, fetchPolicy: 'network-only' })
  const access = data?.videoAccess[0]
  const credits = data?.getGemsBalance.payPerVideoCredits ?? 0
  const profile = user.profile
  const modal = modalForLockedVideo({
    deniedReason: access?.deniedReason ?? null,
    mayUnlockChannelPack: user.can('unlock', 'ChannelPack'),
    subscriptionKind: profile?.subscriptionKind ?? null,
    isActive: profile?.isActive === true,
    payPerVideoCredits: credits,
    isThirdPartyChannel: video.isThirdPartyChannel === true,
    isFreeLimitedTrial: access?.isFreeLimitedTrial === true,
  })
  const label = LABELS[modal as keyof typeof LABELS] ?? LABELS.PurchaseMembership
  function openWayIn() {
    if (modal === 'UnlockChannel') {
      open('UnlockChannel', {
        channelPackId: access?.channelPackId ?? '',
        packName: video.channel?.name ? `the ${video.channel.name} pack` : 'this channel pack',
        onUnlocked,
      })
    } else if (modal === 'UnlockOrUpgradeMembership') {
      open('UnlockOrUpgradeMembership', {
        videoId: video.uuid,
        videoNewId: video.newId ?? video.uuid,
        videoTitle: video.title,
        payPerVideoCredits: credits,
        onUnlocked,
      })
    } else {
      open('PurchaseMembership', { singleSiteOnly: true })
    }
  }
  return { ready: data !== undefined, label, open: openWayIn }
}

export function LockedVideo({ video, onUnlocked }: LockedVideoProps) {
  const way = useWayIn(video, onUnlocked)
  return <WayInButton way={way}>Your membership does not include this video yet.</WayInButton>
}

export function WayInButton({ way, children }: { way: WayIn; children: string }) {
  return (
    <p className="player__locked" role="status">
      {children}{' '}
      <button type="button" className="button button--accent" onClick={way.open} disabled={!way.ready}>
        {way.label}
      </button>
    </p>
  )
}
