import { CombinedGraphQLErrors } from '@apollo/client'
import { describe, expect, it } from 'vitest'
import {
  downloadErrorMessage,
  FREE_TRIAL_REFUSALS,
  modalForLockedVideo,
  quotaLine,
  refusalStep,
  refusedVideoUnlock,
  videoUnlockMessage,
  type LockedVideoFacts,
} from './videoUnlock'

const refused = (code: string, message = code, extensions: Record<string, unknown> = {}) =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message, extensions: { code, ...extensions } }] })

const facts = (overrides: Partial<LockedVideoFacts> = {}): LockedVideoFacts => ({
  deniedReason: 'no_access',
  mayUnlockChannelPack: false,
  subscriptionKind: 'member',
  isActive: true,
  payPerVideoCredits: 0,
  isThirdPartyChannel: false,
  isFreeLimitedTrial: false,
  ...overrides,
})

describe('which modal a locked video opens', () => {
  it('sends a member with access to a locked pack to the unlock-channel modal', () => {
    expect(modalForLockedVideo(facts({ deniedReason: 'channel_pack_locked', mayUnlockChannelPack: true }))).toBe('UnlockChannel')
  })

  it('sends an active trial with credits, not on a third-party channel, to unlock-or-upgrade', () => {
    expect(modalForLockedVideo(facts({ subscriptionKind: 'trial', payPerVideoCredits: 2 }))).toBe('UnlockOrUpgradeMembership')
    expect(modalForLockedVideo(facts({ subscriptionKind: 'trial', payPerVideoCredits: 2, isThirdPartyChannel: true }))).toBe(
      'PurchaseMembership',
    )
    expect(modalForLockedVideo(facts({ subscriptionKind: 'trial', payPerVideoCredits: 2, isFreeLimitedTrial: true }))).toBe(
      'PurchaseMembership',
    )
  })

  it('lets a porn-portal user with credits spend them, and offers the others a membership', () => {
    expect(modalForLockedVideo(facts({ subscriptionKind: 'porn-portal', payPerVideoCredits: 12 }))).toBe(
      'UnlockOrUpgradeMembership',
    )
    expect(modalForLockedVideo(facts({ subscriptionKind: 'porn-portal', payPerVideoCredits: 0 }))).toBe('PurchaseMembership')
    expect(modalForLockedVideo(facts({ subscriptionKind: 'expired', isActive: false }))).toBe('PurchaseMembership')
  })
})

describe('a video unlock with credits', () => {
  it('says what went wrong', () => {
    expect(videoUnlockMessage(refusedVideoUnlock(refused('UNLOCK_FAILED')))).toBe(
      'Failed to unlock the video. Please try again later.',
    )
    expect(refusedVideoUnlock(refused('NOT_ENOUGH_CREDITS'))).toEqual({ kind: 'notEnoughCredits' })
    expect(videoUnlockMessage({ kind: 'alreadyUnlocked' })).toBe('You have already unlocked this video.')
    expect(videoUnlockMessage({ kind: 'success', creditsLeft: 3 })).toBeNull()
  })
})

describe('downloads and their quota', () => {
  it('shows the quota message with the maximum and the days until reset', () => {
    const error = refused('REACHED_DOWNLOAD_QUOTA', 'limit exceeded, try again in 7 days', {
      downloadQuotaMax: 20,
      remainingDays: 7,
    })
    expect(downloadErrorMessage(error)).toBe('Download limit of 20 exceeded, try again in 7 days.')
    expect(
      downloadErrorMessage(refused('REACHED_DOWNLOAD_QUOTA', 'x', { downloadQuotaMax: 5, remainingDays: 1 })),
    ).toBe('Download limit of 5 exceeded, try again in 1 day.')
  })

  it('shows the server’s message for any other failure', () => {
    expect(downloadErrorMessage(refused('FORBIDDEN', 'You may not download this video'))).toBe('You may not download this video')
  })

  it('counts what is left, then says the limit is reached', () => {
    const quota = { thresholdReached: false, downloadQuotaMax: 20, quotaLeft: 3, remainingDays: 0, downloadDaysPeriod: 7, zeroQuota: false }
    expect(quotaLine(quota)).toEqual({ reached: false, text: '3 of 20 downloads left in this 7-day period.' })
    expect(quotaLine({ ...quota, quotaLeft: 0, thresholdReached: true, remainingDays: 7 })).toEqual({
      reached: true,
      text: 'Download limit of 20 exceeded, try again in 7 days.',
    })
    expect(quotaLine({ ...quota, zeroQuota: true }).reached).toBe(true)
  })
})

describe('the step a refused video offers', () => {
  const step = (overrides: Partial<LockedVideoFacts> = {}, freeVideosLeft = 0, freeTrialVideos = 3) =>
    refusalStep({ ...facts(overrides), freeVideosLeft, freeTrialVideos, title: 'Easy Glow' })

  it('offers the free limited trial its free videos with what is left, then says it expired', () => {
    expect(step({ deniedReason: 'free_trial_video', subscriptionKind: 'trial' }, 2)).toMatchObject({
      kind: 'freeVideo',
      left: 2,
      label: 'Watch as a free video (2 left)',
    })
    // The trial's size is the server's (unlockState.freeLimitedTrialVideos).
    expect(step({ deniedReason: 'free_trial_video', subscriptionKind: 'trial' }, 2, 5).note).toBe(
      'Watch Easy Glow in full as one of your 5 free videos: 2 left.',
    )
    const expired = step({ deniedReason: 'free_trial_expired', subscriptionKind: 'trial' })
    expect(expired.kind).toBe('upgrade')
    expect(expired.note).toContain('limited trial expired')
  })

  it('offers reactivation to a lapsed member and support, not a purchase, to one who pays for the site', () => {
    expect(step({ deniedReason: 'reactivate', subscriptionKind: 'expired', isActive: false }).kind).toBe('reactivate')
    expect(step({ deniedReason: 'support' })).toMatchObject({ kind: 'support', label: 'Contact support' })
  })

  it('calls the purchase an upgrade for a member of another site, full access for the others', () => {
    expect(step({ deniedReason: 'no_access' }).label).toBe('Upgrade membership')
    expect(step({ deniedReason: 'no_access', subscriptionKind: 'porn-portal', isActive: false }).label).toBe('Get full access')
  })

  it("shows a free trial's own refusals in the server's words, never as a shortage of credits", () => {
    for (const code of FREE_TRIAL_REFUSALS) {
      const outcome = refusedVideoUnlock(refused(code, `why ${code}`))
      expect(outcome).toEqual({ kind: 'trialRefused', code, message: `why ${code}` })
      expect(videoUnlockMessage(outcome)).toBe(`why ${code}`)
    }
  })

  it('reads the refusal of a fourth free video as the trial expired', () => {
    expect(refusedVideoUnlock(refused('NO_FREE_TRIAL_VIDEOS_LEFT'))).toMatchObject({
      kind: 'trialRefused',
      code: 'NO_FREE_TRIAL_VIDEOS_LEFT',
    })
    expect(videoUnlockMessage({ kind: 'trialExpired' })).toContain('limited trial expired')
  })
})
