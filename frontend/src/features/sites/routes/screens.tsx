// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function SitesScreen() {
  return <Page title="Sites" />
}
