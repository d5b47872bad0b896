// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function AngelsScreen() {
  return <Page title="Angels" />
}

export function AngelScreen() {
  return <Page title="Angel" />
}
