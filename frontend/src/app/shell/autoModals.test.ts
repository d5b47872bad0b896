import { describe, expect, it } from 'vitest'
import { tenantConfig } from '../routing/testing'
import {
  automaticModal,
  gemsIntroBlockers,
  healthWarningToShow,
  isExpired,
  isPromotionalTeaserPending,
  modalForDeniedAction,
  shouldOpenGemsIntro,
  type AutoModalFacts,
  type DeniedActionFacts,
} from './autoModals'

/** An active member on the home page with nothing pending: the gems intro is due. */
function facts(overrides: Partial<AutoModalFacts> = {}): AutoModalFacts {
  return {
    screen: 'home',
    isAuthenticated: true,
    isGuest: false,
    subscription: { kind: 'member', active: true },
    signupNotification: false,
    unlockedChannelPackCount: 0,
    gemsIntroSeen: false,
    gemsModalShownWithinDay: false,
    isTandemChild: false,
    promotionalTeaserViewed: true,
    emailConsentRequested: false,
    region: null,
    healthWarningAcknowledged: {},
    ...overrides,
  }
}

const plain = tenantConfig()
const texas = tenantConfig({ features: { healthWarning: { 'US-TX': { enabled: true, regionName: 'Texas' } } } })
const bothRegions = tenantConfig({
  features: {
    healthWarning: {
      'US-TX': { enabled: true, regionName: 'Texas' },
      'US-AL': { enabled: true, regionName: 'Alabama' },
    },
  },
})
const teaser = tenantConfig({ features: { promotionalVideoTeaserModal: { enabled: true } } })

describe('gems intro', () => {
  it('opens when none of the conditions hold', () => {
    expect(gemsIntroBlockers(facts(), plain)).toEqual([])
    expect(shouldOpenGemsIntro(facts(), plain)).toBe(true)
  })

  it.each(['offers', 'joinNow', 'signupSuccess', 'signupExternal', 'signupDenied', 'oneClickUpsellSuccess', 'oneClickUpsellFailure'] as const)(
    'not on the %s page',
    (screen) => {
      expect(shouldOpenGemsIntro(facts({ screen }), plain)).toBe(false)
    },
  )

  it('not for an inactive subscription', () => {
    expect(shouldOpenGemsIntro(facts({ subscription: { kind: 'member', active: false } }), plain)).toBe(false)
  })

  it('not for a trial', () => {
    expect(shouldOpenGemsIntro(facts({ subscription: { kind: 'trial', active: true } }), plain)).toBe(false)
  })

  it('not for a visitor', () => {
    expect(shouldOpenGemsIntro(facts({ isAuthenticated: false, subscription: null }), plain)).toBe(false)
  })

  it('not with a signup notification', () => {
    expect(shouldOpenGemsIntro(facts({ signupNotification: true }), plain)).toBe(false)
  })

  it('not when some channel packs are already unlocked', () => {
    expect(shouldOpenGemsIntro(facts({ unlockedChannelPackCount: 1 }), plain)).toBe(false)
  })

  it('not when the intro was already seen', () => {
    expect(shouldOpenGemsIntro(facts({ gemsIntroSeen: true }), plain)).toBe(false)
  })

  it('not when the gems modal showed within the last day', () => {
    expect(shouldOpenGemsIntro(facts({ gemsModalShownWithinDay: true }), plain)).toBe(false)
  })

  it('not while the promotional teaser is pending', () => {
    expect(shouldOpenGemsIntro(facts({ promotionalTeaserViewed: false }), teaser)).toBe(false)
  })

  it('not while a health warning is unacknowledged, even on a page that does not show it', () => {
    expect(shouldOpenGemsIntro(facts({ region: 'US-TX' }), texas)).toBe(false)
    expect(shouldOpenGemsIntro(facts({ region: 'US-TX', healthWarningAcknowledged: { 'US-TX': true } }), texas)).toBe(true)
  })

  it('not for a tandem child account', () => {
    expect(shouldOpenGemsIntro(facts({ isTandemChild: true }), plain)).toBe(false)
  })
})

describe('health warning', () => {
  it('shows the Texas variant for US-TX when enabled and not acknowledged', () => {
    expect(healthWarningToShow(facts({ region: 'US-TX' }), texas)).toBe('US-TX')
  })

  it('shows the Alabama variant for US-AL', () => {
    expect(healthWarningToShow(facts({ region: 'US-AL' }), bothRegions)).toBe('US-AL')
  })

  it('shows to visitors too', () => {
    expect(healthWarningToShow(facts({ region: 'US-TX', isAuthenticated: false, subscription: null }), texas)).toBe('US-TX')
  })

  it('not when the tenant has the region switched off', () => {
    expect(healthWarningToShow(facts({ region: 'US-AL' }), texas)).toBeNull()
  })

  it('not once acknowledged', () => {
    expect(healthWarningToShow(facts({ region: 'US-TX', healthWarningAcknowledged: { 'US-TX': true } }), texas)).toBeNull()
  })

  it('not for other regions or an unknown region', () => {
    expect(healthWarningToShow(facts({ region: 'US-CA' }), bothRegions)).toBeNull()
    expect(healthWarningToShow(facts({ region: null }), bothRegions)).toBeNull()
  })

  it.each([
    'joinNow',
    'signupSuccess',
    'signupExternal',
    'signupDenied',
    'upgradeMembership',
    'upgradeSuccess',
    'upgradeDenied',
    'oneClickUpsellSuccess',
    'oneClickUpsellFailure',
    'outgoingUpsellOneClick',
  ] as const)('never on the %s page', (screen) => {
    expect(healthWarningToShow(facts({ region: 'US-TX', screen }), texas)).toBeNull()
  })
})

