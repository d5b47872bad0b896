import { describe, expect, it } from 'vitest'
import { member, routeInput, tenantConfig, userView } from '../../../app/routing/testing'
import {
  awardsMaxPage,
  awardsRule,
  castingRule,
  categoriesRule,
  complianceRule,
  supportRule,
  homeRule,
  performerRule,
  performersRule,
  pictureSetRule,
  privacyRule,
  readTopRated,
  removalRule,
  safetyRule,
  searchRule,
  termsRule,
  topRatedRule,
  trailerRule,
  videoCommentRule,
  videoRule,
  videosRule,
} from './rules'

const faceted = tenantConfig({ features: { facetedSearch: true } })
const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }

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

describe('/videos', () => {
  it('shows page 1 by default', () => {
    expect(videosRule(routeInput('/videos'))).toEqual({
      kind: 'page',
      screen: 'videos',
      data: { page: 1, search: null, filter: null, categories: null },
    })
  })

  it.each(['0', '-1', 'abc', '1.5', '', '99999999999'])(
    'a page below 1 or non-numeric (%s) redirects to the same route without page',
    (page) => {
      expect(videosRule(routeInput(`/videos?page=${page}&filter=new`))).toEqual(redirectTo('/videos?filter=new'))
    },
  )

  it('with faceted search enabled, a search redirects to /videos with categories set to the lower-cased search', () => {
    expect(videosRule(routeInput('/videos?search=Big%20Scene&page=3', { tenant: faceted }))).toEqual(
      redirectTo('/videos?categories=big+scene'),
    )
  })

  it('otherwise a search without filter is lower-cased', () => {
    expect(videosRule(routeInput('/videos?search=Blonde&page=2'))).toMatchObject({
      kind: 'page',
      data: { page: 2, search: 'blonde', filter: null },
    })
  })

  it('a search with a filter is kept as typed', () => {
    expect(videosRule(routeInput('/videos?search=Blonde&filter=new'))).toMatchObject({
      data: { search: 'Blonde', filter: 'new' },
    })
  })
})

describe('/videos/{slug}', () => {
  it('invalid slug goes to not-found', () => {
    expect(videoRule(routeInput('/videos/Bad--Slug', { params: { slug: 'Bad--Slug' } }))).toEqual(notFound)
  })

  it('otherwise the video screen with page id video:{slug}', () => {
    expect(videoRule(routeInput('/videos/a-scene', { params: { slug: 'a-scene' } }))).toEqual({
      kind: 'page',
      screen: 'video',
      pageId: 'video:a-scene',
      data: { slug: 'a-scene' },
    })
  })
})

describe('/videos/{slug}/comment/{commentId}', () => {
  const params = { slug: 'a-scene', commentId: '42' }

  it('requires authentication: not-found outside the members area', () => {
    expect(videoCommentRule(routeInput('/videos/a-scene/comment/42', { params }))).toEqual(notFound)
  })

  it('requires authentication: members login inside the members area', () => {
    expect(videoCommentRule(routeInput('/videos/a-scene/comment/42', { params, isMembersArea: true }))).toEqual(
      redirectTo('https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Fvideos%2Fa-scene%2Fcomment%2F42'),
    )
  })

  it('invalid slug goes to not-found', () => {
    expect(
      videoCommentRule(routeInput('/videos/A/comment/42', { params: { ...params, slug: 'A' }, user: member() })),
    ).toEqual(notFound)
  })

  it('shows the video screen', () => {
    expect(videoCommentRule(routeInput('/videos/a-scene/comment/42', { params, user: member() }))).toEqual({
      kind: 'page',
      screen: 'videoWithComment',
      pageId: 'video:a-scene',
      data: params,
    })
  })
})

describe('/trailer/{slug}', () => {
  it('invalid slug goes to not-found', () => {
    expect(trailerRule(routeInput('/trailer/x_y', { params: { slug: 'x_y' } }))).toEqual(notFound)
  })

  it('otherwise the video page is preloaded, page id trailer:video:{slug}', () => {
    expect(trailerRule(routeInput('/trailer/x-y', { params: { slug: 'x-y' } }))).toMatchObject({
      kind: 'page',
      screen: 'trailer',
      pageId: 'trailer:video:x-y',
    })
  })
})

describe('/pictureset/{slug}', () => {
  it('requires authentication', () => {
    expect(pictureSetRule(routeInput('/pictureset/a', { params: { slug: 'a' } }))).toEqual(notFound)
  })

  it('invalid slug goes to not-found', () => {
    expect(pictureSetRule(routeInput('/pictureset/-a', { params: { slug: '-a' }, user: member() }))).toEqual(notFound)
  })

  it('shows the picture set with page id pictureSet:{slug}', () => {
    expect(pictureSetRule(routeInput('/pictureset/a', { params: { slug: 'a' }, user: member() }))).toMatchObject({
      kind: 'page',
      screen: 'pictureSet',
      pageId: 'pictureSet:a',
    })
  })
})

describe('/toprated', () => {
  it('passes the current query string to the top-rated fetch', () => {
    expect(topRatedRule(routeInput('/toprated?period=week&page=2'))).toEqual({
      kind: 'page',
      screen: 'topRated',
      data: { query: 'period=week&page=2' },
    })
  })

  it('reads a videos list from the response, default empty', () => {
    expect(readTopRated({ data: { videos: [{ newId: 'a' }], total: 1 } })).toEqual({
      videos: [{ newId: 'a' }],
      rest: { total: 1 },
    })
    expect(readTopRated({ data: { total: 0 } })).toEqual({ videos: [], rest: { total: 0 } })
    expect(readTopRated(null)).toEqual({ videos: [], rest: {} })
  })
})

