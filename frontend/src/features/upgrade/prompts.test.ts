import { describe, expect, it } from 'vitest'
import type { ScreenId } from '../../app/routing'
import { pornPortalBar, upgradeBar, upgradeOverlayAction, type PromptFacts } from './prompts'

// The rule lists the access crate gives each kind of user (services/access/src/abilities.rs), as the bars read them.
const ROLE_ABILITIES: Record<string, string[]> = {
  anonymous: [],
  freeLimitedTrial: ['see PurchaseMembershipModal', 'see UpgradeBar', 'see TrialDeals', 'see FreeLimitedTrialVideos', 'see UpgradeOverlay'],
  trial: ['see PurchaseMembershipModal', 'see UpgradeBar', 'see TrialDeals', 'see UpgradeOverlay'],
  expired: ['see PornPortalBar', 'see PurchaseMembershipModal', 'see UpgradeBar', 'see UpgradeOverlay', 'see ExpiredDeals'],
  pornPortal: ['see PurchaseMembershipModal', 'see SpecialOffers', 'see UpgradeBar', 'see UpgradeOverlay', 'see LockedChannel'],
  pornPortalGuest: ['see PurchaseMembershipModal', 'see SpecialOffers'],
  activeMember: ['see FreeLimitedTrialVideos', 'see HideMonthInterstitialButton', 'see UnlockChannelModal', 'see GemAnimation'],
  cancelledNativeMember: [
    'see FreeLimitedTrialVideos',
    'see HideMonthInterstitialButton',
    'see UpgradeBar',
    'see ReactivateCancelledRebillModal',
  ],
}

const PROFILES: Record<string, PromptFacts['profile']> = {
  anonymous: null,
  freeLimitedTrial: { subscriptionKind: 'trial', isActive: true },
  trial: { subscriptionKind: 'trial', isActive: true },
  expired: { subscriptionKind: 'expired', isActive: false },
  pornPortal: { subscriptionKind: 'porn-portal', isActive: true },
  pornPortalGuest: { subscriptionKind: 'porn-portal', isActive: true },
  activeMember: { subscriptionKind: 'member', isActive: true },
  cancelledNativeMember: { subscriptionKind: 'member', isActive: true },
}

const facts = (role: string, screen: ScreenId | null = 'home', mobile = false): PromptFacts => ({
  can: (action, subject) => ROLE_ABILITIES[role]!.includes(`${action} ${subject}`),
  profile: PROFILES[role]!,
  screen: screen ?? undefined,
  campaignSource: 'tsh',
  mobile,
})

describe('the upgrade bar', () => {
  it('shows to the free limited trial, trial, expired and porn-portal users and the cancelled native member only', () => {
    const shown = Object.keys(ROLE_ABILITIES).filter((role) => upgradeBar(facts(role), 'TUSHY') !== null)
    expect(shown).toEqual(['freeLimitedTrial', 'trial', 'expired', 'pornPortal', 'cancelledNativeMember'])
  })

  it('says what each kind of user gets, and opens the purchase modal with the -upgrade campaign', () => {
    expect(upgradeBar(facts('trial'), 'TUSHY')).toEqual({
      kind: 'trial',
      message: 'You are on a trial. Upgrade to a full membership to watch every video on TUSHY.',
      action: { label: 'Upgrade now', modal: 'PurchaseMembership', modalProps: { elm: 'upgrade-bar', campaign: 'tsh-upgrade' } },
    })
    expect(upgradeBar(facts('freeLimitedTrial'), 'TUSHY')?.message).toBe(
      'Your free trial includes 3 full videos. Upgrade to watch every video on TUSHY.',
    )
    // The free trial's bar leads to the trial's videos; no other bar has a link.
    expect(upgradeBar(facts('freeLimitedTrial'), 'TUSHY')?.link).toEqual({
      label: 'See your free videos',
      href: '/free-trial-videos',
    })
    expect(upgradeBar(facts('trial'), 'TUSHY')?.link).toBeUndefined()
    expect(upgradeBar(facts('expired'), 'TUSHY')).toEqual({
      kind: 'expired',
      message: 'Your membership has expired. Rejoin to watch every video on TUSHY again.',
      action: {
        label: 'Rejoin now',
        modal: 'PurchaseMembership',
        modalProps: { elm: 'upgrade-bar', campaign: 'tsh-upgrade', reason: 'expired' },
      },
    })
    expect(upgradeBar(facts('pornPortal'), 'TUSHY')?.action.label).toBe('Get a membership')
    expect(upgradeBar(facts('trial', 'home', true), 'TUSHY')?.action.modalProps.campaign).toBe('tsh-upgrade')
  })

  it('offers the cancelled native member the reactivate-cancelled-rebill modal', () => {
    expect(upgradeBar(facts('cancelledNativeMember'), 'TUSHY')).toEqual({
      kind: 'reactivate',
      message: 'Your membership is cancelled and ends with the period you paid for.',
      action: { label: 'Reactivate my membership', modal: 'ReactivateCancelledRebill', modalProps: {} },
    })
  })

  it('stays off the join, signup, upgrade and one-click pages, and off a page not yet shown', () => {
    for (const screen of ['joinNow', 'signupSuccess', 'signupDenied', 'upgradeMembership', 'oneClickUpsellSuccess', 'outgoingUpsellOneClick'] as const) {
      expect(upgradeBar(facts('trial', screen), 'TUSHY')).toBeNull()
    }
    expect(upgradeBar(facts('trial', null), 'TUSHY')).toBeNull()
    expect(upgradeBar(facts('trial', 'offers'), 'TUSHY')).not.toBeNull()
  })
})

describe('the porn-portal bar', () => {
  it('shows to expired members only', () => {
    const shown = Object.keys(ROLE_ABILITIES).filter((role) => pornPortalBar(facts(role), 'TUSHY') !== null)
    expect(shown).toEqual(['expired'])
  })

  it('carries -pp-bar, and -int-pp-bar in the offers interstitial', () => {
    expect(pornPortalBar(facts('expired'), 'TUSHY')).toEqual({
      kind: 'pornPortal',
      message: 'Miss TUSHY? Come back for every video, or pick single videos with pay-per-video credits.',
      action: {
        label: 'See your options',
        modal: 'PurchaseMembership',
        modalProps: { elm: 'pp-bar', campaign: 'tsh-pp-bar', reason: 'expired' },
      },
    })
    expect(pornPortalBar(facts('expired', 'offers'), 'TUSHY')?.action.modalProps.campaign).toBe('tsh-int-pp-bar')
    expect(pornPortalBar(facts('expired', 'joinNow'), 'TUSHY')).toBeNull()
  })
})

describe("the upgrade overlay's button", () => {
  it('opens the purchase modal with the -upgrade campaign, worded to rejoin for an expired member', () => {
    expect(upgradeOverlayAction({ subscriptionKind: 'trial', isActive: true }, 'tsh', false)).toEqual({
      label: 'Upgrade now',
      modal: 'PurchaseMembership',
      modalProps: { elm: 'upgrade-overlay', campaign: 'tsh-upgrade' },
    })
    expect(upgradeOverlayAction({ subscriptionKind: 'member', isActive: false }, 'tsh', true)).toEqual({
      label: 'Rejoin now',
      modal: 'PurchaseMembership',
      modalProps: { elm: 'upgrade-overlay', campaign: 'tsh-upgrade', reason: 'expired' },
    })
  })
})
