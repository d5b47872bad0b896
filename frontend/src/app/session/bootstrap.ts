// The routing session comes inline with the page: the gateway, which serves the SPA, writes the tenant
// configuration, the user's routing view and isMembersArea into <script id="paysite-bootstrap" type="application/json">.
import type { ProfileRoutingView, TenantConfig, UserRoutingView, WelcomeData } from '../routing'
import { abilityFromRules, type AbilityRule } from './ability'

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
}

export interface RoutingSession {
  tenant: TenantConfig
  user: UserRoutingView
  isMembersArea: boolean
}

export class BootstrapError extends Error {
  constructor(reason: string) {
    super(`paysite bootstrap: ${reason}`)
    this.name = 'BootstrapError'
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

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
  const { tenant, user } = payload as unknown as BootstrapPayload
  for (const key of ['tenant', 'site', 'membersUrl'] as const) {
    if (typeof tenant[key] !== 'string') throw new BootstrapError(`tenant.${key} missing`)
  }
  if (!isObject(tenant.features) || !isObject(tenant.headerFeatures) || !isObject(tenant.paginationListSizes)) {
    throw new BootstrapError('tenant features missing')
  }
  if (!Array.isArray(tenant.standaloneSites) || !Array.isArray(tenant.multisiteSiteIds)) {
    throw new BootstrapError('tenant site lists missing')
  }
  return {
    tenant,
    user: {
      isAuthenticated: user.isAuthenticated === true,
      can: abilityFromRules(Array.isArray(user.abilities) ? user.abilities : []),
      profile: isObject(user.profile) ? user.profile : null,
      welcome: isObject(user.welcome) ? user.welcome : {},
    },
    isMembersArea: (payload as { isMembersArea?: unknown }).isMembersArea === true,
  }
}

export function readBootstrap(doc: Document): RoutingSession {
  return parseBootstrap(doc.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent)
}
