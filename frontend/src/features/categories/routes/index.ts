// The categories feature's routes: each path with its load (./rules.ts, after its row of ./rows.json) and its lazy screen.
import { type AppRoute, guarded, screen } from '../../../app/routing'
import type { RouteServices } from '../../../app/services'
import { categoriesRule, categoryMove } from './rules'

const screens = () => import('./screens')

export const categoriesRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  {
    path: '/categories',
    load: guarded('/categories', (input, _pass, services: RouteServices) => categoriesRule(input, services.isCategoryListLoaded())),
    screen: screen('categories', screens, (m) => m.CategoriesScreen),
  },
  { path: '/categories/:slug', load: categoryMove },
]
