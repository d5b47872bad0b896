// The channels feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import {
  allChannelVideosRule,
  channelPackRule,
  channelPictureSetRule,
  channelRule,
  channelsRule,
  channelTrailerRule,
  channelVideoRule,
  channelVideosRule,
} from './rules'

const screens = () => import('./screens')

const channelScreen = screen('channels', screens, (m) => m.ChannelScreen)

export const channelsRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/channels', load: channelsRule, screen: screen('channels', screens, (m) => m.ChannelsScreen) },
  { path: '/channels/all-videos', load: allChannelVideosRule, screen: screen('channels', screens, (m) => m.AllChannelVideosScreen) },
  { path: '/channels/:channelSlug', load: channelRule, screen: channelScreen },
  { path: '/channels/:channelSlug/videos', load: channelVideosRule, screen: channelScreen },
  {
    path: '/channels/:channelSlug/packs/:channelPackSlug',
    load: channelPackRule,
    screen: screen('channels', screens, (m) => m.ChannelPackScreen),
  },
  {
    path: '/channels/:channelSlug/videos/:videoSlug',
    load: channelVideoRule,
    screen: screen('channels', screens, (m) => m.ChannelVideoScreen),
  },
  {
    path: '/channels/:channelSlug/trailers/:videoSlug',
    load: channelTrailerRule,
    screen: screen('channels', screens, (m) => m.ChannelTrailerScreen),
  },
  {
    path: '/channels/:channelSlug/picturesets/:videoSlug',
    load: channelPictureSetRule,
    screen: screen('channels', screens, (m) => m.ChannelPictureSetScreen),
  },
]
