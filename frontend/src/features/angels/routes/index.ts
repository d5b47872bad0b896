// The angels feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { angelRule, angelsRule } from './rules'

const screens = () => import('./screens')

export const angelsRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/angels', load: angelsRule, screen: screen('angels', screens, (m) => m.AngelsScreen) },
  { path: '/angels/:slug', load: angelRule, screen: screen('angels', screens, (m) => m.AngelScreen) },
]
