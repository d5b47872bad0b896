import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { page, type ProfileRoutingView, type ScreenId } from '../../../app/routing'
import { tenantConfig } from '../../../app/routing/testing'
import { canOnType, type AbilityRule } from '../../../app/session/abilityRules'
import type { RoutingSession } from '../../../app/session/bootstrap'
import { SessionProvider } from '../../../app/session/SessionContext'
import { AppShell } from '../../../app/shell/AppShell'
import { ModalProvider } from '../../../app/shell/ModalManager'
import { scriptedGraphql, WithGraphql } from '../../../testing/graphql'
import { UpgradeOverlay } from './UpgradeOverlay'
import { UpgradeOverlay as UpgradeOverlayOnTheVideoPage } from '../index'

afterEach(cleanup)

const see = (...subjects: string[]): AbilityRule[] => subjects.map((subject) => ({ action: 'see', subject }))

// The rule lists the access crate gives these users (services/access/src/abilities.rs), as the page's bootstrap carries them.
const USERS: Record<string, { rules: AbilityRule[]; profile: Partial<ProfileRoutingView> | null }> = {
  visitor: { rules: [], profile: null },
  trial: {
    rules: [
      ...see('PurchaseMembershipModal', 'UpgradeBar', 'TrialDeals'),
      { action: 'see', subject: 'UpgradeOverlay', conditions: { id: { $nin: ['v-unlocked'] } } },
    ],
    profile: { subscriptionKind: 'trial', isActive: true },
  },
  freeTrial: {
    rules: see('PurchaseMembershipModal', 'UpgradeBar', 'TrialDeals', 'FreeLimitedTrialVideos', 'UpgradeOverlay'),
    profile: { subscriptionKind: 'trial', isActive: true },
  },
  expired: {
    rules: see('PornPortalBar', 'PurchaseMembershipModal', 'UpgradeBar', 'UpgradeOverlay', 'ExpiredDeals'),
    profile: { subscriptionKind: 'member', isActive: false },
  },
  ppv: {
    rules: see('PurchaseMembershipModal', 'SpecialOffers', 'UpgradeBar', 'UpgradeOverlay', 'LockedChannel'),
    profile: { subscriptionKind: 'porn-portal', isActive: true },
  },
  member: { rules: see('FreeLimitedTrialVideos', 'HideMonthInterstitialButton', 'GemAnimation'), profile: { subscriptionKind: 'member' } },
  cancelled: {
    rules: see('FreeLimitedTrialVideos', 'HideMonthInterstitialButton', 'UpgradeBar', 'ReactivateCancelledRebillModal'),
    profile: { subscriptionKind: 'member', isActive: true },
  },
}

function sessionOf(name: string): RoutingSession {
  const { rules, profile } = USERS[name]!
  return {
    tenant: tenantConfig(),
    abilityRules: rules,
    isMembersArea: false,
    user: {
      isAuthenticated: profile !== null,
      can: canOnType(rules),
      profile: profile && { email: `${name}@paysite.test`, teaserViewed: true, isSubscribed: true, isActive: true, ...profile },
      welcome: {},
    },
  }
}

// What the modals the bars open ask for; their own tests cover what they show.
const MODAL_ANSWERS = { RetentionOffer: { getRetentionOffer: null, findOneUserProfile: { __typename: 'UserProfile', userId: 'u-1' } } }

