// A page whose content the server refuses (FORBIDDEN) is a locked page with the access-denied routing (product.md, "Access-denied routing"), never the
// error screen: through the production path (the loader runs the screen's query with the real preloader).
import type { DeniedReason } from '../features/unlocks/videoUnlock'
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { cleanup, render, screen, within } from '@testing-library/react'
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

const poster = { __typename: 'Image', src: '/media/placeholder/video/a.svg', placeholder: null, width: 1280, height: 720, highdpi: null }

/** The gateway: the picture set refused, the video open, its access as given. */
function gateway(deniedReason: DeniedReason, credits = 0, freeVideosLeft = 0) {
  const asked: string[] = []
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const name = operation.operationName ?? ''
        asked.push(name)
        if (name === 'PictureSetPage') {
          observer.next({ data: null, errors: [{ message: 'You are not allowed to do this', extensions: { code: 'FORBIDDEN' } }] })
        } else if (name === 'LockedVideo') {
          observer.next({
            data: {
              getVideo: {
                __typename: 'VideoDetail',
                video: {
                  __typename: 'Video',
                  uuid: 'v-1',
                  newId: '101',
                  slug: 'autumn-reflection',
                  title: 'Autumn Reflection',
                  isThirdPartyChannel: false,
                  channel: { __typename: 'Channel', name: 'Behind The Lens' },
                  images: { __typename: 'VideoImages', poster },
                },
              },
            },
          })
        } else if (name === 'VideoAccessOne') {
          observer.next({
            data: {
              videoAccess: [
                {
                  __typename: 'VideoAccess',
                  videoId: 'v-1',
                  denied: true,
                  access: false,
                  deniedReason,
                  unlocked: false,
                  channelPackId: 'pack-1',
                  isFreeLimitedTrial: false,
                },
              ],
              getGemsBalance: { __typename: 'GemsBalance', payPerVideoCredits: credits },
              unlockState: { __typename: 'UnlockState', freeLimitedTrialVideosLeft: freeVideosLeft, freeLimitedTrialVideos: 3 },
            },
          })
        } else if (name === 'VideoUnlockTerms') {
          observer.next({
            data: { unlockState: { __typename: 'UnlockState', videoUnlockCostCredits: 1, freeLimitedTrialVideos: 3 } },
          })
        } else {
          observer.next({ data: null, errors: [{ message: `not scripted: ${name}` }] })
        }
        observer.complete()
      }),
  )
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), asked }
}

function renderAt(url: string, session: RoutingSession, client: ApolloClient) {
  const report = vi.fn()
  const services: RouteServices = {
    fetchTopRated: vi.fn(),
    requestCamsUrl: vi.fn(),
    fetchSignupExtern: vi.fn(),
    welcomeCheck: vi.fn(),
    isCategoryListLoaded: () => false,
    errorReporting: { report, openReportDialog: () => {} },
    preloadScreenData: screenDataPreloader(client, session),
  }
  render(
    <WithGraphql client={client}>
      <RouterProvider router={createMemoryRouter(appRouteObjects(session, services), { initialEntries: [url] })} />
    </WithGraphql>,
  )
  return { report }
}

const signedIn = (abilities: string[], profile = {}): RoutingSession => ({
  tenant: tenantConfig(),
  user: userView({ isAuthenticated: true, abilities: ['see Channels', ...abilities], profile }),
  isMembersArea: false,
})

describe('a refused picture set', () => {
  it('in a locked channel pack, for a member who may unlock packs: the page says what is locked and the unlock-channel modal opens', async () => {
    const { client } = gateway('channel_pack_locked')
    const { report } = renderAt('/channels/behind-the-lens/picturesets/autumn-reflection', signedIn(['unlock ChannelPack']), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(page.textContent).toContain('The picture set of Autumn Reflection is not part of your membership yet.')
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Unlock channel')).toBeTruthy()
    expect(within(page).getByRole('button', { name: 'Unlock the channel pack', hidden: true })).toBeTruthy()
    expect(screen.queryByText(/Something went wrong/)).toBeNull()
    expect(report).not.toHaveBeenCalled()
    expect(document.title).toBe('Pictures: Autumn Reflection – tushy')
  })

  it("on a brand the membership does not cover: the purchase modal with the brand's own options", async () => {
    const { client } = gateway('no_access')
    renderAt('/pictureset/easy-glow', signedIn([]), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(within(page).getByRole('button', { name: 'Get full access', hidden: true })).toBeTruthy()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Join now')).toBeTruthy()
    expect(screen.queryByText(/Something went wrong/)).toBeNull()
  })

  it('for an active trial with credits: the unlock-or-upgrade modal', async () => {
    const { client } = gateway('no_access', 3)
    renderAt('/pictureset/easy-glow', signedIn([], { subscriptionKind: 'trial', isActive: true }), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(await within(page).findByRole('button', { name: 'Unlock this video', hidden: true })).toBeTruthy()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Unlock or upgrade')).toBeTruthy()
  })

  it('for the free limited trial, a flagged video: the free video offer with what is left', async () => {
    const { client } = gateway('free_trial_video', 0, 2)
    renderAt('/pictureset/easy-glow', signedIn([], { subscriptionKind: 'trial', isActive: true }), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(await within(page).findByRole('button', { name: 'Watch as a free video (2 left)', hidden: true })).toBeTruthy()
    expect(page.textContent).toContain('as one of your 3 free videos: 2 left.')
    const dialog = await screen.findByRole('dialog')
    // The modal opens at once and reads what is left: wait for its answer, not only its frame.
    expect((await within(dialog).findByTestId('free-videos-left')).textContent).toBe('2 free videos left.')
  })

  it('for the free limited trial with its videos taken: limited trial expired, and the upgrade', async () => {
    const { client } = gateway('free_trial_expired')
    renderAt('/pictureset/easy-glow', signedIn([], { subscriptionKind: 'trial', isActive: true }), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(await within(page).findByRole('button', { name: 'Upgrade membership', hidden: true })).toBeTruthy()
    expect(page.textContent).toContain('limited trial expired')
  })

  it('for someone who pays for the site and is still refused: support, never a purchase', async () => {
    const { client } = gateway('support')
    renderAt('/pictureset/easy-glow', signedIn([], { subscriptionKind: 'member', isActive: true }), client)
    const page = await screen.findByTestId('locked-page', {}, { timeout: 5_000 })
    expect(await within(page).findByRole('link', { name: 'Contact support', hidden: true })).toBeTruthy()
    expect(within(page).queryByRole('button', { name: /Get full access|Upgrade/, hidden: true })).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
