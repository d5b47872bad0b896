// The videos feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, page, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import {
  awardsRule,
  freeTrialVideosRule,
  readTopRated,
  pictureSetRule,
  topRatedRule,
  trailerRule,
  videoCommentRule,
  videoRule,
  videosRule,
} from './rules'

const screens = () => import('./screens')

const videoScreen = screen('videos', screens, (m) => m.VideoScreen)

export const videosRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/videos', load: videosRule, screen: screen('videos', screens, (m) => m.VideosScreen) },
  { path: '/videos/:slug', load: videoRule, screen: videoScreen },
  { path: '/videos/:slug/comment/:commentId', load: videoCommentRule, screen: videoScreen },
  { path: '/trailer/:slug', load: trailerRule, screen: screen('videos', screens, (m) => m.TrailerScreen) },
  { path: '/pictureset/:slug', load: pictureSetRule, screen: screen('videos', screens, (m) => m.PictureSetScreen) },
  {
    path: '/free-trial-videos',
    load: freeTrialVideosRule,
    screen: screen('videos', screens, (m) => m.FreeTrialVideosScreen),
  },
  {
    path: '/toprated',
    load: guarded('/toprated', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      const outcome = topRatedRule(input)
      if (outcome.kind !== 'page') return outcome
      const body = await services.fetchTopRated(input.tenant.api.host, outcome.data.query, signal)
      return page('topRated', { ...outcome.data, ...readTopRated(body) })
    }),
    screen: screen('videos', screens, (m) => m.TopRatedScreen),
  },
  { path: '/awards', load: awardsRule, screen: screen('videos', screens, (m) => m.AwardsScreen) },
]
