// The route table of product.md, "Screens and routes" as data: config/routes.json, which the gateway's edge reads too
// (gateway/src/routes.rs). Each feature owns its rows (features/<feature>/routes/rows.json); config/routes.json is
// generated from them and this engine's head (tableHead.json) by `npm run routes`. Each row's steps run in order and
// the first that stops decides: not-found, a 302 or a 301. A row whose steps all pass goes on to the rule the feature
// declares for it (features/<feature>/routes/index.ts), which only gathers the page's data.
// config/routes-conformance.json holds the browser and the edge to the same answers (conformance.test.ts).
// Named imports, so the table's `about` text (for people editing the file) stays out of the bundle.
import { routes as tableRoutes, slugParams as tableSlugParams } from '../../../../config/routes.json'
import { requireAbility, requireAuthentication } from './access'
import { BRANDS, DEFAULT_REDIRECT_TARGET, LIST_SIZES, MAX_INT32, MESSAGES } from './constants'
import type { RouteInput, TenantConfig } from './context'
import { failure, movedPermanently, notFound, redirect, type RouteOutcome, type StopOutcome } from './outcome'
import { parsePage, sameSitePath, withQuery } from './query'
import { isValidSlug } from './slug'

interface Target {
  to: string
  keepQuery?: boolean
  query?: ReadonlyArray<readonly [string, string]>
}

type Invalid =
  | 'clear'
  | { drop: readonly string[] }
  | { keep: readonly string[] }
  | { keepUnlessDefault: ReadonlyArray<readonly [string, string]> }

type Feature = 'awardsLink' | 'showAngels' | 'showcasesPage' | 'reels' | 'curator'

export type Step =
  | 'authenticated'
  | 'slugs'
  | 'knownBrand'
  | 'facetedVideoSearch'
  | 'facetedPerformers'
  | 'offersTeaser'
  | 'welcomeRequired'
  | 'signupSuccess'
  | 'signupDenial'
  | 'crossSite'
  | 'joinRoute'
  | { visitorsOnly: Target }
  | { ability: ReadonlyArray<readonly [string, string]> }
  | { feature: Feature }
  | { sisterSite: readonly string[] }
  | { page: { max?: 'awards'; invalid: Invalid; absent?: readonly string[] } }
  | { redirect: Target }
  | { move: Target }

export interface RouteRow {
  path: string
  steps: readonly Step[]
  /** What the edge asks the catalog before answering 200; the browser learns it from the screen's query. */
  lookup?: string
  /** What only the browser does after the steps (a call the edge does not make). */
  browser?: string
}

export const ROUTE_ROWS: readonly RouteRow[] = tableRoutes as unknown as readonly RouteRow[]
const SLUG_PARAMS: readonly string[] = tableSlugParams

const rowsByPath = new Map(ROUTE_ROWS.map((row) => [row.path, row]))

export function routeRow(path: string): RouteRow {
  const row = rowsByPath.get(path)
  if (row === undefined) throw new Error(`no route ${path} in config/routes.json`)
  return row
}

/** What a row's steps let through: the page number when the row reads one. */
export interface Pass {
  page: number
}

function featureOn(tenant: TenantConfig, feature: Feature): boolean {
  return feature === 'awardsLink' ? tenant.headerFeatures.awardsLink : tenant.features[feature] === true
}

/** A path template with the location's parameters, each encoded; an absent optional last parameter drops its segment. */
function fill(template: string, params: RouteInput['params']): string {
  const segments = template
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => {
      if (!segment.startsWith(':')) return [segment]
      const value = params[segment.slice(1).replace(/\?$/, '')]
      return value === undefined || value === '' ? [] : [encodeURIComponent(value)]
    })
  return `/${segments.join('/')}`
}

function target({ to, keepQuery = false, query = [] }: Target, input: RouteInput): string {
  const search = keepQuery ? new URLSearchParams(input.query) : new URLSearchParams()
  for (const [key, value] of query) search.append(key, value.startsWith(':') ? (input.params[value.slice(1)] ?? '') : value)
  return withQuery(fill(to, input.params), search)
}

function invalidPageQuery(invalid: Invalid, query: URLSearchParams): URLSearchParams {
  if (invalid === 'clear') return new URLSearchParams()
  if ('drop' in invalid) {
    const kept = new URLSearchParams(query)
    for (const key of invalid.drop) kept.delete(key)
    return kept
  }
  if ('keep' in invalid) {
    const kept = new URLSearchParams()
    for (const key of invalid.keep) for (const value of query.getAll(key)) kept.append(key, value)
    return kept
  }
  const kept = new URLSearchParams()
  for (const [key, fallback] of invalid.keepUnlessDefault) {
    const value = query.get(key) || fallback
    if (value !== fallback) kept.set(key, value)
  }
  return kept
}

const hasMemberAndUsername = ({ user }: RouteInput): boolean => Boolean(user.welcome.memberid && user.welcome.username)

/** The multisite package id and the combined brand's id count as multisite (spec README). */
export function isMultisiteSiteId(tenant: Pick<TenantConfig, 'multisiteSiteIds'>, siteId: string | number | undefined): boolean {
  if (siteId === undefined || siteId === '') return false
  return tenant.multisiteSiteIds.some((id) => String(id) === String(siteId))
}

