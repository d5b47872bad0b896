// Screens of this area. Each is a minimal page until its data and components arrive.
import { Page } from '../../../components/Page'

export function FavoritesScreen() {
  return <Page title="Favorites" />
}

export function FavoriteVideosScreen() {
  return <Page title="Favorite Videos" />
}

export function FavoritePerformersScreen() {
  return <Page title="Favorite Performers" />
}

export function FavoriteChannelsScreen() {
  return <Page title="Favorite Channel Videos" />
}
