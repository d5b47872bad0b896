import { describe, expect, it } from 'vitest'
import { crossSiteUrl } from '../../../app/routing'
import { member, routeInput } from '../../../app/routing/testing'
import { sitesRule, xsiteRule } from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }

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

describe('/sites/{brand}/{type}', () => {
  const sites = (url: string, brand: string, type: string) => sitesRule(routeInput(url, { params: { brand, type } }))

  it("brand must be one of the tenant's standaloneSites", () => {
    expect(sites('/sites/deeper/videos', 'deeper', 'videos')).toEqual(notFound)
  })

  it('brand must not be the current tenant', () => {
    expect(sites('/sites/tushy/videos', 'tushy', 'videos')).toEqual(notFound)
  })

  it('type must be videos or performers', () => {
    expect(sites('/sites/vixen/pictures', 'vixen', 'pictures')).toEqual(notFound)
  })

  it('shows the sister-site listing', () => {
    expect(sites('/sites/vixen/performers?page=2', 'vixen', 'performers')).toEqual({
      kind: 'page',
      screen: 'sites',
      data: { brand: 'vixen', type: 'performers', page: 2 },
    })
  })

  it('a page below 1 or non-numeric redirects to the same route with page and sites dropped', () => {
    expect(sites('/sites/vixen/videos?page=0&sort=new', 'vixen', 'videos')).toEqual(redirectTo('/sites/vixen/videos?sort=new'))
  })

  it('a sites query present redirects to the same route with page and sites dropped', () => {
    expect(sites('/sites/blacked/videos?sites=a&page=2', 'blacked', 'videos')).toEqual(redirectTo('/sites/blacked/videos'))
  })
})
