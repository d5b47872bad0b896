// Which tenants show the cross-navigation shelf, and where its videos lead.
import type { TenantConfig } from '../../app/routing'

/** The tenant lists sister sites: standalone sites other than itself. */
export function hasSisterSites(tenant: Pick<TenantConfig, 'tenant' | 'standaloneSites'>): boolean {
  return tenant.standaloneSites.some((site) => site !== tenant.tenant)
}

/** This brand's videos open here; a sister site's open in its listing on this brand (/sites/{brand}/videos). */
export function crossNavigationHref(video: { slug: string; site: string }, tenant: string): string {
  return video.site === tenant ? `/videos/${video.slug}` : `/sites/${video.site}/videos`
}
