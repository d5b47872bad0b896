import { describe, expect, it } from 'vitest'
import { member, routeInput } from '../../../app/routing/testing'
import { homeRule, tube2Rule } from './rules'

describe('/ (home)', () => {
  it('carries the viewport the page loads for, whose share of each shelf the home query asks for', () => {
    expect(homeRule(routeInput('/', { viewportType: 'small' }))).toMatchObject({ data: { viewportType: 'small' } })
    expect(homeRule(routeInput('/'))).toMatchObject({ data: { viewportType: 'large' } })
  })

  it('dc=approved or dc=blocked shows a success flash about the device challenge', () => {
    expect(homeRule(routeInput('/?dc=approved'))).toMatchObject({
      kind: 'page',
      screen: 'home',
      data: { flash: { type: 'success', message: 'deviceChallenge.approved' } },
    })
    expect(homeRule(routeInput('/?dc=blocked'))).toMatchObject({
      data: { flash: { type: 'success', message: 'deviceChallenge.blocked' } },
    })
  })

  it('notification=upgradesuccess or upgradedenial shows a flash', () => {
    expect(homeRule(routeInput('/?notification=upgradesuccess'))).toMatchObject({
      data: { flash: { type: 'success', message: 'notification.upgradesuccess' } },
    })
    expect(homeRule(routeInput('/?notification=upgradedenial'))).toMatchObject({
      data: { flash: { type: 'error', message: 'notification.upgradedenial' } },
    })
  })

  it('shows no flash for other values', () => {
    expect(homeRule(routeInput('/?dc=other&notification=x'))).toMatchObject({ data: { flash: null } })
  })

  it('modal=upgrade opens the purchase modal for a subscribed user who can see it', () => {
    const user = member({ abilities: ['see PurchaseMembershipModal'] })
    expect(homeRule(routeInput('/?modal=upgrade', { user }))).toMatchObject({ data: { openModal: 'PurchaseMembership' } })
  })

  it('modal=upgrade opens nothing without a subscription or without the ability', () => {
    const unsubscribed = member({ abilities: ['see PurchaseMembershipModal'], profile: { isSubscribed: false } })
    expect(homeRule(routeInput('/?modal=upgrade', { user: unsubscribed }))).toMatchObject({ data: { openModal: null } })
    expect(homeRule(routeInput('/?modal=upgrade', { user: member() }))).toMatchObject({ data: { openModal: null } })
  })

  it('reactivation=success for inactive users triggers the subscription-status action', () => {
    const inactive = member({ profile: { isActive: false } })
    expect(homeRule(routeInput('/?reactivation=success', { user: inactive }))).toMatchObject({
      data: { subscriptionStatusAction: 'reactivation' },
    })
    expect(homeRule(routeInput('/?reactivation=success', { user: member() }))).toMatchObject({
      data: { subscriptionStatusAction: null },
    })
  })

  it('from=joinnow triggers the subscription-status action', () => {
    expect(homeRule(routeInput('/?from=joinnow', { user: member() }))).toMatchObject({
      data: { subscriptionStatusAction: 'fromJoinnow' },
    })
  })
})

describe('/tube2', () => {
  it('redirects home, keeping the query', () => {
    expect(tube2Rule(routeInput('/tube2?utm=a&x=1'))).toEqual({ kind: 'redirect', status: 302, location: '/?utm=a&x=1' })
    expect(tube2Rule(routeInput('/tube2'))).toEqual({ kind: 'redirect', status: 302, location: '/' })
  })
})