/** The members URL with the current brand's host label replaced by `site`, plus an optional same-site deeplink. */
export function crossSiteUrl(membersUrl: string, currentBrand: string, site: string, deeplink?: string): string {
  const url = new URL(membersUrl)
  url.hostname = url.hostname
    .split('.')
    .map((label) => (label === currentBrand ? site : label))
    .join('.')
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  return deeplink ? `${base}${deeplink}` : base
}

/** One step: a stop, or undefined to go on. */
function runStep(step: Step, row: RouteRow, input: RouteInput, pass: Pass): StopOutcome | undefined {
  const { tenant, user, query, params } = input
  if (typeof step === 'string') {
    switch (step) {
      case 'authenticated':
        return requireAuthentication(input)
      case 'slugs':
        return Object.entries(params).some(([name, value]) => SLUG_PARAMS.includes(name) && !isValidSlug(value))
          ? notFound
          : undefined
      case 'knownBrand':
        return params.site !== undefined && BRANDS.includes(params.site) ? undefined : notFound
      case 'facetedVideoSearch': {
        const search = query.get('search') || null
        return search !== null && tenant.features.facetedSearch
          ? redirect(withQuery('/videos', { categories: search.toLowerCase() }))
          : undefined
      }
      case 'facetedPerformers': {
        if (!tenant.features.facetedSearch || query.has('sex')) return undefined
        const withSex = new URLSearchParams(query)
        withSex.append('sex', 'F')
        return redirect(withQuery('/performers', withSex))
      }
      case 'offersTeaser':
        return tenant.features.promotionalVideoTeaserModal.enabled && user.profile?.teaserViewed !== true
          ? redirect(sameSitePath(query.get('next')) ?? DEFAULT_REDIRECT_TARGET)
          : undefined
      case 'welcomeRequired':
        return hasMemberAndUsername(input) ? undefined : redirect('/')
      case 'signupSuccess':
        if (!hasMemberAndUsername(input)) return redirect('/')
        return user.isAuthenticated && !isMultisiteSiteId(tenant, user.welcome.siteId)
          ? redirect(withQuery('/', { reactivation: 'success', fatr: 'true' }))
          : undefined
      case 'signupDenial':
        // Offers is for a signed-in user: a declined visitor reads the denial and its reason (docs/decisions/).
        return user.isAuthenticated && isMultisiteSiteId(tenant, user.welcome.siteId) ? redirect('/offers') : undefined
      case 'crossSite':
        return redirect(crossSiteUrl(tenant.membersUrl, tenant.tenant, params.site ?? '', sameSitePath(query.get('deeplink'))))
      case 'joinRoute':
        return input.pathname.includes('/joinnow') ? undefined : notFound
    }
  }
  if ('visitorsOnly' in step) return user.isAuthenticated ? redirect(target(step.visitorsOnly, input)) : undefined
  if ('ability' in step) return requireAbility(input, ...step.ability)
  if ('feature' in step) return featureOn(tenant, step.feature) ? undefined : notFound
  if ('sisterSite' in step) {
    const { brand, type } = params
    const listed = brand !== undefined && brand !== tenant.tenant && tenant.standaloneSites.includes(brand)
    return listed && type !== undefined && step.sisterSite.includes(type) ? undefined : notFound
  }
  if ('page' in step) {
    const { max, invalid, absent = [] } = step.page
    const small = tenant.paginationListSizes.small
    const last = max === 'awards' ? Math.floor(MAX_INT32 / (small > 0 ? small : LIST_SIZES.small)) : MAX_INT32
    const parsed = parsePage(query.get('page'), last)
    if (parsed.valid && !absent.some((key) => query.has(key))) {
      pass.page = parsed.page
      return undefined
    }
    return redirect(withQuery(fill(row.path, params), invalidPageQuery(invalid, query)))
  }
  if ('redirect' in step) return redirect(target(step.redirect, input))
  return movedPermanently(target(step.move, input))
}

/** Runs a row's steps: the first stop, or what they let through. */
export function evaluateRow(row: RouteRow, input: RouteInput): StopOutcome | Pass {
  const pass: Pass = { page: 1 }
  for (const step of row.steps) {
    const stop = runStep(step, row, input, pass)
    if (stop) return stop
  }
  return pass
}

const isStop = (value: StopOutcome | Pass): value is StopOutcome => 'kind' in value

/** A rule of the table's row for `path`, then `build` for what the row lets through. */
export function guarded<R, A extends unknown[] = []>(path: string, build: (input: RouteInput, pass: Pass, ...rest: A) => R) {
  const row = routeRow(path)
  const rule = (input: RouteInput, ...rest: A): R | StopOutcome => {
    const checked = evaluateRow(row, input)
    return isStop(checked) ? checked : build(input, checked, ...rest)
  }
  return Object.assign(rule, { routePath: path })
}

/**
 * The load of a row whose steps always answer (a 301 move, a redirect): a load that got past them would be a table
 * without its move, the shared loader error.
 */
export function tableOnly(path: string) {
  return guarded(path, (): RouteOutcome<never> => failure(MESSAGES.genericError))
}
