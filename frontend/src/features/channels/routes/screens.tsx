// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function ChannelsScreen() {
  return <Page title="Channels" />
}

export function ChannelScreen() {
  return <Page title="Channel" />
}

export function ChannelPackScreen() {
  return <Page title="Channel Pack" />
}

export function ChannelVideoScreen() {
  return <Page title="Channel Video" />
}

export function ChannelTrailerScreen() {
  return <Page title="Channel Trailer" />
}

export function ChannelPictureSetScreen() {
  return <Page title="Channel Picture Set" />
}

export function AllChannelVideosScreen() {
  return <Page title="All Channel Videos" />
}
