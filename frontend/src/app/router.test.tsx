import { cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appRouteObjects } from './router'
import { appRoutes } from './routes'
import { viewportTypeForWidth } from './routing'
import { homeShelfLimit, listShelfSize } from '../features/home/shelfSize'
import { tenantConfig, userView } from './routing/testing'
import type { RouteServices } from './services'
import type { RoutingSession } from './session/bootstrap'
import { EMPTY_CATALOG, scriptedGraphql, WithGraphql } from '../testing/graphql'

afterEach(cleanup)

function services(overrides: Partial<RouteServices> = {}): RouteServices {
  return {
    fetchTopRated: vi.fn().mockResolvedValue({ data: { videos: [] } }),
    requestCamsUrl: vi.fn(),
    fetchSignupExtern: vi.fn(),
    welcomeCheck: vi.fn(),
    isCategoryListLoaded: () => false,
    errorReporting: { report: () => undefined, openReportDialog: () => {} },
    ...overrides,
  }
}

const session = (overrides: Partial<RoutingSession> = {}): RoutingSession => ({
  tenant: tenantConfig(),
  user: userView(),
  isMembersArea: false,
  ...overrides,
})

let graphqlCalls: ReturnType<typeof scriptedGraphql>['calls'] = []

function renderAt(url: string, routeServices = services(), routingSession = session()) {
  const router = createMemoryRouter(appRouteObjects(routingSession, routeServices), { initialEntries: [url] })
  const graphql = scriptedGraphql(EMPTY_CATALOG)
  graphqlCalls = graphql.calls
  render(
    <WithGraphql client={graphql.client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
  return router
}

describe('the route table', () => {
  it('registers every path of product.md, "Screens and routes"', () => {
    const paths = appRoutes.map((route) => route.path)
    for (const path of [
      '/', '/videos', '/videos/:slug', '/videos/:slug/comment/:commentId', '/trailer/:slug', '/pictureset/:slug',
      '/toprated', '/awards', '/joinnow', '/models', '/models/:slug', '/performers', '/performers/:slug',
      '/categories', '/categories/:slug', '/casting', '/terms', '/privacy', '/safety', '/removal', '/2257', '/search',
      '/deals', '/offers', '/account', '/xsite/:site', '/cams', '/favorites', '/favorites/videos',
      '/favorites/performers', '/favorites/channels', '/favorites/models', '/channels', '/channels/:channelSlug',
      '/channels/:channelSlug/videos', '/channels/:channelSlug/packs/:channelPackSlug',
      '/channels/:channelSlug/videos/:videoSlug', '/channels/:channelSlug/trailers/:videoSlug',
      '/channels/:channelSlug/picturesets/:videoSlug', '/channels/all-videos', '/_signupsuccess',
      '/_signup-extern/:biller', '/_signupdenial', '/_upgrademembership', '/_upgradesuccess', '/_upgradedenial',
      '/parent-redirect', '/_upsell_signupsuccess', '/_upsell_signupdenial', '/oneclick/outgoing-upsell', '/tube2',
      '/angels', '/angels/:slug', '/showcases', '/showcase/:slug', '/reels/:uuid?', '/quickies/:uuid?',
      '/sites/:brand/:type', '/wall', '/recommended-videos',
    ]) {
      expect(paths).toContain(path)
    }
  })
})

describe('the data router', () => {
  it('shows the home page', async () => {
    renderAt('/')
    expect(await screen.findByRole('heading', { name: 'tushy', level: 1 })).toBeTruthy()
    expect(await screen.findByRole('heading', { name: 'Latest videos' })).toBeTruthy()
  })

  it("asks the home query for the loaded viewport's share of each shelf", async () => {
    renderAt('/')
    expect(await screen.findByRole('heading', { name: 'Latest videos' })).toBeTruthy()
    const home = graphqlCalls.find((call) => call.operationName === 'HomePage')
    const viewport = viewportTypeForWidth(window.innerWidth)
    const tenant = tenantConfig()
    expect(home?.variables).toEqual({ shelfSize: homeShelfLimit(viewport, tenant), latestSize: listShelfSize(viewport, tenant), freeTrial: false })
  })

  it('follows a page redirect and shows the screen', async () => {
    const router = renderAt('/videos?page=0&filter=new')
    expect(await screen.findByRole('heading', { name: 'Videos' })).toBeTruthy()
    expect(router.state.location.pathname + router.state.location.search).toBe('/videos?filter=new')
  })

  it('follows a permanent move', async () => {
    const router = renderAt('/models?order=name')
    expect(await screen.findByRole('heading', { name: 'Models' })).toBeTruthy()
    expect(router.state.location.pathname + router.state.location.search).toBe('/performers?order=name')
  })

  it('moves /favorites/models to /favorites/performers', async () => {
    const router = renderAt('/favorites/models', services(), session({ user: userView({ isAuthenticated: true }) }))
    expect(await screen.findByRole('heading', { name: 'Favorite Performers' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/favorites/performers')
  })

  it('shows e404 for a path missing from the table', async () => {
    renderAt('/no-such-page')
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
  })

  it("shows e404 and the error screen inside the brand's shell, with its header and footer", async () => {
    renderAt('/no-such-page')
    const notFound = await screen.findByRole('heading', { name: 'Page Not Found' })
    expect(notFound.closest('.shell')).toBeTruthy()
    expect(screen.getByRole('banner')).toBeTruthy()
    expect(screen.getByRole('contentinfo')).toBeTruthy()
    cleanup()
    renderAt('/deals?confirmation=bm90LWpzb24')
    const text = await screen.findByText('Something went wrong! We are working to fix this as soon as possible.')
    expect(text.closest('.shell')).toBeTruthy()
    expect(screen.getByRole('banner')).toBeTruthy()
    expect(screen.getByRole('contentinfo')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Go Home' }).className).toContain('button')
  })

  it('shows e404 to a visitor on an authenticated route outside the members area', async () => {
    renderAt('/pictureset/a-set')
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
  })

  it('shows e404 for an invalid slug', async () => {
    renderAt('/videos/Not--Valid')
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
  })

  it('treats any path containing /joinnow as the join route', async () => {
    renderAt('/promo/joinnow')
    expect(await screen.findByRole('heading', { name: 'Join tushy' })).toBeTruthy()
  })

  it('gates channels on the ability', async () => {
    renderAt('/channels', services(), session({ user: userView({ abilities: ['see Channels'] }) }))
    expect(await screen.findByRole('heading', { name: 'Channels' })).toBeTruthy()
  })

  it('shows the error screen for an error outcome, without "Fill a report" when reporting is off', async () => {
    renderAt('/deals?confirmation=bm90LWpzb24')
    expect(await screen.findByText('Something went wrong! We are working to fix this as soon as possible.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Fill a report' })).toBeNull()
  })

  it("reports a rule's own error once ('Outgoing upsell - Confirmation link is missing'), with \"Fill a report\"", async () => {
    const report = vi.fn().mockReturnValue('report-3')
    renderAt('/deals?confirmation=bm90LWpzb24', services({ errorReporting: { report, openReportDialog: () => {} } }))
    expect(await screen.findByRole('button', { name: 'Fill a report' })).toBeTruthy()
    expect(report).toHaveBeenCalledTimes(1)
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ message: 'Outgoing upsell - Confirmation link is missing' }), '/deals')
  })

  it('sends a failed call through the shared error handler, with "Fill a report" when reporting is on', async () => {
    const report = vi.fn().mockReturnValue('report-9')
    renderAt(
      '/toprated',
      services({
        fetchTopRated: vi.fn().mockRejectedValue(new Error('network down')),
        errorReporting: { report, openReportDialog: () => {} },
      }),
    )
    expect(await screen.findByRole('button', { name: 'Fill a report' })).toBeTruthy()
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ message: 'network down' }), '/toprated')
  })

  it('passes the top-rated query to the fetch', async () => {
    const fetchTopRated = vi.fn().mockResolvedValue({ data: { videos: [] } })
    renderAt('/toprated?period=week', services({ fetchTopRated }))
    expect(await screen.findByRole('heading', { name: 'Top rated' })).toBeTruthy()
    expect(fetchTopRated).toHaveBeenCalledWith('https://api.example.test', 'period=week', expect.anything())
  })
})
