// config/routes-conformance.json against the browser's loaders: every case's status and Location, as the router's
// loaders answer them for the case's brand, host and kind of user. The gateway's tests run the same file against the
// real edge (gateway/tests/route_conformance.rs), so the browser and the edge answer alike.
import { matchRoutes, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import conformance from '../../../../config/routes-conformance.json'
import firstScreenConformance from '../../../../config/first-screen-conformance.json'
import { appRouteObjects } from '../router'
import { httpServices, type RouteServices } from '../services'
import type { RoutingSession } from '../session/bootstrap'
import type { TenantConfig, WelcomeData } from './context'
import { appRoutes } from '../routes'
import { evaluateRow, ROUTE_ROWS, routeRow } from './table'

interface Case {
  brand: string
  host: 'brand' | 'members'
  user: string
  path: string
  status: number
  location?: string
}

interface UserKind {
  signedIn: boolean
  membership?: string
  abilities?: Record<string, string[]>
}

const tenantFiles = import.meta.glob('../../../../config/tenants/*.json', { eager: true, import: 'default' })
const MEMBERS_ORIGIN = 'http://members.localhost:8080'
const brandOrigin = (brand: string) => `http://${brand}.localhost:8080`

/** The tenant as the gateway serves it on that host (gateway `Tenant::with_origins`, local origins). */
function tenantFor(brand: string, host: Case['host']): TenantConfig {
  const raw = JSON.stringify(tenantFiles[`../../../../config/tenants/${brand}.json`])
  const origin = host === 'members' ? MEMBERS_ORIGIN : brandOrigin(brand)
  return JSON.parse(
    raw.replaceAll('{origin}', origin).replaceAll('{brandOrigin}', brandOrigin(brand)).replaceAll('{membersOrigin}', MEMBERS_ORIGIN),
  ) as TenantConfig
}

/** The welcome data the gateway reads from a result page's query (gateway `welcome::for_page`). */
function welcomeFor(url: URL): WelcomeData {
  const resultPage =
    ['/_signupsuccess', '/_signupdenial', '/_upgrademembership', '/_upgradesuccess', '/_upgradedenial'].includes(url.pathname) ||
    url.pathname.startsWith('/_signup-extern/')
  const query = url.searchParams
  if (!resultPage || !(query.has('memberid') || query.has('reason'))) return {}
  const welcome: WelcomeData = {}
  for (const key of ['memberid', 'hashedMemberId', 'username', 'reason'] as const) {
    const value = query.get(key)?.trim()
    if (value) welcome[key] = value
  }
  const siteId = Number(query.get('siteId'))
  if (query.has('siteId') && Number.isInteger(siteId)) welcome.siteId = siteId
  return welcome
}

function sessionFor(testCase: Case, url: URL): RoutingSession {
  const kind = (conformance.users as Record<string, UserKind>)[testCase.user]!
  const abilities = kind.abilities?.[testCase.brand] ?? []
  return {
    tenant: tenantFor(testCase.brand, testCase.host),
    isMembersArea: testCase.host === 'members',
    user: {
      isAuthenticated: kind.signedIn,
      can: (action, subject) => abilities.includes(`${action} ${subject}`),
      profile: kind.signedIn
        ? { email: 'user@example.test', teaserViewed: false, isSubscribed: Boolean(kind.membership), isActive: Boolean(kind.membership) }
        : null,
      welcome: welcomeFor(url),
    },
  }
}

/** Any well-formed slug: what the edge finds in the catalog, the browser learns from the screen's query. */
const fill = (text: string) =>
  text.replace(/\{(video|performer|channel|pack|channelVideo)\}/g, (_, name: string) => `some-${name.toLowerCase()}`)

// The loaders' calls: the rows the table marks `browser` decide on a call's answer, so they are checked on the table
// alone; /toprated's list is data, not routing, and comes back empty here.
const services: RouteServices = { ...httpServices, preloadScreenData: undefined, fetchTopRated: async () => ({ data: { videos: [] } }) }

interface Answer {
  status: number
  location?: string
}

async function answer(testCase: Case): Promise<Answer> {
  const url = new URL(fill(testCase.path), testCase.host === 'members' ? MEMBERS_ORIGIN : brandOrigin(testCase.brand))
  const session = sessionFor(testCase, url)
  const routes = appRouteObjects(session, services)[0]!.children as RouteObject[]
  const match = matchRoutes(routes, url.pathname)!.at(-1)!
  const row = routeRow(match.route.path!)
  if (row.browser !== undefined) {
    const checked = evaluateRow(row, {
      pathname: url.pathname,
      query: url.searchParams,
      params: match.params,
      tenant: session.tenant,
      user: session.user,
      isMembersArea: session.isMembersArea,
      viewportType: 'large',
    })
    if (!('kind' in checked)) return { status: 200 }
    if (checked.kind === 'redirect') return { status: checked.status, location: checked.location }
    return { status: checked.kind === 'notFound' ? 404 : 500 }
  }
  const loader = match.route.loader as (args: { request: Request; params: typeof match.params }) => Promise<unknown>
  try {
    await loader({ request: new Request(url), params: match.params })
    return { status: 200 }
  } catch (thrown) {
    if (thrown instanceof Response) {
      const location = thrown.headers.get('Location')
      return location === null ? { status: thrown.status } : { status: thrown.status, location }
    }
    const init = (thrown as { init?: { status?: number } }).init
    return { status: init?.status ?? 500 }
  }
}

describe('config/routes-conformance.json in the browser', () => {
  it.each((conformance.cases as Case[]).map((c) => [`${c.user} on ${c.host === 'members' ? 'members' : c.brand} ${c.path}`, c] as const))(
    '%s',
    async (_name, testCase) => {
      const expected: Answer = { status: testCase.status }
      if (testCase.location !== undefined) expected.location = fill(testCase.location)
      expect(await answer(testCase)).toEqual(expected)
    },
  )
})

describe('config/routes.json', () => {
  it('has a route in the app for every row, and every route runs its own row first', () => {
    expect(appRoutes.map((route) => route.path).sort()).toEqual(ROUTE_ROWS.map((row) => row.path).sort())
    for (const route of appRoutes) expect(route.load.routePath, route.path).toBe(route.path)
  })
})

// config/first-screen-conformance.json: the query each landing page's screen asks first, which the edge runs and
// writes into the page (gateway first_screen.rs runs the same file). A case the edge leaves alone (expect null) is
// the edge's to check: the browser has a query of its own there, which nothing here compares.
interface FirstScreenCase {
  brand: string
  user: string
  viewport: 'small' | 'medium' | 'large'
  path: string
  expect: { operation: string; variables: Record<string, unknown> } | null
}

const WIDTHS = { small: 412, medium: 800, large: 1350 } as const

async function firstQuery(testCase: FirstScreenCase) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: WIDTHS[testCase.viewport] })
  window.dispatchEvent(new Event('resize'))
  const kind = (firstScreenConformance.users as Record<string, { signedIn: boolean; abilities?: string[] }>)[testCase.user]!
  const url = new URL(testCase.path, brandOrigin(testCase.brand))
  const abilities = kind.abilities ?? []
  const session: RoutingSession = {
    tenant: tenantFor(testCase.brand, 'brand'),
    isMembersArea: false,
    user: {
      isAuthenticated: kind.signedIn,
      can: (action, subject) => abilities.includes(`${action} ${subject}`),
      profile: kind.signedIn ? { email: 'user@example.test', teaserViewed: false, isSubscribed: true, isActive: true } : null,
      welcome: {},
    },
  }
  let asked: { operation: string | undefined; variables: unknown } | null = null
  const capturing: RouteServices = {
    ...services,
    preloadScreenData: async (screen, data, request) => {
      const query = screen.screenQuery?.(data, session, new URL(request.url))
      if (!query) return
      const operation = query.query.definitions.find((d) => d.kind === 'OperationDefinition')
      asked = { operation: operation?.kind === 'OperationDefinition' ? operation.name?.value : undefined, variables: query.variables }
    },
  }
  const routes = appRouteObjects(session, capturing)[0]!.children as RouteObject[]
  const match = matchRoutes(routes, url.pathname)!.at(-1)!
  const loader = match.route.loader as (args: { request: Request; params: typeof match.params }) => Promise<unknown>
  await loader({ request: new Request(url), params: match.params })
  return asked
}

describe('config/first-screen-conformance.json in the browser', () => {
  const planned = (firstScreenConformance.cases as FirstScreenCase[]).filter((c) => c.expect !== null)
  it.each(planned.map((c) => [`${c.user} on ${c.brand} ${c.viewport} ${c.path}`, c] as const))('%s', async (_name, testCase) => {
    expect(await firstQuery(testCase)).toEqual({ operation: testCase.expect!.operation, variables: testCase.expect!.variables })
  })
})
