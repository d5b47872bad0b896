// The way in for a signed-in user whose access does not cover a video (§4 "Access denied routing"): the pack's
// unlock with gems, a credit, or a membership.
import { useQuery } from '@apollo/client/react'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { VideoAccessOneDocument } from '../../../gql/graphql'
import { modalForLockedVideo } from '../videoUnlock'

export interface LockedVideoProps {
  video: { uuid: string; newId?: string; title: string; isThirdPartyChannel?: boolean; channel?: { name?: string | null } | null }
  /** After an unlock, so the player asks for its tokens again. */
  onUnlocked: () => void
}

const LABELS = {
  UnlockChannel: 'Unlock the channel pack',
  UnlockOrUpgradeMembership: 'Unlock this video',
  PurchaseMembership: 'Get full access',
} as const

export function LockedVideo({ video, onUnlocked }: LockedVideoProps) {
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
  function onOpen() {
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
  return (
    <p className="player__locked" role="status">
      Your membership does not include this video yet.{' '}
      <button type="button" className="button button--accent" onClick={onOpen} disabled={!data}>
        {label}
      </button>
    </p>
  )
}
