// The deals feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, page, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import {
  camsOutcome,
  camsRequestBody,
  dealsRule,
  offersRule,
  outgoingUpsellRule,
  upsellSignupDenialRule,
  upsellSignupSuccessRule,
} from './rules'

const screens = () => import('./screens')

export const dealsRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/deals', load: dealsRule, screen: screen('deals', screens, (m) => m.DealsScreen) },
  { path: '/offers', load: offersRule, screen: screen('deals', screens, (m) => m.OffersScreen) },
  {
    path: '/cams',
    load: guarded('/cams', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      // Nothing goes to the partner before CamsConsent (the gateway refuses the call until then, too).
      if (input.user.profile?.shouldRequestCamsConsent === true) return page('cams')
      const body = camsRequestBody(input.query, input.user.profile?.email ?? null, input.tenant)
      return camsOutcome(await services.requestCamsUrl(input.tenant.paymentsHost, body, signal))
    }),
    screen: screen('deals', screens, (m) => m.CamsScreen),
  },
  { path: '/_upsell_signupsuccess', load: guarded('/_upsell_signupsuccess', upsellSignupSuccessRule), screen: screen('deals', screens, (m) => m.UpsellSuccessScreen) },
  { path: '/_upsell_signupdenial', load: guarded('/_upsell_signupdenial', upsellSignupDenialRule), screen: screen('deals', screens, (m) => m.UpsellFailureScreen) },
  {
    path: '/oneclick/outgoing-upsell',
    load: guarded('/oneclick/outgoing-upsell', outgoingUpsellRule),
    screen: screen('deals', screens, (m) => m.OutgoingUpsellScreen),
  },
]
