import { describe, expect, it } from 'vitest'
import { joinUrl } from '../routing'
import { member, userView } from '../routing/testing'
import { autoModalFacts, hasSignupNotification } from './shellFacts'

describe('the facts the automatic modals read', () => {
  it('a signup or upgrade result in the query counts as a signup notification', () => {
    for (const query of ['notification=upgradesuccess', 'reactivation=success', 'from=joinnow']) {
      expect(hasSignupNotification(new URLSearchParams(query))).toBe(true)
    }
    expect(hasSignupNotification(new URLSearchParams('page=2'))).toBe(false)
  })

  it('a visitor has no subscription and only the browser’s acknowledgements', () => {
    const facts = autoModalFacts({ user: userView(), region: 'US-TX' }, 'home', new URLSearchParams(), { 'US-TX': true })
    expect(facts).toMatchObject({
      isAuthenticated: false,
      subscription: null,
      region: 'US-TX',
      healthWarningAcknowledged: { 'US-TX': true, 'US-AL': false },
    })
  })

  it('a member’s profile flags count, and unknown ones open nothing', () => {
    const user = member({ profile: { isActive: false, subscriptionKind: 'trial', healthWarningAcknowledged: { 'US-AL': true } } })
    const facts = autoModalFacts({ user }, 'videos', new URLSearchParams(), {})
    expect(facts).toMatchObject({
      subscription: { kind: 'trial', active: false },
      gemsIntroSeen: true,
      promotionalTeaserViewed: true,
      emailConsentRequested: false,
      region: null,
      healthWarningAcknowledged: { 'US-TX': false, 'US-AL': true },
    })
  })
})

describe('the members join link', () => {
  it('carries the brand, and ref, elm and nats when known', () => {
    expect(joinUrl({ membersUrl: 'https://members.tushy.com/', tenant: 'tushy' }, { ref: 'home', elm: 'header', nats: 'abc' })).toBe(
      'https://members.tushy.com/joinnow?brand=tushy&ref=home&elm=header&nats=abc',
    )
    expect(joinUrl({ membersUrl: 'http://members.localhost:8080', tenant: 'wifey' })).toBe(
      'http://members.localhost:8080/joinnow?brand=wifey',
    )
  })
})
