// The signup feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import {
  joinNowRule,
  parentRedirectRule,
  signupDenialRule,
  signupExternOutcome,
  signupSuccessRule,
  unknownRouteRule,
  upgradeDenialOutcome,
  upgradeMembershipRule,
  upgradeSuccessOutcome,
  welcomeCheckInput,
} from './rules'

const screens = () => import('./screens')

const joinNowScreen = screen('signup', screens, (m) => m.JoinNowScreen)
const signupSuccessScreen = screen('signup', screens, (m) => m.SignupSuccessScreen)

export const signupRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/joinnow', load: joinNowRule, screen: joinNowScreen },
  { path: '/_signupsuccess', load: signupSuccessRule, screen: signupSuccessScreen },
  {
    path: '/_signup-extern/:biller',
    load: guarded('/_signup-extern/:biller', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      const response = await services.fetchSignupExtern(input.tenant.api.host, input.params.biller ?? '', input.user.welcome, signal)
      return signupExternOutcome(input, response)
    }),
    screen: signupSuccessScreen,
  },
  { path: '/_signupdenial', load: signupDenialRule, screen: screen('signup', screens, (m) => m.SignupDeniedScreen) },
  {
    path: '/_upgrademembership',
    load: upgradeMembershipRule,
    screen: screen('signup', screens, (m) => m.UpgradeMembershipScreen),
  },
  {
    path: '/_upgradesuccess',
    load: guarded('/_upgradesuccess', async (input, _pass, services: RouteServices) =>
      upgradeSuccessOutcome(await services.welcomeCheck(welcomeCheckInput('success', input.tenant, input.user.welcome))),
    ),
  },
  {
    path: '/_upgradedenial',
    load: guarded('/_upgradedenial', async (input, _pass, services: RouteServices) =>
      upgradeDenialOutcome(await services.welcomeCheck(welcomeCheckInput('denial', input.tenant, input.user.welcome))),
    ),
  },
  { path: '/parent-redirect', load: guarded('/parent-redirect', parentRedirectRule), screen: screen('signup', screens, (m) => m.ParentRedirectScreen) },
  // Any other path: the join route when it contains /joinnow, else not-found.
  { path: '*', load: unknownRouteRule, screen: joinNowScreen },
]
