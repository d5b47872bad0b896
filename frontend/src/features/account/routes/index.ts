// The account feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, page, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { accountRule } from './rules'

const screens = () => import('./screens')

export const accountRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/account', load: accountRule, screen: screen('account', screens, (m) => m.AccountScreen) },
  {
    path: '/account/username',
    load: guarded('/account/username', () => page('usernameSelection')),
    screen: screen('account', screens, (m) => m.UsernameScreen),
  },
]
