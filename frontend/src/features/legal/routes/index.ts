// The legal feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { castingRule, complianceRule, privacyRule, removalRule, safetyRule, supportRule, termsRule } from './rules'

const screens = () => import('./screens')

export const legalRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/casting', load: guarded('/casting', castingRule), screen: screen('legal', screens, (m) => m.CastingScreen) },
  { path: '/terms', load: guarded('/terms', termsRule), screen: screen('legal', screens, (m) => m.TermsScreen) },
  { path: '/privacy', load: guarded('/privacy', privacyRule), screen: screen('legal', screens, (m) => m.PrivacyScreen) },
  { path: '/safety', load: guarded('/safety', safetyRule), screen: screen('legal', screens, (m) => m.SafetyScreen) },
  { path: '/removal', load: guarded('/removal', removalRule), screen: screen('legal', screens, (m) => m.RemovalScreen) },
  { path: '/2257', load: guarded('/2257', complianceRule), screen: screen('legal', screens, (m) => m.ComplianceScreen) },
  { path: '/support', load: guarded('/support', supportRule), screen: screen('legal', screens, (m) => m.SupportScreen) },
]
