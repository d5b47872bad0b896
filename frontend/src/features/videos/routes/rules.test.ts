import { describe, expect, it } from 'vitest'
import { member, routeInput, tenantConfig } from '../../../app/routing/testing'
import {
  awardsMaxPage,
  awardsRule,
  pictureSetRule,
  readTopRated,
  topRatedRule,
  trailerRule,
  videoCommentRule,
  videoRule,
  videosRule,
} from './rules'

const faceted = tenantConfig({ features: { facetedSearch: true } })
const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }

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
