import type { RouteInput } from './context'
import { notFound, redirect, type StopOutcome } from './outcome'
import { withQuery } from './query'

/**
 * {members}/oidc/login with `uri` as the return target: a path (the members host's own brand, as the edge's members-area
 * rule sends it) or an absolute URL on a brand host (the login pages check it against the configured brand hosts).
 */
export function loginUrl(membersUrl: string, uri: string): string {
  return withQuery(`${membersUrl.replace(/\/+$/, '')}/oidc/login`, { uri })
}

/**
 * The members login that comes back to this brand, on `pathAndQuery`: the return target is the brand's own origin
 * ({tourUrl}) with the path and query, so a shared members host (which serves its default brand for a bare path) sends
 * the browser back to the brand it left (docs/decisions/).
 */
export function signInUrl(tenant: { membersUrl: string; tourUrl: string }, pathAndQuery: string): string {
  const path = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`
  return loginUrl(tenant.membersUrl, `${tenant.tourUrl.replace(/\/+$/, '')}${path}`)
}

export function currentPathAndQuery(input: Pick<RouteInput, 'pathname' | 'query'>): string {
  return withQuery(input.pathname, input.query)
}

/** What an unauthenticated visitor gets: the members login in the members area, not-found elsewhere (product.md, "Route errors and the error screen"). */
export function unauthenticated(input: RouteInput): StopOutcome {
  return input.isMembersArea ? redirect(signInUrl(input.tenant, currentPathAndQuery(input))) : notFound
}

/** Guard for authenticated routes: undefined lets the route go on. */
export function requireAuthentication(input: RouteInput): StopOutcome | undefined {
  return input.user.isAuthenticated ? undefined : unauthenticated(input)
}

/** A missing ability is not-found, never a login prompt (product.md, "Screens and routes"). */
export function requireAbility(input: RouteInput, ...anyOf: ReadonlyArray<readonly [string, string]>): StopOutcome | undefined {
  return anyOf.some(([action, subject]) => input.user.can(action, subject)) ? undefined : notFound
}

/** A disabled tenant feature is not-found (product.md, "Screens and routes"). */
export function requireFeature(enabled: boolean | undefined): StopOutcome | undefined {
  return enabled === true ? undefined : notFound
}

/**
 * {members}/joinnow with ref (the page id), elm (the element) and nats (the stored tracking value), when known, the
 * affiliate campaign of the link's placement (campaign.ts), and the affiliate codes of a `ujc` landing this brand kept
 * (aff_code_single, aff_code_multi): the members host is another origin, which cannot read this brand's cookies.
 */
export function joinUrl(
  tenant: { membersUrl: string; tenant: string },
  tracking: {
    ref?: string
    elm?: string
    nats?: string | null
    campaign?: string | null
    affCodeSingle?: string | null
    affCodeMulti?: string | null
  } = {},
): string {
  return withQuery(`${tenant.membersUrl.replace(/\/+$/, '')}/joinnow`, {
    // A members host shared by every brand serves the brand the join started on (the gateway keeps it for the visit).
    brand: tenant.tenant,
    ...(tracking.ref ? { ref: tracking.ref } : {}),
    ...(tracking.elm ? { elm: tracking.elm } : {}),
    ...(tracking.nats ? { nats: tracking.nats } : {}),
    ...(tracking.campaign ? { campaign: tracking.campaign } : {}),
    ...(tracking.affCodeSingle ? { aff_code_single: tracking.affCodeSingle } : {}),
    ...(tracking.affCodeMulti ? { aff_code_multi: tracking.affCodeMulti } : {}),
  })
}
