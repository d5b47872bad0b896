// The sites feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { sitesRule, xsiteRule } from './rules'

const screens = () => import('./screens')

export const sitesRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/xsite/:site', load: xsiteRule },
  { path: '/sites/:brand/:type', load: sitesRule, screen: screen('sites', screens, (m) => m.SitesScreen) },
]
