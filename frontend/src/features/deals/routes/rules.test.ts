import { describe, expect, it } from 'vitest'
import { evaluateRow, routeRow } from '../../../app/routing'
import { base64Json as toBase64, member, routeInput, tenantConfig } from '../../../app/routing/testing'
import {
  camsOutcome,
  camsRequestBody,
  dealsRule,
  decodeDealConfirmation,
  offersRule,
  outgoingUpsellRule,
  upsellSignupDenialRule,
  upsellSignupSuccessRule,
} from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }

describe('/offers', () => {
  const teaser = tenantConfig({ features: { promotionalVideoTeaserModal: { enabled: true } } })
  const unseen = member({ profile: { teaserViewed: false } })

  it('requires authentication', () => {
    expect(offersRule(routeInput('/offers'))).toEqual(notFound)
  })

  it('with the teaser feature on and the teaser not seen, redirects to next', () => {
    expect(offersRule(routeInput('/offers?next=%2Fvideos%3Fpage%3D2', { tenant: teaser, user: unseen }))).toEqual(
      redirectTo('/videos?page=2'),
    )
  })

  it('next defaults to /', () => {
    expect(offersRule(routeInput('/offers', { tenant: teaser, user: unseen }))).toEqual(redirectTo('/'))
  })

  it('a next that leaves the site falls back to /', () => {
    expect(offersRule(routeInput('/offers?next=https%3A%2F%2Fevil.test', { tenant: teaser, user: unseen }))).toEqual(
      redirectTo('/'),
    )
  })

  it('otherwise the offers page', () => {
    expect(offersRule(routeInput('/offers', { tenant: teaser, user: member() }))).toMatchObject({ screen: 'offers' })
    expect(offersRule(routeInput('/offers', { user: unseen }))).toMatchObject({ screen: 'offers' })
  })
})

describe('/cams', () => {
  it('requires authentication', () => {
    expect(evaluateRow(routeRow('/cams'), routeInput('/cams'))).toEqual(notFound)
    expect(evaluateRow(routeRow('/cams'), routeInput('/cams', { user: member() }))).toEqual({ page: 1 })
  })

  it('posts the query parameters plus email and siteName', () => {
    expect(camsRequestBody(new URLSearchParams('a=1&b=2'), 'm@example.test', { tenant: 'tushy' })).toEqual({
      a: '1',
      b: '2',
      email: 'm@example.test',
      siteName: 'tushy',
    })
  })

  it('redirects to the URL returned by the one-click upsell call', () => {
    expect(camsOutcome({ ok: true, statusText: 'OK', body: { url: 'https://cams.example.test/x' } })).toEqual(
      redirectTo('https://cams.example.test/x'),
    )
  })

  it("a non-OK answer is the error 'Failed to fetch cams oneclick url' with the status text", () => {
    expect(camsOutcome({ ok: false, statusText: 'Bad Gateway', body: null })).toEqual({
      kind: 'error',
      message: 'Failed to fetch cams oneclick url: Bad Gateway',
    })
  })
})

describe('/deals', () => {
  const confirmation = {
    title: 'Übersite',
    confirmationLink: 'https://partner.example.test/confirm?id=1',
    component: 'ConfirmOutgoingUpsell',
    price: { initial: '1.00', recurring: '29.95' },
    description: 'One-click offer',
  }

  it('without confirmation shows the deals page', () => {
    expect(dealsRule(routeInput('/deals'))).toEqual({
      kind: 'page',
      screen: 'deals',
      data: { confirmation: null, openModal: null },
    })
  })

  it('a base64 JSON confirmation opens the outgoing-upsell confirmation modal', () => {
    const query = new URLSearchParams({ confirmation: toBase64(confirmation) })
    expect(dealsRule(routeInput(`/deals?${query}`))).toEqual({
      kind: 'page',
      screen: 'deals',
      data: { confirmation, openModal: 'ConfirmOutgoingUpsell' },
    })
  })

  it("an empty link is the error 'Outgoing upsell - Confirmation link is missing'", () => {
    const query = new URLSearchParams({ confirmation: toBase64({ ...confirmation, confirmationLink: '' }) })
    expect(dealsRule(routeInput(`/deals?${query}`))).toEqual({
      kind: 'error',
      message: 'Outgoing upsell - Confirmation link is missing',
    })
  })

  it.each([
    ['a missing link', toBase64({ title: 'x' })],
    ['a script link', toBase64({ ...confirmation, confirmationLink: 'javascript:alert(1)' })],
    ['not base64', '%%%'],
    ['not JSON', btoa('hello')],
    ['empty', ''],
  ])('%s is the same error', (_, encoded) => {
    expect(dealsRule(routeInput(`/deals?${new URLSearchParams({ confirmation: encoded })}`))).toMatchObject({
      kind: 'error',
      message: 'Outgoing upsell - Confirmation link is missing',
    })
  })

  it('decodes a + that arrived as a space and the URL-safe alphabet', () => {
    const encoded = toBase64({ ...confirmation, title: '>>>?' })
    expect(encoded).toMatch(/[+/]/)
    expect(decodeDealConfirmation(encoded.replace(/\+/g, ' '))?.title).toBe('>>>?')
    expect(decodeDealConfirmation(encoded.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))?.title).toBe('>>>?')
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
