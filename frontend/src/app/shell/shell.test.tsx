import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Suspense, type ReactNode } from 'react'
import { createMemoryRouter, Link, Outlet, RouterProvider, type RouteObject } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HomeScreen } from '../../features/home/routes/HomeScreen'
import { homeRule } from '../../features/home/routes/rules'
import { page, type ScreenId } from '../routing'
import { member, routeInput, tenantConfig, userView } from '../routing/testing'
import type { RoutingSession } from '../session/bootstrap'
import { SessionProvider } from '../session/SessionContext'
import { EMPTY_CATALOG, scriptedGraphql, WithGraphql } from '../../testing/graphql'
import { AppShell } from './AppShell'
// The flash below names an unlock's key: the unlock modules that add it bring their copy (copy.test.ts).
import '../../features/unlocks/copy'
import { useFlash } from './Flash'
import { useModals } from './ModalManager'

afterEach(cleanup)

// What the modal bodies ask for when they open (their own tests cover what they show).
const MODAL_ANSWERS = {
  GemsBalance: {
    getGemsBalance: {
      __typename: 'GemsBalance',
      daysUntilRefreshGems: 3,
      payPerVideoCredits: 0,
      weeklyGems: 10,
      gems: { __typename: 'GemsState', lastAcknowledgementDate: null, hasNewGems: false, mayShowGemsModal: true },
      wallet: { __typename: 'Wallet', balance: { __typename: 'Balance', amount: 20 } },
    },
  },
  Transactions: { getTransactions: [] },
  ChannelPackCost: { unlockState: { __typename: 'UnlockState', channelPackCostGems: 10 } },
}
beforeEach(() => window.localStorage.clear())

const session = (overrides: Partial<RoutingSession> = {}): RoutingSession => ({
  tenant: tenantConfig(),
  user: userView(),
  isMembersArea: false,
  ...overrides,
})

function Opener() {
  const modals = useModals()
  const flashes = useFlash()
  return (
    <div>
      <button type="button" onClick={() => modals.open('UserGemsInfo')}>
        open gems
      </button>
      <button type="button" onClick={() => modals.open('SubscriptionStatus')}>
        open status
      </button>
      <button type="button" onClick={() => flashes.add({ type: 'error', translation: 'video_unlock_modal.error' })}>
        flash
      </button>
      <Link to="/joinnow">join</Link>
    </div>
  )
}

function renderShell(routingSession = session(), initial = '/', gemsModalAllowed?: () => Promise<boolean>) {
  const withShell = (screenId: ScreenId, element: ReactNode): RouteObject => ({
    loader: () => page(screenId),
    element,
  })
  const routes: RouteObject[] = [
    {
      element: (
        <SessionProvider session={routingSession}>
          <AppShell session={routingSession} gemsModalAllowed={gemsModalAllowed}>
            <OutletProxy />
          </AppShell>
        </SessionProvider>
      ),
      children: [
        { path: '/', ...withShell('home', <Opener />) },
        { path: '/joinnow', ...withShell('joinNow', <p>join page</p>) },
        { path: '/_upgrademembership', ...withShell('upgradeMembership', <p>upgrade page</p>) },
        { path: '/offers', ...withShell('offers', <p>offers page</p>) },
      ],
    },
  ]
  const router = createMemoryRouter(routes, { initialEntries: [initial] })
  render(
    <WithGraphql client={scriptedGraphql(MODAL_ANSWERS).client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
  return router
}

function OutletProxy() {
  return <Outlet />
}

describe('the modal dialog', () => {
  it('is a labelled modal dialog that takes focus and gives it back on close', async () => {
    renderShell()
    const opener = await screen.findByRole('button', { name: 'open gems' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Your gems' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(dialog.contains(document.activeElement)).toBe(true)
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })

  it('keeps Tab inside the dialog', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'open gems' }))
    const dialog = screen.getByRole('dialog')
    const close = screen.getByRole('button', { name: 'Close' })
    close.focus()
    fireEvent.keyDown(dialog, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(close)
  })

  it('takes focus back when something outside sends it away', async () => {
    renderShell()
    const opener = await screen.findByRole('button', { name: 'open gems' })
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog')
    // The page behind is inert for the user, not for a script: a late focus() on it is sent back into the dialog.
    act(() => opener.focus())
    expect(dialog.contains(document.activeElement)).toBe(true)
  })

  it('keeps focus in a dialog that a backdrop press does not close', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'open status' }))
    const dialog = screen.getByRole('dialog', { name: 'Membership update' })
    const inside = document.activeElement
    expect(dialog.contains(inside)).toBe(true)
    // fireEvent answers false when a handler prevented the default: the browser then leaves focus where it is.
    expect(fireEvent.mouseDown(screen.getByTestId('modal-backdrop'))).toBe(false)
    expect(document.activeElement).toBe(inside)
  })

  it("gives focus to the page's content when what opened it is gone", async () => {
    renderShell()
    const opener = await screen.findByRole('button', { name: 'open gems' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog')
    act(() => opener.remove())
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(document.getElementById('content'))
  })

  it('makes the page behind it inert', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'open gems' }))
    expect(document.body.querySelector('.shell')?.hasAttribute('inert')).toBe(true)
  })

  it('closes by the backdrop when the modal allows it', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'open gems' }))
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('does not close by the backdrop or Escape when the modal waits for an answer', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'open status' }))
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'))
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    expect(screen.getByRole('dialog', { name: 'Membership update' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
  })
})