function renderShell(name: string, screenId: ScreenId = 'home', path = '/') {
  const session = sessionOf(name)
  const router = createMemoryRouter(
    [
      {
        element: (
          <SessionProvider session={session}>
            <AppShell session={session}>
              <Outlet />
            </AppShell>
          </SessionProvider>
        ),
        children: [{ path, loader: () => page(screenId), element: <p>the page</p> }],
      },
    ],
    { initialEntries: [path] },
  )
  render(
    <WithGraphql client={scriptedGraphql(MODAL_ANSWERS).client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
}

/** Expired users get the upgrade modal on load (product.md, "Modals and flashes"); close it to reach the bars behind it. */
async function closeTheExpiredUpgradeModal() {
  await screen.findByRole('dialog', { name: 'Join now' })
  fireEvent.click(screen.getByRole('button', { name: 'Close' }))
  expect(screen.queryByRole('dialog')).toBeNull()
}

describe('the upgrade bar', () => {
  it('tells a trial user to upgrade and opens the purchase modal', async () => {
    renderShell('trial')
    const bar = await screen.findByRole('complementary', { name: 'Upgrade' })
    expect(bar.textContent).toContain('You are on a trial. Upgrade to a full membership to watch every video on tushy.')
    fireEvent.click(within(bar).getByRole('button', { name: 'Upgrade now' }))
    expect(await screen.findByRole('dialog', { name: 'Join now' })).toBeTruthy()
  })

  it('tells the free limited trial about its 3 full videos', async () => {
    renderShell('freeTrial')
    expect((await screen.findByTestId('upgrade-bar')).textContent).toContain('Your free trial includes 3 full videos.')
    expect(screen.queryByTestId('porn-portal-bar')).toBeNull()
  })

  it('asks an expired member to rejoin, with the join form carrying the -upgrade campaign', async () => {
    renderShell('expired')
    await closeTheExpiredUpgradeModal()
    const bar = await screen.findByTestId('upgrade-bar')
    expect(bar.textContent).toContain('Your membership has expired. Rejoin to watch every video on tushy again.')
    fireEvent.click(within(bar).getByRole('button', { name: 'Rejoin now' }))
    const dialog = await screen.findByRole('dialog', { name: 'Join now' })
    const join = await within(dialog).findByRole('link', { name: 'See membership options' })
    expect(join.getAttribute('href')).toBe('https://members.tushy.com/joinnow?brand=tushy&ref=home&elm=upgrade-bar&campaign=tsh-upgrade')
  })

  it('offers a porn-portal user a membership', async () => {
    renderShell('ppv')
    expect((await screen.findByTestId('upgrade-bar')).textContent).toContain('You pay per video. A membership opens every video on tushy.')
    expect(screen.queryByTestId('porn-portal-bar')).toBeNull()
  })

  it('offers a cancelled native member the reactivation', async () => {
    renderShell('cancelled')
    const bar = await screen.findByTestId('upgrade-bar')
    expect(bar.textContent).toContain('Your membership is cancelled and ends with the period you paid for.')
    fireEvent.click(within(bar).getByRole('button', { name: 'Reactivate my membership' }))
    expect(await screen.findByRole('dialog', { name: 'Reactivate your membership' })).toBeTruthy()
  })

  it('is not shown to visitors or active members, nor on the join page', async () => {
    for (const name of ['visitor', 'member']) {
      renderShell(name)
      expect(await screen.findByText('the page')).toBeTruthy()
      expect(screen.queryByTestId('upgrade-bar')).toBeNull()
      expect(screen.queryByTestId('porn-portal-bar')).toBeNull()
      cleanup()
    }
    renderShell('trial', 'joinNow', '/joinnow')
    expect(await screen.findByText('the page')).toBeTruthy()
    expect(screen.queryByTestId('upgrade-bar')).toBeNull()
  })
})

describe('the porn-portal bar', () => {
  it('shows to an expired member beside the upgrade bar, and opens the purchase modal with -pp-bar', async () => {
    renderShell('expired')
    await closeTheExpiredUpgradeModal()
    const bar = await screen.findByRole('complementary', { name: 'Porn portal' })
    expect(bar.textContent).toContain('Miss tushy? Come back for every video, or pick single videos with pay-per-video credits.')
    fireEvent.click(within(bar).getByRole('button', { name: 'See your options' }))
    const dialog = await screen.findByRole('dialog', { name: 'Join now' })
    expect((await within(dialog).findByRole('link', { name: 'See membership options' })).getAttribute('href')).toBe(
      'https://members.tushy.com/joinnow?brand=tushy&ref=home&elm=pp-bar&campaign=tsh-pp-bar',
    )
  })

  it('carries -int-pp-bar on the offers page', async () => {
    renderShell('expired', 'offers', '/offers')
    await closeTheExpiredUpgradeModal()
    fireEvent.click(within(await screen.findByTestId('porn-portal-bar')).getByRole('button', { name: 'See your options' }))
    const dialog = await screen.findByRole('dialog', { name: 'Join now' })
    expect((await within(dialog).findByRole('link', { name: 'See membership options' })).getAttribute('href')).toContain(
      'campaign=tsh-int-pp-bar',
    )
  })
})

describe('the upgrade overlay', () => {
  function renderOverlay(name: string, videoId: string) {
    const session = sessionOf(name)
    render(
      <SessionProvider session={session}>
        <ModalProvider>
          <UpgradeOverlay video={{ uuid: videoId }} />
        </ModalProvider>
      </SessionProvider>,
    )
  }

  it('covers a locked video for trial, free limited trial, expired and porn-portal users', () => {
    for (const name of ['trial', 'freeTrial', 'expired', 'ppv']) {
      renderOverlay(name, 'v-1')
      expect(screen.getByTestId('upgrade-overlay').textContent).toContain('Upgrade to watch the full video')
      cleanup()
    }
  })

  it("is not over a trial's unlocked video, nor for visitors and active members", () => {
    for (const [name, videoId] of [
      ['trial', 'v-unlocked'],
      ['visitor', 'v-1'],
      ['member', 'v-1'],
      ['cancelled', 'v-1'],
    ] as const) {
      renderOverlay(name, videoId)
      expect(screen.queryByTestId('upgrade-overlay')).toBeNull()
      cleanup()
    }
  })

  it('tells an expired member to rejoin', () => {
    renderOverlay('expired', 'v-1')
    expect(screen.getByRole('button', { name: 'Rejoin now' })).toBeTruthy()
  })
})

describe('the upgrade overlay on the video page', () => {
  it('loads for the users who hold it and stays away for the others', async () => {
    for (const [name, shown] of [
      ['expired', true],
      ['member', false],
      ['visitor', false],
    ] as const) {
      render(
        <SessionProvider session={sessionOf(name)}>
          <ModalProvider>
            <UpgradeOverlayOnTheVideoPage video={{ uuid: 'v-1' }} />
            <p>the player</p>
          </ModalProvider>
        </SessionProvider>,
      )
      await screen.findByText('the player')
      if (shown) expect((await screen.findByTestId('upgrade-overlay')).textContent).toContain('Upgrade to watch the full video')
      else expect(screen.queryByTestId('upgrade-overlay')).toBeNull()
      cleanup()
    }
  })
})
