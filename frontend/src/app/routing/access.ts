import type { RouteInput } from './context'
import { notFound, redirect, type StopOutcome } from './outcome'
import { withQuery } from './query'

/** {members}/oidc/login with the current path and query as parameter uri. */
export function loginUrl(membersUrl: string, pathAndQuery: string): string {
  return withQuery(`${membersUrl.replace(/\/+$/, '')}/oidc/login`, { uri: pathAndQuery })
}

export function currentPathAndQuery(input: Pick<RouteInput, 'pathname' | 'query'>): string {
  return withQuery(input.pathname, input.query)
}

/** What an unauthenticated visitor gets: the members login in the members area, not-found elsewhere (§4). */
export function unauthenticated(input: RouteInput): StopOutcome {
  return input.isMembersArea ? redirect(loginUrl(input.tenant.membersUrl, currentPathAndQuery(input))) : notFound
}

/** Guard for authenticated routes: undefined lets the route go on. */
export function requireAuthentication(input: RouteInput): StopOutcome | undefined {
  return input.user.isAuthenticated ? undefined : unauthenticated(input)
}

/** A missing ability is not-found, never a login prompt (§6). */
export function requireAbility(input: RouteInput, ...anyOf: ReadonlyArray<readonly [string, string]>): StopOutcome | undefined {
  return anyOf.some(([action, subject]) => input.user.can(action, subject)) ? undefined : notFound
}

/** A disabled tenant feature is not-found (§5). */
export function requireFeature(enabled: boolean | undefined): StopOutcome | undefined {
  return enabled === true ? undefined : notFound
}

/**
 * {members}/joinnow with ref (the page id), elm (the element) and nats (the stored tracking value), when known, and
 * the affiliate campaign of the link's placement (campaign.ts).
 */
export function joinUrl(
  membersUrl: string,
  tracking: { ref?: string; elm?: string; nats?: string | null; campaign?: string | null } = {},
): string {
  return withQuery(`${membersUrl.replace(/\/+$/, '')}/joinnow`, {
    ...(tracking.ref ? { ref: tracking.ref } : {}),
    ...(tracking.elm ? { elm: tracking.elm } : {}),
    ...(tracking.nats ? { nats: tracking.nats } : {}),
    ...(tracking.campaign ? { campaign: tracking.campaign } : {}),
  })
}
