// Routes a tenant feature or an ability switches on (config/routes.json); off means not-found.
import { SITES_ROUTE_TYPES } from '../../../app/routing/constants'
import { page, type RouteOutcome } from '../../../app/routing/outcome'
import { pageIds } from '../../../app/routing/pageIds'
import { guarded } from '../../../app/routing/table'

/** /angels (showAngels) */
export const angelsRule = guarded('/angels', (): RouteOutcome => page('angels'))

/** /angels/:slug (showAngels) */
export const angelRule = guarded('/angels/:slug', ({ params }): RouteOutcome<{ slug: string }> => {
  const slug = params.slug ?? ''
  return page('angel', { slug }, pageIds.angel(slug))
})

/** /showcases (showcasesPage) */
export const showcasesRule = guarded('/showcases', (): RouteOutcome => page('showcases'))

/** /showcase/{slug} (showcasesPage) */
export const showcaseRule = guarded('/showcase/:slug', ({ params }): RouteOutcome<{ slug: string }> =>
  page('showcase', { slug: params.slug ?? '' }),
)

/** /quickies/{uuid?} (reels) */
export const quickiesRule = guarded('/quickies/:uuid?', ({ params }): RouteOutcome<{ uuid: string | null }> =>
  page('quickies', { uuid: params.uuid ?? null }),
)

/** /wall (curator) */
export const wallRule = guarded('/wall', (): RouteOutcome => page('wall'))

/** /recommended-videos: the ability to see the recommendation shelf. */
export const recommendedVideosRule = guarded('/recommended-videos', (): RouteOutcome => page('recommendedVideos'))

export type SitesRouteType = (typeof SITES_ROUTE_TYPES)[number]

/** /sites/{brand}/{type}: a sister site the tenant carries (not itself), listing videos or performers. */
export const sitesRule = guarded(
  '/sites/:brand/:type',
  ({ params }, pass): RouteOutcome<{ brand: string; type: SitesRouteType; page: number }> =>
    page('sites', { brand: params.brand ?? '', type: params.type as SitesRouteType, page: pass.page }),
)
