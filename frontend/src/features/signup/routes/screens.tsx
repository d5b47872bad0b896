// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function JoinNowScreen() {
  return <Page title="Join Now" />
}

export function SignupSuccessScreen() {
  return <Page title="Welcome" />
}

export function SignupDeniedScreen() {
  return <Page title="Signup Denied" />
}

export function UpgradeMembershipScreen() {
  return <Page title="Upgrade Membership" />
}

export function ParentRedirectScreen() {
  return <Page title="Redirecting" />
}
