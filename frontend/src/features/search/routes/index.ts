// The search feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { searchRule } from './rules'

const screens = () => import('./screens')

export const searchRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/search', load: searchRule, screen: screen('search', screens, (m) => m.SearchScreen) },
]
