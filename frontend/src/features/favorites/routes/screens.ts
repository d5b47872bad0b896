// The favorites routes' screens, one lazy chunk (./index.ts imports this module): the overview of the three kinds,
// and a page of each (videos, performers, channels). Each screen is in its own file.
export { FavoritesScreen } from './FavoritesScreen'
export { FavoriteVideosScreen } from './FavoriteVideosScreen'
export { FavoritePerformersScreen } from './FavoritePerformersScreen'
export { FavoriteChannelsScreen } from './FavoriteChannelsScreen'