describe('promotional teaser', () => {
  it('opens when enabled, not yet viewed, for a signed-in user who is not a guest', () => {
    expect(isPromotionalTeaserPending(facts({ promotionalTeaserViewed: false }), teaser)).toBe(true)
  })

  it('not when the feature is off', () => {
    expect(isPromotionalTeaserPending(facts({ promotionalTeaserViewed: false }), plain)).toBe(false)
  })

  it('not once viewed', () => {
    expect(isPromotionalTeaserPending(facts({ promotionalTeaserViewed: true }), teaser)).toBe(false)
  })

  it('not for a guest or a visitor', () => {
    expect(isPromotionalTeaserPending(facts({ promotionalTeaserViewed: false, isGuest: true }), teaser)).toBe(false)
    expect(isPromotionalTeaserPending(facts({ promotionalTeaserViewed: false, isAuthenticated: false }), teaser)).toBe(false)
  })
})

describe('the signup result pages', () => {
  it('open no offer over the welcome of a member the page just signed in', () => {
    const pending = facts({ promotionalTeaserViewed: false, screen: 'signupSuccess' })
    expect(automaticModal(pending, teaser)).toBeNull()
    expect(automaticModal({ ...pending, screen: 'home' }, teaser)).toEqual({ id: 'PromotionalVideo' })
  })
})

describe('expired users', () => {
  it('is expired when not active and not porn-portal', () => {
    expect(isExpired(facts({ subscription: { kind: 'member', active: false } }))).toBe(true)
    expect(isExpired(facts({ subscription: { kind: 'expired', active: false } }))).toBe(true)
    expect(isExpired(facts({ subscription: { kind: 'porn-portal', active: false } }))).toBe(false)
    expect(isExpired(facts({ subscription: null }))).toBe(false)
    expect(isExpired(facts())).toBe(false)
  })

  it('get the upgrade (purchase membership) modal on load', () => {
    expect(automaticModal(facts({ subscription: { kind: 'expired', active: false } }), plain)).toEqual({
      id: 'PurchaseMembership',
      props: { reason: 'expired' },
    })
  })
})

describe('which modal opens on load', () => {
  it('the health warning first', () => {
    expect(automaticModal(facts({ region: 'US-TX', promotionalTeaserViewed: false }), { ...texas, features: { ...texas.features, promotionalVideoTeaserModal: { enabled: true } } })).toEqual({
      id: 'HealthWarning',
      props: { region: 'US-TX' },
    })
  })

  it('then the e-mail consent prompt the profile asks for: the tandem text, or the guests\' one', () => {
    expect(automaticModal(facts({ emailConsentRequested: true, promotionalTeaserViewed: false }), teaser)).toEqual({
      id: 'EmailConsent',
      props: { variant: 'tandem' },
    })
    expect(automaticModal(facts({ emailConsentRequested: true, isGuest: true }), plain)).toEqual({
      id: 'EmailConsent',
      props: { variant: 'guest' },
    })
    expect(automaticModal(facts({ emailConsentRequested: true, screen: 'signupSuccess' }), plain)?.id).not.toBe('EmailConsent')
    expect(automaticModal(facts({ emailConsentRequested: true, isAuthenticated: false }), plain)?.id).not.toBe('EmailConsent')
  })

  it('then the teaser', () => {
    expect(automaticModal(facts({ promotionalTeaserViewed: false }), teaser)).toEqual({ id: 'PromotionalVideo' })
  })

  it('then the gems intro', () => {
    expect(automaticModal(facts(), plain)).toEqual({ id: 'UserGemsInfo', props: { intro: true } })
  })

  it('nothing for a visitor outside the warning regions', () => {
    expect(automaticModal(facts({ isAuthenticated: false, subscription: null }), plain)).toBeNull()
  })
})

describe('a denied access-guarded action', () => {
  const denied = (overrides: Partial<DeniedActionFacts> = {}): DeniedActionFacts => ({
    channelVideo: false,
    isMultisiteWithAccess: false,
    isActiveTrial: false,
    payPerVideoCredits: 0,
    isThirdPartyChannel: false,
    isFreeLimitedTrial: false,
    ...overrides,
  })

  it('on a channel video, a multisite user with access gets the unlock-channel modal', () => {
    expect(modalForDeniedAction(denied({ channelVideo: true, isMultisiteWithAccess: true }))).toEqual({ id: 'UnlockChannel' })
  })

  it('an active trial user with credits, a non-third-party channel, not on the free limited trial gets unlock-or-upgrade', () => {
    expect(modalForDeniedAction(denied({ isActiveTrial: true, payPerVideoCredits: 2 }))).toEqual({ id: 'UnlockOrUpgradeMembership' })
  })

  it.each([
    ['no credits', { isActiveTrial: true, payPerVideoCredits: 0 }],
    ['a third-party channel', { isActiveTrial: true, payPerVideoCredits: 2, isThirdPartyChannel: true }],
    ['the free limited trial', { isActiveTrial: true, payPerVideoCredits: 2, isFreeLimitedTrial: true }],
    ['anyone else', {}],
  ] as const)('otherwise (%s) the purchase modal with single-site options', (_, overrides) => {
    expect(modalForDeniedAction(denied(overrides))).toEqual({ id: 'PurchaseMembership', props: { singleSiteOnly: true } })
  })
})
