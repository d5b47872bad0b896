// A well-formed slug of an item that does not exist: the rule lets it through, the page's query answers NOT_FOUND, and
// the route must show the not-found page (the gateway answers such paths 404 with the SPA's page). Every slug route,
// through the production path: the loader runs the screen's query with the real preloader before the page shows.
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { Observable } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WithGraphql } from '../testing/graphql'
import { screenDataPreloader } from './api/screenData'
import { appRouteObjects } from './router'
import { tenantConfig, userView } from './routing/testing'
import type { RouteServices } from './services'
import type { RoutingSession } from './session/bootstrap'

afterEach(cleanup)

/** A gateway that knows no item: every operation answers NOT_FOUND, as the catalog's missing slug does. */
function gatewayWithoutItems() {
  const asked: string[] = []
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        asked.push(operation.operationName ?? '')
        observer.next({ data: null, errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] })
        observer.complete()
      }),
  )
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), asked }
}

const member: RoutingSession = {
  tenant: tenantConfig({ features: { showAngels: true, showcasesPage: true, reels: true } }),
  user: userView({ isAuthenticated: true, abilities: ['see Channels', 'see ChannelTrailers'] }),
  isMembersArea: false,
}

function renderAt(url: string) {
  const { client, asked } = gatewayWithoutItems()
  const report = vi.fn()
  const services: RouteServices = {
    fetchTopRated: vi.fn(),
    requestCamsUrl: vi.fn(),
    fetchSignupExtern: vi.fn(),
    welcomeCheck: vi.fn(),
    isCategoryListLoaded: () => false,
    errorReporting: { report, openReportDialog: () => {} },
    preloadScreenData: screenDataPreloader(client, member),
  }
  const router = createMemoryRouter(appRouteObjects(member, services), { initialEntries: [url] })
  render(
    <WithGraphql client={client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
  return { asked, report, router }
}

describe('a well-formed slug of a missing item', () => {
  it.each([
    ['/videos/no-such-video', 'VideoPage'],
    ['/videos/no-such-video/comment/42', 'VideoPage'],
    ['/trailer/no-such-video', 'VideoPage'],
    ['/pictureset/no-such-video', 'PictureSetPage'],
    ['/performers/no-such-performer', 'PerformerPage'],
    ['/angels/no-such-angel', 'AngelPage'],
    ['/showcase/no-such-showcase', 'ShowcasePage'],
    ['/channels/no-such-channel', 'ChannelPage'],
    ['/channels/no-such-channel/videos', 'ChannelPage'],
    ['/channels/no-such-channel/packs/no-such-pack', 'ChannelPackPage'],
    ['/channels/no-such-channel/videos/no-such-video', 'VideoPage'],
    ['/channels/no-such-channel/trailers/no-such-video', 'VideoPage'],
    ['/channels/no-such-channel/picturesets/no-such-video', 'PictureSetPage'],
    ['/quickies/5f0c7a52-3d1e-4a8b-9c1f-2b7e6d4a9f10', 'QuickiePage'],
    ['/sites/vixen/videos', 'SisterSiteVideos'],
    ['/sites/vixen/performers', 'SisterSitePerformers'],
  ])('%s shows the not-found page once %s answers NOT_FOUND, and reports nothing', async (url, operation) => {
    const { asked, report, router } = renderAt(url)
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
    expect(asked).toContain(operation)
    expect(report).not.toHaveBeenCalled()
    // Not-found is shown in place: the address stays what the visitor asked for.
    expect(router.state.location.pathname).toBe(url)
  })
})
