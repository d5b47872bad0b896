import { describe, expect, it } from 'vitest'
import { evaluateRow, routeRow, isMultisiteSiteId } from '../../../app/routing'
import { member, MULTISITE_ID, routeInput, tenantConfig, userView, VIXENPLUS_ID } from '../../../app/routing/testing'
import {
  isJoinRoute,
  joinNowRule,
  parentRedirectRule,
  signupDenialRule,
  signupExternOutcome,
  signupSuccessRule,
  unknownRouteRule,
  upgradeDenialOutcome,
  upgradeMembershipRule,
  upgradeSuccessOutcome,
  welcomeCheckInput,
} from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }
const welcome = { memberid: '123', username: 'newmember', hashedMemberId: 'h123', siteId: 2 }

describe('/joinnow', () => {
  it('an authenticated user is redirected home with from=joinnow', () => {
    expect(joinNowRule(routeInput('/joinnow', { user: member() }))).toEqual(redirectTo('/?from=joinnow'))
  })

  it('a visitor sees the join page without authentication', () => {
    expect(joinNowRule(routeInput('/joinnow'))).toEqual({ kind: 'page', screen: 'joinNow', data: undefined })
  })

  it('any path containing /joinnow counts as the join route', () => {
    expect(isJoinRoute('/joinnow')).toBe(true)
    expect(isJoinRoute('/promo/joinnow/step-2')).toBe(true)
    expect(isJoinRoute('/join')).toBe(false)
  })
})

describe('/_signupsuccess', () => {
  it('without memberid and username in the welcome data, redirects home', () => {
    expect(signupSuccessRule(routeInput('/_signupsuccess'))).toEqual(redirectTo('/'))
    expect(signupSuccessRule(routeInput('/_signupsuccess', { user: userView({ welcome: { memberid: '1' } }) }))).toEqual(
      redirectTo('/'),
    )
  })

  it('an already authenticated user on a non-multisite signup goes home with reactivation=success and fatr=true', () => {
    expect(signupSuccessRule(routeInput('/_signupsuccess', { user: member({ welcome }) }))).toEqual(
      redirectTo('/?reactivation=success&fatr=true'),
    )
  })

  it('otherwise the welcome page with background images', () => {
    expect(signupSuccessRule(routeInput('/_signupsuccess', { user: userView({ welcome }) }))).toEqual({
      kind: 'page',
      screen: 'signupSuccess',
      data: { pictureSetSite: 'TUSHY', isMultisite: false },
    })
  })

  it('the multisite and VP site ids count as multisite, so an authenticated user sees the welcome page', () => {
    for (const siteId of [MULTISITE_ID, String(VIXENPLUS_ID)]) {
      expect(signupSuccessRule(routeInput('/_signupsuccess', { user: member({ welcome: { ...welcome, siteId } }) }))).toMatchObject({
        kind: 'page',
        data: { isMultisite: true },
      })
    }
    expect(isMultisiteSiteId(tenantConfig(), undefined)).toBe(false)
  })
})

describe('/_signup-extern/{biller}', () => {
  const input = routeInput('/_signup-extern/epoch', { params: { biller: 'epoch' } })

  it('an authenticated user is redirected home', () => {
    const row = routeRow('/_signup-extern/:biller')
    expect(evaluateRow(row, routeInput('/_signup-extern/epoch', { user: member() }))).toEqual(redirectTo('/'))
    expect(evaluateRow(row, input)).toEqual({ page: 1 })
  })

  it('a 400 response redirects to the signup-denied page', () => {
    expect(signupExternOutcome(input, { status: 400, body: null })).toEqual(redirectTo('/_signupdenial'))
  })

  it('loads signup data (data.data) onto the signup-success screen', () => {
    expect(signupExternOutcome(input, { status: 200, body: { data: { username: 'x' } } })).toEqual({
      kind: 'page',
      screen: 'signupExternal',
      data: { biller: 'epoch', signup: { username: 'x' } },
    })
  })

  it('other failures go to the shared loader error handler', () => {
    expect(signupExternOutcome(input, { status: 404, body: null })).toEqual({ kind: 'notFound' })
    expect(signupExternOutcome(input, { status: 500, body: null })).toMatchObject({ kind: 'error' })
  })
})

