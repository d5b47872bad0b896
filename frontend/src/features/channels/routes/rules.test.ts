import { describe, expect, it } from 'vitest'
import { member, routeInput, userView } from '../../../app/routing/testing'
import {
  allChannelVideosRule,
  channelPackRule,
  channelPictureSetRule,
  channelPrecheck,
  channelRule,
  channelsRule,
  channelTrailerRule,
  channelVideoRule,
  channelVideosRule,
} from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })
const notFound = { kind: 'notFound' }
const withChannels = userView({ abilities: ['see Channels'] })

describe('/channels', () => {
  it('without the ability "see Channels": not-found', () => {
    expect(channelsRule(routeInput('/channels', { user: member() }))).toEqual(notFound)
  })

  it('a page below 1 or non-numeric redirects with the query cleared', () => {
    expect(channelsRule(routeInput('/channels?page=0&sort=x', { user: withChannels }))).toEqual(redirectTo('/channels'))
  })

  it('shows the channels page', () => {
    expect(channelsRule(routeInput('/channels?page=2', { user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channels',
      data: { page: 2 },
    })
  })
})

describe('/channels/:channelSlug', () => {
  it('without the channel ability: not-found', () => {
    expect(channelRule(routeInput('/channels/c', { params: { channelSlug: 'c' } }))).toEqual(notFound)
  })

  it('an invalid channel slug is not-found', () => {
    expect(channelRule(routeInput('/channels/C', { params: { channelSlug: 'C' }, user: withChannels }))).toEqual(notFound)
  })

  it('shows the channel page with page id channel:{channelSlug}', () => {
    expect(channelRule(routeInput('/channels/c', { params: { channelSlug: 'c' }, user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channel',
      pageId: 'channel:c',
      data: { channelSlug: 'c' },
    })
  })

  it('pre-check: a channel the tenant does not carry is not-found', () => {
    expect(channelPrecheck(false)).toEqual(notFound)
    expect(channelPrecheck(true)).toBeUndefined()
  })
})

describe('/channels/:channelSlug/videos', () => {
  const params = { channelSlug: 'c' }

  it('without the channel ability: not-found', () => {
    expect(channelVideosRule(routeInput('/channels/c/videos', { params }))).toEqual(notFound)
  })

  it('shows the channel video list with an optional page query', () => {
    expect(channelVideosRule(routeInput('/channels/c/videos?page=3', { params, user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channelVideos',
      pageId: 'channel:c',
      data: { channelSlug: 'c', page: 3 },
    })
  })

  it('an invalid page redirects with the query cleared', () => {
    expect(channelVideosRule(routeInput('/channels/c/videos?page=x', { params, user: withChannels }))).toEqual(
      redirectTo('/channels/c/videos'),
    )
  })
})

describe('/channels/:channelSlug/packs/:channelPackSlug', () => {
  const params = { channelSlug: 'c', channelPackSlug: 'pack-1' }

  it('without the channel ability: not-found', () => {
    expect(channelPackRule(routeInput('/channels/c/packs/pack-1', { params }))).toEqual(notFound)
  })

  it('an invalid pack slug is not-found', () => {
    expect(
      channelPackRule(routeInput('/channels/c/packs/P', { params: { ...params, channelPackSlug: 'P' }, user: withChannels })),
    ).toEqual(notFound)
  })

  it('shows the channel pack page, page id channel:{channelSlug}:{channelPackSlug}', () => {
    expect(channelPackRule(routeInput('/channels/c/packs/pack-1', { params, user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channelPack',
      pageId: 'channel:c:pack-1',
      data: { channelSlug: 'c', channelPackSlug: 'pack-1', page: 1 },
    })
  })

  it('an invalid page redirects with the query cleared', () => {
    expect(channelPackRule(routeInput('/channels/c/packs/pack-1?page=-1', { params, user: withChannels }))).toEqual(
      redirectTo('/channels/c/packs/pack-1'),
    )
  })
})

describe('/channels/:channelSlug/videos/:videoSlug', () => {
  const params = { channelSlug: 'c', videoSlug: 'v' }

  it('without the channel ability: not-found', () => {
    expect(channelVideoRule(routeInput('/channels/c/videos/v', { params }))).toEqual(notFound)
  })

  it('an invalid video slug is not-found', () => {
    expect(
      channelVideoRule(routeInput('/channels/c/videos/v--', { params: { ...params, videoSlug: 'v--' }, user: withChannels })),
    ).toEqual(notFound)
  })

  it('shows the channel video page', () => {
    expect(channelVideoRule(routeInput('/channels/c/videos/v', { params, user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channelVideo',
      pageId: 'video:v',
      data: params,
    })
  })
})

describe('/channels/:channelSlug/trailers/:videoSlug', () => {
  const params = { channelSlug: 'c', videoSlug: 'v' }

  it('requires authentication: members login in the members area', () => {
    expect(
      channelTrailerRule(
        routeInput('/channels/c/trailers/v', {
          params,
          isMembersArea: true,
          user: userView({ abilities: ['see ChannelTrailers'] }),
        }),
      ),
    ).toEqual(redirectTo('https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Fchannels%2Fc%2Ftrailers%2Fv'))
  })

  it('an authenticated user without "see ChannelTrailers" or "see InternalChannelTrailers" gets not-found', () => {
    expect(channelTrailerRule(routeInput('/channels/c/trailers/v', { params, user: member({ abilities: ['see Channels'] }) }))).toEqual(
      notFound,
    )
  })

  it.each(['see ChannelTrailers', 'see InternalChannelTrailers'])('shows the channel trailer page with %s', (ability) => {
    expect(channelTrailerRule(routeInput('/channels/c/trailers/v', { params, user: member({ abilities: [ability] }) }))).toEqual({
      kind: 'page',
      screen: 'channelTrailer',
      pageId: 'trailer:video:v',
      data: params,
    })
  })
})

describe('/channels/:channelSlug/picturesets/:videoSlug', () => {
  const params = { channelSlug: 'c', videoSlug: 'v' }

  it('without the channel ability: not-found', () => {
    expect(channelPictureSetRule(routeInput('/channels/c/picturesets/v', { params }))).toEqual(notFound)
  })

  it('shows the channel picture set page', () => {
    expect(channelPictureSetRule(routeInput('/channels/c/picturesets/v', { params, user: withChannels }))).toEqual({
      kind: 'page',
      screen: 'channelPictureSet',
      pageId: 'pictureSet:v',
      data: params,
    })
  })
})

describe('/channels/all-videos', () => {
  it('requires login', () => {
    expect(allChannelVideosRule(routeInput('/channels/all-videos', { user: withChannels, isMembersArea: true }))).toEqual(
      redirectTo('https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Fchannels%2Fall-videos'),
    )
  })

  it('requires "see Channels"', () => {
    expect(allChannelVideosRule(routeInput('/channels/all-videos', { user: member() }))).toEqual(notFound)
  })

  it('shows all channel videos with an optional page query', () => {
    const user = member({ abilities: ['see Channels'] })
    expect(allChannelVideosRule(routeInput('/channels/all-videos?page=2', { user }))).toEqual({
      kind: 'page',
      screen: 'allChannelVideos',
      data: { page: 2 },
    })
    expect(allChannelVideosRule(routeInput('/channels/all-videos?page=0', { user }))).toEqual(
      redirectTo('/channels/all-videos'),
    )
  })
})
