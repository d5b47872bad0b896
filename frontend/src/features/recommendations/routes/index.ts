// The recommendations feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { recommendedVideosRule } from './rules'

const screens = () => import('./screens')

export const recommendationsRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  {
    path: '/recommended-videos',
    load: recommendedVideosRule,
    screen: screen('recommendations', screens, (m) => m.RecommendedVideosScreen),
  },
]
