import { describe, expect, it } from 'vitest'
import { member, routeInput } from '../../../app/routing/testing'
import {
  favoriteChannelsRule,
  favoriteModelsMove,
  favoritePerformersRule,
  favoritesRule,
  favoriteVideosRule,
} from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }
const moved = (location: string) => ({ kind: 'redirect', status: 301, location })

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

describe('permanent moves', () => {
  it('/favorites/models: 301 to /favorites/performers', () => {
    expect(favoriteModelsMove(routeInput('/favorites/models'))).toEqual(moved('/favorites/performers'))
  })
})
