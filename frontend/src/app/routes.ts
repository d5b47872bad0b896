// The route table of screens-routes-access.md §2.1: each path, the rule its loader runs, and its lazily loaded screen.
import type { ComponentType } from 'react'
import {
  accountRule,
  allChannelVideosRule,
  angelRule,
  angelsRule,
  awardsRule,
  camsOutcome,
  camsRequestBody,
  castingRule,
  categoriesRule,
  categoryMove,
  channelPackRule,
  channelPictureSetRule,
  channelRule,
  channelsRule,
  channelTrailerRule,
  channelVideoRule,
  channelVideosRule,
  complianceRule,
  dealsRule,
  favoriteChannelsRule,
  favoriteModelsMove,
  favoritePerformersRule,
  favoritesRule,
  favoriteVideosRule,
  homeRule,
  joinNowRule,
  modelMove,
  modelsMove,
  offersRule,
  outgoingUpsellRule,
  guarded,
  page,
  parentRedirectRule,
  performerRule,
  performersRule,
  pictureSetRule,
  privacyRule,
  quickiesRule,
  readTopRated,
  recommendedVideosRule,
  reelsMove,
  removalRule,
  safetyRule,
  searchRule,
  showcaseRule,
  showcasesRule,
  signupDenialRule,
  signupExternOutcome,
  signupSuccessRule,
  sitesRule,
  supportRule,
  termsRule,
  topRatedRule,
  trailerRule,
  tube2Rule,
  unknownRouteRule,
  upgradeDenialOutcome,
  upgradeMembershipRule,
  upgradeSuccessOutcome,
  upsellSignupDenialRule,
  upsellSignupSuccessRule,
  videoCommentRule,
  videoRule,
  videosRule,
  wallRule,
  welcomeCheckInput,
  xsiteRule,
  type RouteInput,
  type RouteOutcome,
} from './routing'
import type { RouteServices } from './services'

export type RouteLoad = ((
  input: RouteInput,
  services: RouteServices,
  signal: AbortSignal,
) => RouteOutcome<unknown> | Promise<RouteOutcome<unknown>>) & {
  /** The row of config/routes.json whose steps the load runs first (table.ts `guarded`). */
  routePath: string
}

export interface LazyScreen {
  /** Names the chunk in 'Loading chunk N failed'. */
  chunk: string
  load: () => Promise<ComponentType>
}

export interface AppRoute {
  path: string
  load: RouteLoad
  /** Absent for routes that never render: their rule always redirects or answers not-found. */
  screen?: LazyScreen
}

function screen<M>(chunk: string, load: () => Promise<M>, pick: (module: M) => ComponentType): LazyScreen {
  return { chunk, load: () => load().then(pick) }
}

const home = () => import('../features/home/routes/screens')
const videos = () => import('../features/videos/routes/screens')
const performers = () => import('../features/performers/routes/screens')
const categories = () => import('../features/categories/routes/screens')
const search = () => import('../features/search/routes/screens')
const legal = () => import('../features/legal/routes/screens')
const deals = () => import('../features/deals/routes/screens')
const account = () => import('../features/account/routes/screens')
const favorites = () => import('../features/favorites/routes/screens')
const channels = () => import('../features/channels/routes/screens')
const signup = () => import('../features/signup/routes/screens')
const angels = () => import('../features/angels/routes/screens')
const showcases = () => import('../features/showcases/routes/screens')
const quickies = () => import('../features/quickies/routes/screens')
const wall = () => import('../features/wall/routes/screens')
const recommendations = () => import('../features/recommendations/routes/screens')
const sites = () => import('../features/sites/routes/screens')

const joinNowScreen = screen('signup', signup, (m) => m.JoinNowScreen)
const signupSuccessScreen = screen('signup', signup, (m) => m.SignupSuccessScreen)
const videoScreen = screen('videos', videos, (m) => m.VideoScreen)
const channelScreen = screen('channels', channels, (m) => m.ChannelScreen)

