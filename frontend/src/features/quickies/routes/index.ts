// The quickies feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { quickiesRule, reelsMove } from './rules'

const screens = () => import('./screens')

export const quickiesRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/reels/:uuid?', load: reelsMove },
  { path: '/quickies/:uuid?', load: quickiesRule, screen: screen('quickies', screens, (m) => m.QuickiesScreen) },
]
