// The calls some loaders make besides their pure rules, behind one interface so tests can replace them.
import { requestCamsUrl } from '../features/deals/api/cams'
import { fetchSignupExtern } from '../features/signup/api/signupExtern'
import { welcomeCheck } from '../features/signup/api/welcomeCheck'
import { fetchTopRated } from '../features/videos/api/topRated'
import type { ScreenDataPreloader } from './api/screenData'
import { loggingOnly, type ErrorReporting } from './errorReporting'

export interface RouteServices {
  fetchTopRated: typeof fetchTopRated
  requestCamsUrl: typeof requestCamsUrl
  fetchSignupExtern: typeof fetchSignupExtern
  welcomeCheck: typeof welcomeCheck
  /** The /categories precondition: whether the tenant's category list is already loaded. */
  isCategoryListLoaded(): boolean
  errorReporting: ErrorReporting
  /** Whether the gems modal may show now (the gems service's mayShowGemsModal); absent, the gems intro stays shut. */
  gemsModalAllowed?: () => Promise<boolean>
  /** Runs the query the screen names (screenQuery.ts) before it shows; absent, screens fetch their own data. */
  preloadScreenData?: ScreenDataPreloader
}

export const httpServices: RouteServices = {
  fetchTopRated,
  requestCamsUrl,
  fetchSignupExtern,
  welcomeCheck,
  // No category store exists yet, so the fallback (load, then render) always runs.
  isCategoryListLoaded: () => false,
  errorReporting: loggingOnly,
}
