import { describe, expect, it } from 'vitest'
import { purchaseKind, purchaseStep } from './purchase'

describe('the purchase kinds', () => {
  it('offers a trial its upgrade, a lapsed user a reactivation and an active member the multisite package', () => {
    expect(purchaseKind({ subscriptionKind: 'trial', isActive: true })).toBe('trialUpgrade')
    expect(purchaseKind({ subscriptionKind: 'expired', isActive: false })).toBe('reactivate')
    expect(purchaseKind({ subscriptionKind: 'member', isActive: false })).toBe('reactivate')
    expect(purchaseKind(null)).toBe('reactivate')
    expect(purchaseKind({ subscriptionKind: 'member', isActive: true })).toBe('multisite')
  })
})

describe('after the answer', () => {
  it('follows a location the answer gives', () => {
    expect(purchaseStep('trialUpgrade', { success: false, location: 'https://biller.example/3ds' })).toEqual({
      kind: 'goTo',
      location: 'https://biller.example/3ds',
    })
  })

  it('polls the status after a trial upgrade or a reactivation without a location, or with /', () => {
    expect(purchaseStep('trialUpgrade', { success: true })).toEqual({ kind: 'poll' })
    expect(purchaseStep('reactivate', { success: true, location: '/' })).toEqual({ kind: 'poll' })
  })

  it('sends a multisite buyer to the signup-success page with fatr and the new member data', () => {
    const step = purchaseStep('multisite', { success: true, location: '/', memberId: '42', hashedMemberId: 'h', username: 'neo' })
    expect(step.kind).toBe('signupSuccess')
    const url = new URL((step as { location: string }).location, 'http://x')
    expect(url.pathname).toBe('/_signupsuccess')
    expect(Object.fromEntries(url.searchParams)).toEqual({ fatr: 'true', memberid: '42', hashedMemberId: 'h', username: 'neo' })
  })
})