export const appRoutes: readonly AppRoute[] = [
  { path: '/', load: guarded('/', homeRule), screen: screen('home', home, (m) => m.HomeScreen) },
  { path: '/videos', load: videosRule, screen: screen('videos', videos, (m) => m.VideosScreen) },
  { path: '/videos/:slug', load: videoRule, screen: videoScreen },
  { path: '/videos/:slug/comment/:commentId', load: videoCommentRule, screen: videoScreen },
  { path: '/trailer/:slug', load: trailerRule, screen: screen('videos', videos, (m) => m.TrailerScreen) },
  { path: '/pictureset/:slug', load: pictureSetRule, screen: screen('videos', videos, (m) => m.PictureSetScreen) },
  {
    path: '/toprated',
    load: guarded('/toprated', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      const outcome = topRatedRule(input)
      if (outcome.kind !== 'page') return outcome
      const body = await services.fetchTopRated(input.tenant.api.host, outcome.data.query, signal)
      return page('topRated', { ...outcome.data, ...readTopRated(body) })
    }),
    screen: screen('videos', videos, (m) => m.TopRatedScreen),
  },
  { path: '/awards', load: awardsRule, screen: screen('videos', videos, (m) => m.AwardsScreen) },
  { path: '/joinnow', load: joinNowRule, screen: joinNowScreen },
  { path: '/models', load: modelsMove },
  { path: '/models/:slug', load: modelMove },
  { path: '/performers', load: performersRule, screen: screen('performers', performers, (m) => m.PerformersScreen) },
  { path: '/performers/:slug', load: performerRule, screen: screen('performers', performers, (m) => m.PerformerScreen) },
  {
    path: '/categories',
    load: guarded('/categories', (input, _pass, services: RouteServices) => categoriesRule(input, services.isCategoryListLoaded())),
    screen: screen('categories', categories, (m) => m.CategoriesScreen),
  },
  { path: '/categories/:slug', load: categoryMove },
  { path: '/casting', load: guarded('/casting', castingRule), screen: screen('legal', legal, (m) => m.CastingScreen) },
  { path: '/terms', load: guarded('/terms', termsRule), screen: screen('legal', legal, (m) => m.TermsScreen) },
  { path: '/privacy', load: guarded('/privacy', privacyRule), screen: screen('legal', legal, (m) => m.PrivacyScreen) },
  { path: '/safety', load: guarded('/safety', safetyRule), screen: screen('legal', legal, (m) => m.SafetyScreen) },
  { path: '/removal', load: guarded('/removal', removalRule), screen: screen('legal', legal, (m) => m.RemovalScreen) },
  { path: '/2257', load: guarded('/2257', complianceRule), screen: screen('legal', legal, (m) => m.ComplianceScreen) },
  { path: '/support', load: guarded('/support', supportRule), screen: screen('legal', legal, (m) => m.SupportScreen) },
  { path: '/search', load: searchRule, screen: screen('search', search, (m) => m.SearchScreen) },
  { path: '/deals', load: dealsRule, screen: screen('deals', deals, (m) => m.DealsScreen) },
  { path: '/offers', load: offersRule, screen: screen('deals', deals, (m) => m.OffersScreen) },
  { path: '/account', load: accountRule, screen: screen('account', account, (m) => m.AccountScreen) },
  {
    path: '/account/username',
    load: guarded('/account/username', () => page('usernameSelection')),
    screen: screen('account', account, (m) => m.UsernameScreen),
  },
  { path: '/xsite/:site', load: xsiteRule },
  {
    path: '/cams',
    load: guarded('/cams', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      // Nothing goes to the partner before CamsConsent (the gateway refuses the call until then, too).
      if (input.user.profile?.shouldRequestCamsConsent === true) return page('cams')
      const body = camsRequestBody(input.query, input.user.profile?.email ?? null, input.tenant)
      return camsOutcome(await services.requestCamsUrl(input.tenant.paymentsHost, body, signal))
    }),
    screen: screen('deals', deals, (m) => m.CamsScreen),
  },
  { path: '/favorites', load: favoritesRule, screen: screen('favorites', favorites, (m) => m.FavoritesScreen) },
  { path: '/favorites/videos', load: favoriteVideosRule, screen: screen('favorites', favorites, (m) => m.FavoriteVideosScreen) },
  {
    path: '/favorites/performers',
    load: favoritePerformersRule,
    screen: screen('favorites', favorites, (m) => m.FavoritePerformersScreen),
  },
  {
    path: '/favorites/channels',
    load: favoriteChannelsRule,
    screen: screen('favorites', favorites, (m) => m.FavoriteChannelsScreen),
  },
  { path: '/favorites/models', load: favoriteModelsMove },
  { path: '/channels', load: channelsRule, screen: screen('channels', channels, (m) => m.ChannelsScreen) },
  { path: '/channels/all-videos', load: allChannelVideosRule, screen: screen('channels', channels, (m) => m.AllChannelVideosScreen) },
  { path: '/channels/:channelSlug', load: channelRule, screen: channelScreen },
  { path: '/channels/:channelSlug/videos', load: channelVideosRule, screen: channelScreen },
  {
    path: '/channels/:channelSlug/packs/:channelPackSlug',
    load: channelPackRule,
    screen: screen('channels', channels, (m) => m.ChannelPackScreen),
  },
  {
    path: '/channels/:channelSlug/videos/:videoSlug',
    load: channelVideoRule,
    screen: screen('channels', channels, (m) => m.ChannelVideoScreen),
  },
  {
    path: '/channels/:channelSlug/trailers/:videoSlug',
    load: channelTrailerRule,
    screen: screen('channels', channels, (m) => m.ChannelTrailerScreen),
  },
  {
    path: '/channels/:channelSlug/picturesets/:videoSlug',
    load: channelPictureSetRule,
    screen: screen('channels', channels, (m) => m.ChannelPictureSetScreen),
  },
  { path: '/_signupsuccess', load: signupSuccessRule, screen: signupSuccessScreen },
  {
    path: '/_signup-extern/:biller',
    load: guarded('/_signup-extern/:biller', async (input, _pass, services: RouteServices, signal: AbortSignal) => {
      const response = await services.fetchSignupExtern(input.tenant.api.host, input.params.biller ?? '', input.user.welcome, signal)
      return signupExternOutcome(input, response)
    }),
    screen: signupSuccessScreen,
  },
  { path: '/_signupdenial', load: signupDenialRule, screen: screen('signup', signup, (m) => m.SignupDeniedScreen) },
  {
    path: '/_upgrademembership',
    load: upgradeMembershipRule,
    screen: screen('signup', signup, (m) => m.UpgradeMembershipScreen),
  },
  {
    path: '/_upgradesuccess',
    load: guarded('/_upgradesuccess', async (input, _pass, services: RouteServices) =>
      upgradeSuccessOutcome(await services.welcomeCheck(welcomeCheckInput('success', input.tenant, input.user.welcome))),
    ),
  },
  {
    path: '/_upgradedenial',
    load: guarded('/_upgradedenial', async (input, _pass, services: RouteServices) =>
      upgradeDenialOutcome(await services.welcomeCheck(welcomeCheckInput('denial', input.tenant, input.user.welcome))),
    ),
  },
  { path: '/parent-redirect', load: guarded('/parent-redirect', parentRedirectRule), screen: screen('signup', signup, (m) => m.ParentRedirectScreen) },
  { path: '/_upsell_signupsuccess', load: guarded('/_upsell_signupsuccess', upsellSignupSuccessRule), screen: screen('deals', deals, (m) => m.UpsellSuccessScreen) },
  { path: '/_upsell_signupdenial', load: guarded('/_upsell_signupdenial', upsellSignupDenialRule), screen: screen('deals', deals, (m) => m.UpsellFailureScreen) },
  {
    path: '/oneclick/outgoing-upsell',
    load: guarded('/oneclick/outgoing-upsell', outgoingUpsellRule),
    screen: screen('deals', deals, (m) => m.OutgoingUpsellScreen),
  },
  { path: '/tube2', load: tube2Rule },
  { path: '/angels', load: angelsRule, screen: screen('angels', angels, (m) => m.AngelsScreen) },
  { path: '/angels/:slug', load: angelRule, screen: screen('angels', angels, (m) => m.AngelScreen) },
  { path: '/showcases', load: showcasesRule, screen: screen('showcases', showcases, (m) => m.ShowcasesScreen) },
  { path: '/showcase/:slug', load: showcaseRule, screen: screen('showcases', showcases, (m) => m.ShowcaseScreen) },
  { path: '/reels/:uuid?', load: reelsMove },
  { path: '/quickies/:uuid?', load: quickiesRule, screen: screen('quickies', quickies, (m) => m.QuickiesScreen) },
  { path: '/sites/:brand/:type', load: sitesRule, screen: screen('sites', sites, (m) => m.SitesScreen) },
  { path: '/wall', load: wallRule, screen: screen('wall', wall, (m) => m.WallScreen) },
  {
    path: '/recommended-videos',
    load: recommendedVideosRule,
    screen: screen('recommendations', recommendations, (m) => m.RecommendedVideosScreen),
  },
  // Any other path: the join route when it contains /joinnow, else not-found.
  { path: '*', load: unknownRouteRule, screen: joinNowScreen },
]
