import { describe, expect, it } from 'vitest'
import { routeInput, tenantConfig, userView } from '../../../app/routing/testing'
import { unknownRouteRule } from '../../signup/routes/unknown'
import {
  angelRule,
  angelsRule,
  quickiesRule,
  recommendedVideosRule,
  showcaseRule,
  showcasesRule,
  sitesRule,
  wallRule,
} from './rules'

const notFound = { kind: 'notFound' }
const redirectTo = (location: string) => ({ kind: 'redirect', status: 302, location })
const allOn = tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true, curator: true } })

describe('/angels and /angels/:slug (showAngels)', () => {
  it('/angels is not-found unless showAngels is on', () => {
    expect(angelsRule(routeInput('/angels'))).toEqual(notFound)
    expect(angelsRule(routeInput('/angels', { tenant: allOn }))).toMatchObject({ kind: 'page', screen: 'angels' })
  })

  it('/angels/:slug: feature off is not-found', () => {
    expect(angelRule(routeInput('/angels/a', { params: { slug: 'a' } }))).toEqual(notFound)
  })

  it('/angels/:slug: invalid slug is not-found', () => {
    expect(angelRule(routeInput('/angels/A', { params: { slug: 'A' }, tenant: allOn }))).toEqual(notFound)
  })

  it('/angels/:slug: the angel profile page, page id angel:{slug}', () => {
    expect(angelRule(routeInput('/angels/a', { params: { slug: 'a' }, tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'angel',
      pageId: 'angel:a',
      data: { slug: 'a' },
    })
  })
})

describe('/showcases and /showcase/{slug} (showcasesPage)', () => {
  it('/showcases is not-found unless showcasesPage is on', () => {
    expect(showcasesRule(routeInput('/showcases'))).toEqual(notFound)
    expect(showcasesRule(routeInput('/showcases', { tenant: allOn }))).toMatchObject({ screen: 'showcases' })
  })

  it('/showcase/{slug}: invalid slug or feature off is not-found', () => {
    expect(showcaseRule(routeInput('/showcase/s', { params: { slug: 's' } }))).toEqual(notFound)
    expect(showcaseRule(routeInput('/showcase/s_1', { params: { slug: 's_1' }, tenant: allOn }))).toEqual(notFound)
  })

  it('/showcase/{slug}: the showcase page', () => {
    expect(showcaseRule(routeInput('/showcase/s-1', { params: { slug: 's-1' }, tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'showcase',
      data: { slug: 's-1' },
    })
  })
})

describe('/quickies/{uuid?} (reels)', () => {
  it('is not-found unless reels is on', () => {
    expect(quickiesRule(routeInput('/quickies'))).toEqual(notFound)
  })

  it('shows quickies, with or without a uuid', () => {
    expect(quickiesRule(routeInput('/quickies', { tenant: allOn }))).toEqual({
      kind: 'page',
      screen: 'quickies',
      data: { uuid: null },
    })
    expect(quickiesRule(routeInput('/quickies/u-1', { tenant: allOn, params: { uuid: 'u-1' } }))).toMatchObject({
      data: { uuid: 'u-1' },
    })
  })
})

describe('/wall (curator)', () => {
  it('is not-found unless curator is on', () => {
    expect(wallRule(routeInput('/wall'))).toEqual(notFound)
    expect(wallRule(routeInput('/wall', { tenant: allOn }))).toMatchObject({ kind: 'page', screen: 'wall' })
  })
})

describe('/recommended-videos', () => {
  it('is not-found without the ability to see the recommendation shelf', () => {
    expect(recommendedVideosRule(routeInput('/recommended-videos'))).toEqual(notFound)
  })

  it('shows recommended videos with the ability', () => {
    const user = userView({ abilities: ['see RecommendationShelf'] })
    expect(recommendedVideosRule(routeInput('/recommended-videos', { user }))).toMatchObject({
      kind: 'page',
      screen: 'recommendedVideos',
    })
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

describe('a path missing from the route table', () => {
  it('is not-found', () => {
    expect(unknownRouteRule(routeInput('/no-such-page'))).toEqual(notFound)
  })

  it('is the join route when it contains /joinnow', () => {
    expect(unknownRouteRule(routeInput('/promo/joinnow'))).toMatchObject({ kind: 'page', screen: 'joinNow' })
  })
})