describe('/awards', () => {
  const awards = tenantConfig({ headerFeatures: { awardsLink: true } })

  it('is not-found unless headerFeatures.awardsLink is on', () => {
    expect(awardsRule(routeInput('/awards'))).toEqual(notFound)
  })

  it('shows page 1 by default', () => {
    expect(awardsRule(routeInput('/awards', { tenant: awards }))).toEqual({ kind: 'page', screen: 'awards', data: { page: 1 } })
  })

  it('the last page is max 32-bit integer / the small list page size', () => {
    expect(awardsMaxPage(3)).toBe(715827882)
    expect(awardsRule(routeInput('/awards?page=715827882', { tenant: awards }))).toMatchObject({
      data: { page: 715827882 },
    })
  })

  it.each(['0', '-1', 'abc', '1.5', '715827883', '2147483647'])(
    'page %s outside 1 to max / small size redirects to /awards without the parameter',
    (page) => {
      expect(awardsRule(routeInput(`/awards?page=${page}&year=2024`, { tenant: awards }))).toEqual(
        redirectTo('/awards?year=2024'),
      )
    },
  )
})

describe('/performers', () => {
  it('defaults: order rating, page 1, gender girls', () => {
    expect(performersRule(routeInput('/performers'))).toEqual({
      kind: 'page',
      screen: 'models',
      data: { order: 'rating', page: 1, gender: 'girls', sex: null },
    })
  })

  it('a page below 1 or non-numeric redirects keeping only non-default order and gender', () => {
    expect(performersRule(routeInput('/performers?page=0&order=name&gender=girls&x=1'))).toEqual(
      redirectTo('/performers?order=name'),
    )
    expect(performersRule(routeInput('/performers?page=abc&order=rating&gender=guys'))).toEqual(
      redirectTo('/performers?gender=guys'),
    )
    expect(performersRule(routeInput('/performers?page=-1'))).toEqual(redirectTo('/performers'))
  })

  it('with faceted search on and an empty query, redirects adding sex=F', () => {
    expect(performersRule(routeInput('/performers', { tenant: faceted }))).toEqual(redirectTo('/performers?sex=F'))
  })

  it('with faceted search on and a query lacking sex, redirects adding sex=F', () => {
    expect(performersRule(routeInput('/performers?order=name', { tenant: faceted }))).toEqual(
      redirectTo('/performers?order=name&sex=F'),
    )
  })

  it('with faceted search on and sex present, shows the list', () => {
    expect(performersRule(routeInput('/performers?sex=M', { tenant: faceted }))).toMatchObject({
      kind: 'page',
      data: { sex: 'M' },
    })
  })
})

describe('/performers/{slug}', () => {
  it('invalid slug goes to not-found', () => {
    expect(performerRule(routeInput('/performers/Jane', { params: { slug: 'Jane' } }))).toEqual(notFound)
  })

  it('a page below 1 or non-numeric redirects with an empty query', () => {
    expect(performerRule(routeInput('/performers/jane?page=0&tab=videos', { params: { slug: 'jane' } }))).toEqual(
      redirectTo('/performers/jane'),
    )
  })

  it('shows the performer with page id performer:{slug}', () => {
    expect(performerRule(routeInput('/performers/jane?page=2', { params: { slug: 'jane' } }))).toEqual({
      kind: 'page',
      screen: 'model',
      pageId: 'performer:jane',
      data: { slug: 'jane', page: 2 },
    })
  })
})

describe('/categories', () => {
  it('renders when the category list is loaded', () => {
    expect(categoriesRule(routeInput('/categories'), true)).toEqual({
      kind: 'page',
      screen: 'categories',
      data: { fallback: null },
    })
  })

  it('otherwise the fallback loads the category list, then renders', () => {
    expect(categoriesRule(routeInput('/categories'), false)).toMatchObject({ data: { fallback: 'loadCategoryList' } })
  })
})

describe('legal pages', () => {
  it('/casting, /terms, /privacy are plain page loads', () => {
    expect(castingRule()).toEqual({ kind: 'page', screen: 'casting', data: { content: 'casting' } })
    expect(termsRule()).toEqual({ kind: 'page', screen: 'terms', data: { content: 'terms' } })
    expect(privacyRule()).toEqual({ kind: 'page', screen: 'privacy', data: { content: 'privacy' } })
  })

  it('/safety loads the same content as privacy', () => {
    expect(safetyRule()).toEqual({ kind: 'page', screen: 'safety', data: { content: 'privacy' } })
  })

  it('/removal preloads the privacy page', () => {
    expect(removalRule()).toEqual({ kind: 'page', screen: 'removal', data: { content: 'privacy' } })
  })

  it('/support is a plain page load of the support content', () => {
    expect(supportRule()).toEqual({ kind: 'page', screen: 'support', data: { content: 'support' } })
  })

  it('/2257 preloads the compliance page', () => {
    expect(complianceRule()).toEqual({ kind: 'page', screen: 'compliance', data: { content: 'compliance' } })
  })
})

describe('/search', () => {
  it('a page below 1 or non-numeric redirects keeping only q and size', () => {
    expect(searchRule(routeInput('/search?q=abc&page=0&size=24&sort=new'))).toEqual(redirectTo('/search?q=abc&size=24'))
    expect(searchRule(routeInput('/search?page=x'))).toEqual(redirectTo('/search'))
  })

  it('the screen receives the authenticated flag, search text, page and size', () => {
    expect(searchRule(routeInput('/search?q=abc&page=3&size=24', { user: member() }))).toEqual({
      kind: 'page',
      screen: 'search',
      data: { isAuthenticated: true, search: 'abc', page: 3, size: 24 },
    })
    expect(searchRule(routeInput('/search', { user: userView() }))).toMatchObject({
      data: { isAuthenticated: false, search: '', page: 1, size: null },
    })
  })
})
