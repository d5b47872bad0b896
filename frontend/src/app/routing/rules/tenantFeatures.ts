// Routes a tenant feature or an ability switches on; off means not-found.
import { requireAbility, requireFeature } from '../access'
import { ABILITIES, SITES_ROUTE_TYPES } from '../constants'
import type { RouteInput } from '../context'
import { notFound, page, redirect, type RouteOutcome } from '../outcome'
import { pageIds } from '../pageIds'
import { parsePage, withoutKeys, withQuery } from '../query'
import { isValidSlug } from '../slug'

/** /angels (showAngels) */
export function angelsRule({ tenant }: RouteInput): RouteOutcome {
  return requireFeature(tenant.features.showAngels) ?? page('angels')
}

/** /angels/:slug (showAngels) */
export function angelRule({ tenant, params }: RouteInput): RouteOutcome<{ slug: string }> {
  const off = requireFeature(tenant.features.showAngels)
  if (off) return off
  const { slug } = params
  if (!isValidSlug(slug)) return notFound
  return page('angel', { slug }, pageIds.angel(slug))
}

/** /showcases (showcasesPage) */
export function showcasesRule({ tenant }: RouteInput): RouteOutcome {
  return requireFeature(tenant.features.showcasesPage) ?? page('showcases')
}

/** /showcase/{slug} (showcasesPage) */
export function showcaseRule({ tenant, params }: RouteInput): RouteOutcome<{ slug: string }> {
  const off = requireFeature(tenant.features.showcasesPage)
  if (off) return off
  const { slug } = params
  if (!isValidSlug(slug)) return notFound
  return page('showcase', { slug })
}

/** /quickies/{uuid?} (reels) */
export function quickiesRule({ tenant, params }: RouteInput): RouteOutcome<{ uuid: string | null }> {
  return requireFeature(tenant.features.reels) ?? page('quickies', { uuid: params.uuid ?? null })
}

/** /wall (curator) */
export function wallRule({ tenant }: RouteInput): RouteOutcome {
  return requireFeature(tenant.features.curator) ?? page('wall')
}

/** /recommended-videos: the ability to see the recommendation shelf. */
export function recommendedVideosRule(input: RouteInput): RouteOutcome {
  return requireAbility(input, ABILITIES.seeRecommendationShelf) ?? page('recommendedVideos')
}

export type SitesRouteType = (typeof SITES_ROUTE_TYPES)[number]

const isSitesRouteType = (type: string | undefined): type is SitesRouteType =>
  (SITES_ROUTE_TYPES as readonly (string | undefined)[]).includes(type)

/** /sites/{brand}/{type}: a sister site the tenant carries (not itself), listing videos or performers. */
export function sitesRule({ tenant, params, query }: RouteInput): RouteOutcome<{ brand: string; type: SitesRouteType; page: number }> {
  const { brand, type } = params
  if (brand === undefined || brand === tenant.tenant || !tenant.standaloneSites.includes(brand)) return notFound
  if (!isSitesRouteType(type)) return notFound
  const pageParam = parsePage(query.get('page'))
  if (!pageParam.valid || query.has('sites')) {
    return redirect(withQuery(`/sites/${brand}/${type}`, withoutKeys(query, ['page', 'sites'])))
  }
  return page('sites', { brand, type, page: pageParam.page })
}
