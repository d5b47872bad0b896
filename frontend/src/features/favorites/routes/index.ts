// The favorites feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import {
  favoriteChannelsRule,
  favoriteModelsMove,
  favoritePerformersRule,
  favoritesRule,
  favoriteVideosRule,
} from './rules'

const screens = () => import('./screens')

export const favoritesRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/favorites', load: favoritesRule, screen: screen('favorites', screens, (m) => m.FavoritesScreen) },
  { path: '/favorites/videos', load: favoriteVideosRule, screen: screen('favorites', screens, (m) => m.FavoriteVideosScreen) },
  {
    path: '/favorites/performers',
    load: favoritePerformersRule,
    screen: screen('favorites', screens, (m) => m.FavoritePerformersScreen),
  },
  {
    path: '/favorites/channels',
    load: favoriteChannelsRule,
    screen: screen('favorites', screens, (m) => m.FavoriteChannelsScreen),
  },
  { path: '/favorites/models', load: favoriteModelsMove },
]
