// Pay-per-video unlocks and downloads (product.md, "Unlocks"): which modal a locked video opens, what
// a refused unlock or download says, and the quota line.
import type { DownloadQuotas_QuotasFragment } from '../../gql/graphql'
import { refusalNumber, refusalOf } from '../../app/api/graphqlErrors'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/shared'
import './copy'
import type { ModalId } from '../../app/shell/modalIds'
import { modalForDeniedAction } from '../../app/shell/autoModals'

/** Why the server refused a video (services/access `denied_reason`, videoAccess's `deniedReason`). */
export type DeniedReason =
  | 'channel_pack_locked'
  | 'free_trial_video'
  | 'free_trial_expired'
  | 'reactivate'
  | 'support'
  | 'no_access'

export interface LockedVideoFacts {
  /** The access answer's deniedReason. */
  deniedReason: DeniedReason | null
  /** The user may unlock channel packs here (ability unlock ChannelPack: tenant access). */
  mayUnlockChannelPack: boolean
  subscriptionKind: 'member' | 'trial' | 'porn-portal' | 'expired' | null
  isActive: boolean
  payPerVideoCredits: number
  isThirdPartyChannel: boolean
  isFreeLimitedTrial: boolean
}

/**
 * product.md, "Access-denied routing", and product.md, "Access-denied routing": a
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

/**
 * The step a refused video offers (product.md, "Access-denied routing"), from the server's reason: unlock
 * (a pack, a free-trial video, credits), reactivate, upgrade or support; never a purchase to someone who already
 * pays for the video's site (the server answers `support` for them).
 */
export type RefusalStep =
  | { kind: 'modal'; modal: ModalId; label: string; note: string }
  | { kind: 'freeVideo'; label: string; note: string; left: number }
  | { kind: 'upgrade'; label: string; note: string }
  | { kind: 'reactivate'; label: string; note: string }
  | { kind: 'support'; label: string; note: string }

export const LIMITED_TRIAL_EXPIRED = t('video_unlock_modal.trial_expired')

/**
 * `freeTrialVideos` is how many full videos the free limited trial opens, as the unlocks service is configured
 * (unlockState.freeLimitedTrialVideos).
 */
export function refusalStep(
  facts: LockedVideoFacts & { freeVideosLeft: number; freeTrialVideos: number; title: string },
): RefusalStep {
  switch (facts.deniedReason) {
    case 'free_trial_video':
      return {
        kind: 'freeVideo',
        left: facts.freeVideosLeft,
        label: t('video_unlock_modal.free_video_label', { left: facts.freeVideosLeft }),
        note: t('video_unlock_modal.free_video_note', { title: facts.title, free: facts.freeTrialVideos, left: facts.freeVideosLeft }),
      }
    case 'free_trial_expired':
      return { kind: 'upgrade', label: t('unlock_video.upgrade'), note: LIMITED_TRIAL_EXPIRED }
    case 'reactivate':
      return {
        kind: 'reactivate',
        label: t('video_unlock_modal.reactivate_label'),
        note: t('video_unlock_modal.reactivate_note'),
      }
    case 'support':
      return {
        kind: 'support',
        label: t('common.contact_support'),
        note: t('video_unlock_modal.support_note'),
      }
    default: {
      const modal = modalForLockedVideo(facts)
      const note =
        facts.deniedReason === 'channel_pack_locked'
          ? t('video_unlock_modal.note_channel_pack')
          : facts.subscriptionKind === 'member' && facts.isActive
            ? t('video_unlock_modal.note_other_site')
            : t('video_unlock_modal.note_not_included')
      const label =
        modal === 'UnlockChannel'
          ? t('video_unlock_modal.label_channel_pack')
          : modal === 'UnlockOrUpgradeMembership'
            ? t('video_unlock_modal.label_unlock_video')
            : facts.subscriptionKind === 'member' && facts.isActive
              ? t('unlock_video.upgrade')
              : t('locked.get_full_access')
      return { kind: 'modal', modal, label, note }
    }
  }
}

export type VideoUnlockOutcome =
  | { kind: 'success'; creditsLeft: number | null; freeVideosLeft?: number | null }
  | { kind: 'notEnoughCredits' }
  | { kind: 'trialExpired' }
  /** The free limited trial's own refusal (never a shortage of credits): the server's words, which say why. */
  | { kind: 'trialRefused'; code: FreeTrialRefusal; message: string }
  | { kind: 'alreadyUnlocked' }
  | { kind: 'failed' }

/** UnlockVideo's refusals to a free limited trial user (services/unlocks error.rs; docs/decisions/). */
export const FREE_TRIAL_REFUSALS = [
  'NO_FREE_TRIAL_VIDEOS_LEFT',
  'NOT_A_FREE_TRIAL_VIDEO',
  'FREE_TRIAL_VIDEO_OF_ANOTHER_SITE',
  'FREE_TRIAL_EXPIRED',
] as const
export type FreeTrialRefusal = (typeof FREE_TRIAL_REFUSALS)[number]

const isFreeTrialRefusal = (code: string | undefined): code is FreeTrialRefusal =>
  (FREE_TRIAL_REFUSALS as readonly string[]).includes(code ?? '')

export function refusedVideoUnlock(error: unknown): VideoUnlockOutcome {
  const refusal = refusalOf(error)
  if (isFreeTrialRefusal(refusal?.code)) {
    // The server's message says why; the trial's expiry copy stands in only if it said nothing.
    return { kind: 'trialRefused', code: refusal.code, message: refusal.message || LIMITED_TRIAL_EXPIRED }
  }
  switch (refusal?.code) {
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
      return t('video_unlock_modal.no_credits')
    case 'trialExpired':
      return LIMITED_TRIAL_EXPIRED
    case 'trialRefused':
      return outcome.message
    case 'alreadyUnlocked':
      return t('video_unlock_modal.already_unlocked')
    case 'failed':
      return t('video_unlock_modal.error')
  }
}

/** What the quota line reads of the DownloadQuotas_quotas fragment. */
export type QuotaFacts = Pick<
  DownloadQuotas_QuotasFragment,
  'thresholdReached' | 'downloadQuotaMax' | 'quotaLeft' | 'remainingDays' | 'downloadDaysPeriod' | 'zeroQuota'
>

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
  if (quota.zeroQuota) return { reached: true, text: t('download.not_included') }
  if (quota.thresholdReached || quota.quotaLeft <= 0) {
    return { reached: true, text: quotaReachedMessage(quota.downloadQuotaMax, quota.remainingDays) }
  }
  return {
    reached: false,
    text: t('download.left', { left: quota.quotaLeft, max: quota.downloadQuotaMax, days: quota.downloadDaysPeriod }),
  }
}
