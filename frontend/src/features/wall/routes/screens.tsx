// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function WallScreen() {
  return <Page title="Wall" />
}
