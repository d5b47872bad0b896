// The wall feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { wallRule } from './rules'

const screens = () => import('./screens')

export const wallRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/wall', load: wallRule, screen: screen('wall', screens, (m) => m.WallScreen) },
]
