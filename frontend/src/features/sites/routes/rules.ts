// Sister sites: /sites/{brand}/{type} and the cross-site jump /xsite/{site} (rows: ./rows.json).
import { failure, guarded, MESSAGES, page, type RouteOutcome, SITES_ROUTE_TYPES } from '../../../app/routing'

/** /xsite/{site}: the table sends the user to the site's members host (or answers not-found). */
// The crossSite step always answers (a members URL that does not parse throws to the loader error handler).
export const xsiteRule = guarded('/xsite/:site', (): RouteOutcome => failure(MESSAGES.unexpectedHost))

export type SitesRouteType = (typeof SITES_ROUTE_TYPES)[number]

/** /sites/{brand}/{type}: a sister site the tenant carries (not itself), listing videos or performers. */
export const sitesRule = guarded(
  '/sites/:brand/:type',
  ({ params }, pass): RouteOutcome<{ brand: string; type: SitesRouteType; page: number }> =>
    page('sites', { brand: params.brand ?? '', type: params.type as SitesRouteType, page: pass.page }),
)
