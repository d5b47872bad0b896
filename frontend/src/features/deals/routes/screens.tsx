// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function DealsScreen() {
  return <Page title="Deals" />
}

export function OffersScreen() {
  return <Page title="Offers" />
}

export function OutgoingUpsellScreen() {
  return <Page title="One-Click Purchase" />
}

export function UpsellSuccessScreen() {
  return <Page title="Purchase Complete" />
}

export function UpsellFailureScreen() {
  return <Page title="Purchase Not Completed" />
}
