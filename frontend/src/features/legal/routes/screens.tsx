// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function CastingScreen() {
  return <Page title="Casting" />
}

export function TermsScreen() {
  return <Page title="Terms" />
}

export function PrivacyScreen() {
  return <Page title="Privacy" />
}

export function SafetyScreen() {
  return <Page title="Safety" />
}

export function RemovalScreen() {
  return <Page title="Content Removal" />
}

export function ComplianceScreen() {
  return <Page title="18 U.S.C. 2257 Compliance" />
}
