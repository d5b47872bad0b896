import { describe, expect, it } from 'vitest'
import { member, MULTISITE_ID, routeInput, tenantConfig, userView, VIXENPLUS_ID } from '../../../app/routing/testing'
import {
  isMultisiteSiteId,
  outgoingUpsellRule,
  parentRedirectRule,
  signupDenialRule,
  signupExternOutcome,
  signupSuccessRule,
  upgradeDenialOutcome,
  upgradeMembershipRule,
  upgradeSuccessOutcome,
  upsellSignupDenialRule,
  upsellSignupSuccessRule,
  welcomeCheckInput,
} from './rules'
import { evaluateRow, routeRow } from '../../../app/routing/table'

const redirectTo = (location: string) => ({ kind: 'redirect', status: 302, location })
const welcome = { memberid: '123', username: 'newmember', hashedMemberId: 'h123', siteId: 2 }

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

describe('/_upsell_signupsuccess, /_upsell_signupdenial', () => {
  it('success records status true and may set outgoing_upsell_oneclick_success', () => {
    expect(upsellSignupSuccessRule()).toEqual({
      kind: 'page',
      screen: 'oneClickUpsellSuccess',
      data: { status: true, cookieName: 'outgoing_upsell_oneclick_success' },
    })
  })

  it('failure records status false and may set outgoing_upsell_oneclick_fallback', () => {
    expect(upsellSignupDenialRule()).toEqual({
      kind: 'page',
      screen: 'oneClickUpsellFailure',
      data: { status: false, cookieName: 'outgoing_upsell_oneclick_fallback' },
    })
  })
})

describe('/oneclick/outgoing-upsell', () => {
  it('reads epoch_upsellid, segpay_upsellid, rg_upsellid, tour_link_code, member_link, gas_cid, confirmed', () => {
    const url =
      '/oneclick/outgoing-upsell?epoch_upsellid=e1&segpay_upsellid=s1&rg_upsellid=r1&tour_link_code=t1&member_link=m1&gas_cid=g1&confirmed=1'
    expect(outgoingUpsellRule(routeInput(url))).toEqual({
      kind: 'page',
      screen: 'outgoingUpsellOneClick',
      data: {
        epochUpsellId: 'e1',
        segpayUpsellId: 's1',
        rgUpsellId: 'r1',
        tourLinkCode: 't1',
        memberLink: 'm1',
        gasCid: 'g1',
        confirmed: '1',
      },
    })
  })
})