describe('flash notifications', () => {
  it('show the translated text, suppress duplicates and go after 10 s', async () => {
    renderShell()
    const button = await screen.findByRole('button', { name: 'flash' })
    vi.useFakeTimers()
    try {
      fireEvent.click(button)
      fireEvent.click(button)
      expect(screen.getAllByRole('alert')).toHaveLength(1)
      expect(screen.getByRole('alert').textContent).toContain('Failed to unlock the video. Please try again later.')
      act(() => vi.advanceTimersByTime(9999))
      expect(screen.queryByRole('alert')).not.toBeNull()
      act(() => vi.advanceTimersByTime(1))
      expect(screen.queryByRole('alert')).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('can be dismissed by its button', async () => {
    renderShell()
    fireEvent.click(await screen.findByRole('button', { name: 'flash' }))
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }))
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('navigation dropdowns', () => {
  it('only one is open at a time; Escape closes and gives focus back', async () => {
    renderShell(session({ user: member() }))
    const videos = await screen.findByRole('button', { name: 'Videos' })
    const more = screen.getByRole('button', { name: 'More' })
    fireEvent.click(videos)
    expect(videos.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(more)
    expect(videos.getAttribute('aria-expanded')).toBe('false')
    expect(more.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(more, { key: 'Escape' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(more)
  })

  it('the account menu offers sign out and sign out everywhere', async () => {
    renderShell(session({ user: member() }))
    fireEvent.click(await screen.findByRole('button', { name: 'My account' }))
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeTruthy()
  })

  it("the phone's menu and search buttons open one panel at a time", async () => {
    renderShell()
    const menu = await screen.findByRole('button', { name: 'Menu' })
    const search = screen.getByRole('button', { name: 'Search', expanded: false })
    expect(menu.getAttribute('aria-controls')).toBe(screen.getByRole('navigation', { name: 'Main' }).id)
    expect(search.getAttribute('aria-controls')).toBe(screen.getByRole('search').id)
    fireEvent.click(menu)
    expect(menu.getAttribute('aria-expanded')).toBe('true')
    expect(document.querySelector('.site-header--menu-open')).toBeTruthy()
    fireEvent.click(search)
    expect(menu.getAttribute('aria-expanded')).toBe('false')
    expect(search.getAttribute('aria-expanded')).toBe('true')
    expect(document.querySelector('.site-header--search-open')).toBeTruthy()
  })

  it('closes on a click elsewhere', async () => {
    renderShell()
    const videos = await screen.findByRole('button', { name: 'Videos' })
    fireEvent.click(videos)
    fireEvent.mouseDown(document.body)
    expect(videos.getAttribute('aria-expanded')).toBe('false')
  })

  it('lists tenant-gated pages only when the tenant has them', async () => {
    renderShell(session({ tenant: tenantConfig({ headerFeatures: { awardsLink: true }, features: { reels: true } }) }))
    fireEvent.click(await screen.findByRole('button', { name: 'Videos' }))
    expect(screen.getByRole('link', { name: 'Awards' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'More' }))
    expect(screen.getByRole('link', { name: 'Quickies' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Wall' })).toBeNull()
  })

  it('offers login and join to visitors, with the members login uri', async () => {
    renderShell(session(), '/offers')
    const login = await screen.findByRole('link', { name: 'Log in' })
    // Back to this brand, not the members host's default brand.
    expect(login.getAttribute('href')).toBe(`https://members.tushy.com/oidc/login?uri=${encodeURIComponent('https://www.tushy.com/offers')}`)
    expect(screen.getByRole('link', { name: 'Join now' }).getAttribute('href')).toBe(
      'https://members.tushy.com/joinnow?brand=tushy&ref=offers&elm=header&campaign=tsh-hdr',
    )
  })

  it("gives the header's join link the mobile header campaign on a phone", async () => {
    const width = window.innerWidth
    // As a browser does: the new width, then the resize event.
    window.innerWidth = 360
    window.dispatchEvent(new Event('resize'))
    try {
      renderShell(session(), '/offers')
      expect((await screen.findByRole('link', { name: 'Join now' })).getAttribute('href')).toBe(
        'https://members.tushy.com/joinnow?brand=tushy&ref=offers&elm=header&campaign=tsh-mbhdr',
      )
    } finally {
      window.innerWidth = width
      window.dispatchEvent(new Event('resize'))
    }
  })
})

const texas = tenantConfig({ features: { healthWarning: { 'US-TX': { enabled: true, regionName: 'Texas' } } } })

describe('the health warning overlay', () => {
  it('covers the page for a Texas visitor until acknowledged, and stays acknowledged', async () => {
    renderShell(session({ tenant: texas, region: 'US-TX' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Health warning' })
    expect(dialog.className).toContain('modal--fullScreen')
    expect(dialog.textContent).toContain('TEXAS')
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.getByRole('alertdialog')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'I understand' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    cleanup()
    renderShell(session({ tenant: texas, region: 'US-TX' }))
    await screen.findByRole('button', { name: 'open gems' })
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it('is announced: an alert dialog named by its title, described by the warning, with focus on its answer', async () => {
    renderShell(session({ tenant: texas, region: 'US-TX' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Health warning' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '')
    expect(description?.textContent).toContain('TEXAS')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'I understand' }))
  })

  it('shows the Alabama variant for US-AL', async () => {
    const alabama = tenantConfig({ features: { healthWarning: { 'US-AL': { enabled: true, regionName: 'Alabama' } } } })
    renderShell(session({ tenant: alabama, region: 'US-AL' }))
    expect((await screen.findByRole('alertdialog')).textContent).toContain('ALABAMA')
  })

  it.each(['/joinnow', '/_upgrademembership'])('never on %s', async (path) => {
    renderShell(session({ tenant: texas, region: 'US-TX' }), path)
    await screen.findByText(/page$/)
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })
})

describe('automatic modals', () => {
  it('opens the gems intro for an active member when the gems service allows it', async () => {
    const user = member({ profile: { gemsIntroSeen: false } })
    const allowed = vi.fn(async () => true)
    renderShell(session({ user }), '/', allowed)
    expect(await screen.findByRole('dialog', { name: 'Your gems' })).toBeTruthy()
  })

  it('not when the gems modal showed within the day', async () => {
    const user = member({ profile: { gemsIntroSeen: false } })
    const allowed = vi.fn(async () => false)
    renderShell(session({ user }), '/', allowed)
    await waitFor(() => expect(allowed).toHaveBeenCalled())
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('opens the upgrade modal for an expired member', async () => {
    const user = member({ profile: { isActive: false, subscriptionKind: 'expired' } })
    renderShell(session({ user }))
    expect(await screen.findByRole('dialog', { name: 'Join now' })).toBeTruthy()
  })
})

describe('the home page query', () => {
  function renderHome(url: string, user = userView()) {
    const routingSession = session({ user })
    const router = createMemoryRouter(
      [
        {
          element: (
            <SessionProvider session={routingSession}>
              <AppShell session={routingSession}>
                <Suspense>
                  <OutletProxy />
                </Suspense>
              </AppShell>
            </SessionProvider>
          ),
          children: [{ path: '/', loader: ({ request }) => homeRule(routeInput(request.url, { user })), Component: HomeScreen }],
        },
      ],
      { initialEntries: [url] },
    )
    render(
      <WithGraphql client={scriptedGraphql(EMPTY_CATALOG).client}>
        <RouterProvider router={router} />
      </WithGraphql>,
    )
  }

  it('dc=approved shows the device challenge flash', async () => {
    renderHome('/?dc=approved')
    expect((await screen.findByRole('status')).textContent).toContain('Your device has been approved.')
  })

  it('notification=upgradedenial shows an error flash', async () => {
    renderHome('/?notification=upgradedenial')
    expect((await screen.findByRole('alert')).textContent).toContain('declined')
  })

  it('modal=upgrade opens the purchase modal for a subscribed user who can see it', async () => {
    renderHome('/?modal=upgrade', member({ abilities: ['see PurchaseMembershipModal'] }))
    expect(await screen.findByRole('dialog', { name: 'Join now' })).toBeTruthy()
  })

  it('from=joinnow opens the subscription-status modal', async () => {
    renderHome('/?from=joinnow', member())
    expect(await screen.findByRole('dialog', { name: 'Membership update' })).toBeTruthy()
  })
})
