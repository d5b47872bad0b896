// The legal routes' screens, one lazy chunk (./index.ts imports this module): each screen is in its own file, each a
// legal page (LegalScreen.tsx).
export { CastingScreen } from './CastingScreen'
export { TermsScreen } from './TermsScreen'
export { PrivacyScreen } from './PrivacyScreen'
export { SafetyScreen } from './SafetyScreen'
export { RemovalScreen } from './RemovalScreen'
export { ComplianceScreen } from './ComplianceScreen'
export { SupportScreen } from './SupportScreen'
