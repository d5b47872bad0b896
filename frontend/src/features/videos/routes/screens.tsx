// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function VideosScreen() {
  return <Page title="Videos" />
}

export function VideoScreen() {
  return <Page title="Video" />
}

export function TrailerScreen() {
  return <Page title="Trailer" />
}

export function PictureSetScreen() {
  return <Page title="Picture Set" />
}

export function TopRatedScreen() {
  return <Page title="Top Rated" />
}

export function AwardsScreen() {
  return <Page title="Awards" />
}
