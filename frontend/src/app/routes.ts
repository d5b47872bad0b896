// The app's routes (product.md, "Screens and routes"): each feature declares its own (features/<feature>/routes/index.ts:
// path, load, lazy screen) and owns their rows of the route table (routes/rows.json, from which config/routes.json is
// generated). This list only puts the features together; react-router ranks the paths, so their order does not matter.
import { accountRoutes } from '../features/account/routes'
import { angelsRoutes } from '../features/angels/routes'
import { categoriesRoutes } from '../features/categories/routes'
import { channelsRoutes } from '../features/channels/routes'
import { dealsRoutes } from '../features/deals/routes'
import { favoritesRoutes } from '../features/favorites/routes'
import { homeRoutes } from '../features/home/routes'
import { legalRoutes } from '../features/legal/routes'
import { performersRoutes } from '../features/performers/routes'
import { quickiesRoutes } from '../features/quickies/routes'
import { recommendationsRoutes } from '../features/recommendations/routes'
import { searchRoutes } from '../features/search/routes'
import { showcasesRoutes } from '../features/showcases/routes'
import { signupRoutes } from '../features/signup/routes'
import { sitesRoutes } from '../features/sites/routes'
import { videosRoutes } from '../features/videos/routes'
import { wallRoutes } from '../features/wall/routes'
import type { AppRoute as Route } from './routing'
import type { RouteServices } from './services'

export type AppRoute = Route<RouteServices>

/** Each feature's routes, by the feature's folder name (routes/rows.json sits beside them). */
export const featureRoutes: Readonly<Record<string, readonly AppRoute[]>> = {
  account: accountRoutes,
  angels: angelsRoutes,
  categories: categoriesRoutes,
  channels: channelsRoutes,
  deals: dealsRoutes,
  favorites: favoritesRoutes,
  home: homeRoutes,
  legal: legalRoutes,
  performers: performersRoutes,
  quickies: quickiesRoutes,
  recommendations: recommendationsRoutes,
  search: searchRoutes,
  showcases: showcasesRoutes,
  signup: signupRoutes,
  sites: sitesRoutes,
  videos: videosRoutes,
  wall: wallRoutes,
}

export const appRoutes: readonly AppRoute[] = Object.values(featureRoutes).flat()
