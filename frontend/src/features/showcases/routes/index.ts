// The showcases feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { showcaseRule, showcasesRule } from './rules'

const screens = () => import('./screens')

export const showcasesRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/showcases', load: showcasesRule, screen: screen('showcases', screens, (m) => m.ShowcasesScreen) },
  { path: '/showcase/:slug', load: showcaseRule, screen: screen('showcases', screens, (m) => m.ShowcaseScreen) },
]
