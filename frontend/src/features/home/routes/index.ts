// The home feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { homeRule, tube2Rule } from './rules'

const screens = () => import('./screens')

export const homeRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/', load: guarded('/', homeRule), screen: screen('home', screens, (m) => m.HomeScreen) },
  { path: '/tube2', load: tube2Rule },
]
