import { describe, expect, it } from 'vitest'
import { base64Json as toBase64, member, routeInput, tenantConfig } from '../../../app/routing/testing'
import { evaluateRow, routeRow } from '../../../app/routing/table'
import {
  accountRule,
  camsOutcome,
  camsRequestBody,
  crossSiteUrl,
  dealsRule,
  decodeDealConfirmation,
  favoriteChannelsRule,
  favoritePerformersRule,
  favoritesRule,
  favoriteVideosRule,
  formatBrandNames,
  isJoinRoute,
  joinNowRule,
  offersRule,
  xsiteRule,
} from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }

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

describe('/account', () => {
  it('requires authentication', () => {
    expect(accountRule(routeInput('/account', { isMembersArea: true }))).toEqual(
      redirectTo('https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Faccount'),
    )
  })

  it('password_changed names the visible brands as upper-case ".COM" names joined with commas and "&"', () => {
    expect(accountRule(routeInput('/account?password_changed=1', { user: member() }))).toEqual({
      kind: 'page',
      screen: 'account',
      data: {
        passwordChangedBrands:
          'BLACKED.COM, BLACKEDRAW.COM, TUSHY.COM, TUSHYRAW.COM, VIXEN.COM, DEEPER.COM, SLAYED.COM, MILFY.COM & WIFEY.COM',
      },
    })
  })

  it('without password_changed there is no notice', () => {
    expect(accountRule(routeInput('/account', { user: member() }))).toMatchObject({ data: { passwordChangedBrands: null } })
  })

  it('formats one, two and three brands', () => {
    expect(formatBrandNames(['vixen'])).toBe('VIXEN.COM')
    expect(formatBrandNames(['vixen', 'tushy'])).toBe('VIXEN.COM & TUSHY.COM')
    expect(formatBrandNames(['a', 'b', 'c'])).toBe('A.COM, B.COM & C.COM')
  })
})

describe('/xsite/{site}', () => {
  it('requires authentication', () => {
    expect(xsiteRule(routeInput('/xsite/vixen', { params: { site: 'vixen' } }))).toEqual(notFound)
  })

  it('redirects to the members URL with the current brand name replaced by the site', () => {
    expect(xsiteRule(routeInput('/xsite/vixen', { params: { site: 'vixen' }, user: member() }))).toEqual(
      redirectTo('https://members.vixen.com'),
    )
  })

  it('adds the optional deeplink query value', () => {
    expect(
      xsiteRule(routeInput('/xsite/blacked?deeplink=%2Fvideos%2Fa-scene', { params: { site: 'blacked' }, user: member() })),
    ).toEqual(redirectTo('https://members.blacked.com/videos/a-scene'))
  })

  it('ignores a deeplink that could leave the site', () => {
    expect(
      xsiteRule(routeInput('/xsite/blacked?deeplink=%40evil.test', { params: { site: 'blacked' }, user: member() })),
    ).toEqual(redirectTo('https://members.blacked.com'))
  })

  it('an unknown site is not-found', () => {
    expect(xsiteRule(routeInput('/xsite/evil', { params: { site: 'evil' }, user: member() }))).toEqual(notFound)
  })

  it('replaces whole host labels only', () => {
    expect(crossSiteUrl('https://members.tushy.com', 'tushy', 'vixen')).toBe('https://members.vixen.com')
    expect(crossSiteUrl('https://members.tushyraw.com', 'tushy', 'vixen')).toBe('https://members.tushyraw.com')
    expect(crossSiteUrl('http://members.tushy.localhost:8080/', 'tushy', 'deeper', '/account')).toBe(
      'http://members.deeper.localhost:8080/account',
    )
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

describe('/favorites', () => {
  it('requires authentication', () => {
    expect(favoritesRule(routeInput('/favorites'))).toEqual(notFound)
  })

  it('shows the favorites page', () => {
    expect(favoritesRule(routeInput('/favorites', { user: member() }))).toMatchObject({ kind: 'page', screen: 'favorite' })
  })
})

describe('/favorites/videos, /favorites/performers, /favorites/channels', () => {
  it('the first two require authentication', () => {
    expect(favoriteVideosRule(routeInput('/favorites/videos'))).toEqual(notFound)
    expect(favoritePerformersRule(routeInput('/favorites/performers'))).toEqual(notFound)
  })

  it('/favorites/channels does not', () => {
    expect(favoriteChannelsRule(routeInput('/favorites/channels'))).toEqual({
      kind: 'page',
      screen: 'favoriteChannels',
      data: { page: 1 },
    })
  })

  it.each([
    ['/favorites/videos', favoriteVideosRule],
    ['/favorites/performers', favoritePerformersRule],
    ['/favorites/channels', favoriteChannelsRule],
  ])('%s: a page below 1 or non-numeric redirects with the query cleared', (path, rule) => {
    expect(rule(routeInput(`${path}?page=0&sort=new`, { user: member() }))).toEqual(redirectTo(path))
    expect(rule(routeInput(`${path}?page=abc`, { user: member() }))).toEqual(redirectTo(path))
  })

  it('shows the requested page', () => {
    expect(favoriteVideosRule(routeInput('/favorites/videos?page=4', { user: member() }))).toEqual({
      kind: 'page',
      screen: 'favoriteVideos',
      data: { page: 4 },
    })
    expect(favoritePerformersRule(routeInput('/favorites/performers', { user: member() }))).toMatchObject({
      screen: 'favoriteModels',
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
