// Pay-per-video unlocks and downloads (account-payments-gems.md §4, §6, §8): which modal a locked video opens, what
// a refused unlock or download says, and the quota line.
import { refusalNumber, refusalOf } from '../../app/api/graphqlErrors'
import { t } from '../../app/i18n'
import type { ModalId } from '../../app/shell/modalIds'
import { modalForDeniedAction } from '../../app/shell/autoModals'

/** One credit opens one video for good (docs/decisions.md, unlocks). */
export const VIDEO_COST_CREDITS = 1

export interface LockedVideoFacts {
  /** The access answer's deniedReason. */
  deniedReason: 'channel_pack_locked' | 'no_access' | null
  /** The user may unlock channel packs here (ability unlock ChannelPack: tenant access). */
  mayUnlockChannelPack: boolean
  subscriptionKind: 'member' | 'trial' | 'porn-portal' | 'expired' | null
  isActive: boolean
  payPerVideoCredits: number
  isThirdPartyChannel: boolean
  isFreeLimitedTrial: boolean
}

/**
 * §4 "Access denied routing", and §6 "Pay-per-video users spend payPerVideoCredits to unlock a video": a
 * porn-portal user with credits gets the unlock-or-upgrade modal too, which is where credits are spent.
 */
export function modalForLockedVideo(facts: LockedVideoFacts): ModalId {
  const routed = modalForDeniedAction({
    channelVideo: facts.deniedReason === 'channel_pack_locked',
    isMultisiteWithAccess: facts.mayUnlockChannelPack,
    isActiveTrial: facts.subscriptionKind === 'trial' && facts.isActive,
    payPerVideoCredits: facts.payPerVideoCredits,
    isThirdPartyChannel: facts.isThirdPartyChannel,
    isFreeLimitedTrial: facts.isFreeLimitedTrial,
  }).id
  if (routed !== 'PurchaseMembership') return routed
  if (facts.subscriptionKind === 'porn-portal' && facts.payPerVideoCredits > 0 && !facts.isThirdPartyChannel) {
    return 'UnlockOrUpgradeMembership'
  }
  return routed
}

export type VideoUnlockOutcome =
  | { kind: 'success'; creditsLeft: number | null }
  | { kind: 'notEnoughCredits' }
  | { kind: 'alreadyUnlocked' }
  | { kind: 'failed' }

export function refusedVideoUnlock(error: unknown): VideoUnlockOutcome {
  switch (refusalOf(error)?.code) {
    case 'NOT_ENOUGH_CREDITS':
      return { kind: 'notEnoughCredits' }
    case 'ALREADY_UNLOCKED':
      return { kind: 'alreadyUnlocked' }
    default:
      return { kind: 'failed' }
  }
}

export function videoUnlockMessage(outcome: VideoUnlockOutcome): string | null {
  switch (outcome.kind) {
    case 'success':
      return null
    case 'notEnoughCredits':
      return 'You have no credits left. Upgrade your membership to watch every video.'
    case 'alreadyUnlocked':
      return 'You have already unlocked this video.'
    case 'failed':
      return t('video_unlock_modal.error')
  }
}

export interface QuotaFacts {
  thresholdReached: boolean
  downloadQuotaMax: number
  quotaLeft: number
  remainingDays: number
  downloadDaysPeriod: number
  zeroQuota: boolean
}

export function quotaReachedMessage(max: number, remainingDays: number): string {
  return t('download.quota_reached', { max, count: remainingDays })
}

/** What a failed download says: the quota message with its maximum and days, or the server's own message. */
export function downloadErrorMessage(error: unknown): string {
  const refusal = refusalOf(error)
  if (refusal?.code === 'REACHED_DOWNLOAD_QUOTA') {
    const max = refusalNumber(refusal, 'downloadQuotaMax')
    const days = refusalNumber(refusal, 'remainingDays')
    if (max !== null && days !== null) return quotaReachedMessage(max, days)
  }
  return refusal?.message || t('common.try_again')
}

/** The line under the download buttons: what is left, or the limit message once it is reached. */
export function quotaLine(quota: QuotaFacts): { reached: boolean; text: string } {
  if (quota.zeroQuota) return { reached: true, text: 'Downloads are not included in your membership.' }
  if (quota.thresholdReached || quota.quotaLeft <= 0) {
    return { reached: true, text: quotaReachedMessage(quota.downloadQuotaMax, quota.remainingDays) }
  }
  return {
    reached: false,
    text: `${quota.quotaLeft} of ${quota.downloadQuotaMax} downloads left in this ${quota.downloadDaysPeriod}-day period.`,
  }
}
