// The routing session comes inline with the page: the gateway, which serves the SPA, writes the tenant
// configuration, the user's routing view and isMembersArea into <script id="paysite-bootstrap" type="application/json">.
import type { ProfileRoutingView, TenantConfig, UserRoutingView, WelcomeData } from '../routing'
import { canOnType, readableRules, type AbilityRule } from './abilityRules'

export const BOOTSTRAP_ELEMENT_ID = 'paysite-bootstrap'

export interface BootstrapPayload {
  tenant: TenantConfig
  user: {
    isAuthenticated: boolean
    abilities: AbilityRule[]
    profile: ProfileRoutingView | null
    welcome: WelcomeData
  }
  isMembersArea: boolean
  /** The visitor's region from the edge's geo lookup, e.g. 'US-TX'. */
  region?: string | null
  /** The gateway takes the page's error reports (product.md, "Route errors and the error screen"); false, errors go to the console. */
  errorReporting?: boolean
}

export interface RoutingSession {
  tenant: TenantConfig
  user: UserRoutingView
  isMembersArea: boolean
  /** The visitor's region, e.g. 'US-TX' (the health warning); null or absent when unknown. */
  region?: string | null
  /** The readable rules behind user.can; components build the CASL ability from them (ability.ts). */
  abilityRules?: readonly AbilityRule[]
  /** Errors go to the gateway's error reporting; false or absent, to the console (product.md, "Route errors and the error screen"). */
  errorReporting?: boolean
}

export class BootstrapError extends Error {
  constructor(reason: string) {
    super(`paysite bootstrap: ${reason}`)
    this.name = 'BootstrapError'
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** Checks the tenant shape the routing rules rely on; the gateway owns the full contract. */
export function parseTenantConfig(value: unknown): TenantConfig {
  if (!isObject(value)) throw new BootstrapError('no tenant')
  const tenant = value as unknown as TenantConfig
  for (const key of ['tenant', 'site', 'membersUrl'] as const) {
    if (typeof tenant[key] !== 'string') throw new BootstrapError(`tenant.${key} missing`)
  }
  if (!isObject(tenant.features) || !isObject(tenant.headerFeatures) || !isObject(tenant.paginationListSizes)) {
    throw new BootstrapError('tenant features missing')
  }
  if (!Array.isArray(tenant.standaloneSites) || !Array.isArray(tenant.multisiteSiteIds)) {
    throw new BootstrapError('tenant site lists missing')
  }
  return tenant
}

/** Checks the shape the routing rules rely on; the gateway owns the full contract. */
export function parseBootstrap(json: string | null | undefined): RoutingSession {
  if (!json) throw new BootstrapError('missing')
  let payload: unknown
  try {
    payload = JSON.parse(json)
  } catch {
    throw new BootstrapError('not JSON')
  }
  if (!isObject(payload) || !isObject(payload.tenant) || !isObject(payload.user)) throw new BootstrapError('no tenant or user')
  const { user } = payload as unknown as BootstrapPayload
  const tenant = parseTenantConfig(payload.tenant)
  const abilityRules = readableRules(user.abilities)
  const region = (payload as { region?: unknown }).region
  return {
    tenant,
    abilityRules,
    region: typeof region === 'string' ? region : null,
    user: {
      isAuthenticated: user.isAuthenticated === true,
      can: canOnType(abilityRules),
      profile: isObject(user.profile) ? user.profile : null,
      welcome: isObject(user.welcome) ? user.welcome : {},
    },
    isMembersArea: (payload as { isMembersArea?: unknown }).isMembersArea === true,
    errorReporting: (payload as { errorReporting?: unknown }).errorReporting === true,
  }
}

/**
 * Makes `target` the session of `fresh`'s user (a page the server answered after signing the user in), keeping the
 * welcome data of this page. `target` is changed in place: the router's loaders read the same object.
 */
export function adoptSession(target: RoutingSession, fresh: RoutingSession): void {
  target.user = { ...fresh.user, welcome: target.user.welcome }
  target.abilityRules = fresh.abilityRules
}

export function readBootstrap(doc: Document): RoutingSession {
  return parseBootstrap(doc.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent)
}
