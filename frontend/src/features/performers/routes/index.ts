// The performers feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { modelMove, modelsMove, performerRule, performersRule } from './rules'

const screens = () => import('./screens')

export const performersRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/models', load: modelsMove },
  { path: '/models/:slug', load: modelMove },
  { path: '/performers', load: performersRule, screen: screen('performers', screens, (m) => m.PerformersScreen) },
  { path: '/performers/:slug', load: performerRule, screen: screen('performers', screens, (m) => m.PerformerScreen) },
]