describe('/_signupdenial', () => {
  it('sends a signed-in user to offers when the welcome site id is the multisite or the VP id', () => {
    for (const siteId of [MULTISITE_ID, VIXENPLUS_ID]) {
      expect(
        signupDenialRule(routeInput('/_signupdenial', { user: userView({ isAuthenticated: true, welcome: { siteId } }) })),
      ).toEqual(redirectTo('/offers'))
    }
  })

  it('shows a declined visitor the denial, whatever the site id: offers is not theirs to see', () => {
    for (const siteId of [MULTISITE_ID, VIXENPLUS_ID]) {
      expect(signupDenialRule(routeInput('/_signupdenial', { user: userView({ welcome: { siteId, reason: 'Card expired' } }) }))).toMatchObject({
        kind: 'page',
        screen: 'signupDenied',
      })
    }
  })

  it('otherwise the signup-denied page', () => {
    expect(signupDenialRule(routeInput('/_signupdenial', { user: userView({ welcome }) }))).toMatchObject({
      kind: 'page',
      screen: 'signupDenied',
    })
  })
})

describe('/_upgrademembership', () => {
  it('sends the user home if welcome data lacks member id or username', () => {
    expect(upgradeMembershipRule(routeInput('/_upgrademembership', { user: userView({ welcome: { username: 'u' } }) }))).toEqual(
      redirectTo('/'),
    )
  })

  it.each([
    ['boundary', 1400, 1024],
    ['huge', 1400, 1024],
    ['xlarge', 1400, 1024],
    ['large', 1400, 1024],
    ['medium', 1045, 1024],
    ['small', 320, 770],
  ] as const)('on a %s viewport the background image is %ix%i', (viewportType, width, height) => {
    expect(upgradeMembershipRule(routeInput('/_upgrademembership', { user: userView({ welcome }), viewportType }))).toMatchObject({
      kind: 'page',
      screen: 'upgradeMembership',
      data: { backgroundImage: { width, height } },
    })
  })
})

describe('/_upgradesuccess', () => {
  it('returns notification upgradesuccess with fatr=true and a redirect to /?al_token={token}', () => {
    expect(upgradeSuccessOutcome('tok-1')).toEqual(redirectTo('/?al_token=tok-1&notification=upgradesuccess&fatr=true'))
  })

  it('asks welcomeCheck with the upper-cased tenant', () => {
    expect(welcomeCheckInput('success', tenantConfig(), welcome)).toEqual({
      site: 'TUSHY',
      memberId: '123',
      hashedMemberId: 'h123',
    })
  })
})

describe('/_upgradedenial', () => {
  it('returns notification upgradedenial and a redirect to /?al_token={token}', () => {
    expect(upgradeDenialOutcome('tok-2')).toEqual(redirectTo('/?al_token=tok-2&notification=upgradedenial'))
  })

  it('asks welcomeCheck with the plain site', () => {
    expect(welcomeCheckInput('denial', tenantConfig({ site: 'tushy-site' }), welcome).site).toBe('tushy-site')
  })

  it('without a token the redirect carries only the notification', () => {
    expect(upgradeDenialOutcome(null)).toEqual(redirectTo('/?notification=upgradedenial'))
  })
})

describe('/parent-redirect', () => {
  it('reads id_token and next and shows a redirect page with them', () => {
    expect(parentRedirectRule(routeInput('/parent-redirect?id_token=abc&next=%2Faccount'))).toEqual({
      kind: 'page',
      screen: 'parentRedirect',
      data: { idToken: 'abc', next: '/account' },
    })
  })
})

describe('a path missing from the route table', () => {
  it('is not-found', () => {
    expect(unknownRouteRule(routeInput('/no-such-page'))).toEqual(notFound)
  })

  it('is the join route when it contains /joinnow', () => {
    expect(unknownRouteRule(routeInput('/promo/joinnow'))).toMatchObject({ kind: 'page', screen: 'joinNow' })
  })
})
