import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appRouteObjects } from '../../../app/router'
import { member, tenantConfig } from '../../../app/routing/testing'
import type { RouteServices } from '../../../app/services'
import type { RoutingSession } from '../../../app/session/bootstrap'
import { EMPTY_CATALOG, scriptedGraphql, WithGraphql, type GraphqlAnswer } from '../../../testing/graphql'

afterEach(cleanup)

const services: RouteServices = {
  fetchTopRated: vi.fn(),
  requestCamsUrl: vi.fn(),
  fetchSignupExtern: vi.fn(),
  welcomeCheck: vi.fn(),
  isCategoryListLoaded: () => false,
  errorReporting: { report: () => undefined, openReportDialog: () => {} },
}

const deal = (n: number) => ({
  __typename: 'Deal',
  id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
  name: `deal-${n}`,
  site: 'tushy',
  partnerName: `Partner ${n}`,
  dealText: `Deal text ${n}`,
  dealTextListing: `Listing text ${n}`,
  discount: '50%',
  discountPrefix: 'Save',
  discountTextPostPrefix: 'off',
  discountLiteral: null,
  exclusive: false,
  url: `https://partner${n}.example.test/`,
  oneClickUrl: null,
  oneClickEnabled: false,
  initialPrice: null,
  requestPartnerConsent: false,
  thumbnail: [],
  logo: [],
  oneClickConsent: null,
})

const interstitial = (snoozed: boolean, snoozedUntil: string | null = null) => ({
  __typename: 'Interstitial',
  site: 'tushy',
  snoozed,
  snoozedUntil,
})

const offersAnswer = (count: number, snoozed = false) => ({
  offers: {
    __typename: 'OffersPage',
    site: 'tushy',
    offerPageId: 2,
    deals: Array.from({ length: count }, (_, index) => deal(index + 1)),
    interstitial: interstitial(snoozed),
  },
})

function renderOffers(url: string, abilities: string[], answers: Record<string, GraphqlAnswer>) {
  const session: RoutingSession = { tenant: tenantConfig(), user: member({ abilities }), isMembersArea: false }
  const graphql = scriptedGraphql({ ...EMPTY_CATALOG, ...answers })
  const router = createMemoryRouter(appRouteObjects(session, services), { initialEntries: [url] })
  render(
    <WithGraphql client={graphql.client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
  return { router, calls: graphql.calls }
}

describe('the offers page', () => {
  it('shows at most 15 offers under the interstitial', async () => {
    renderOffers('/offers', [], { OffersPage: offersAnswer(17) })
    expect(await screen.findByRole('heading', { name: 'Offers', level: 1 })).toBeTruthy()
    const grid = screen.getByTestId('offers-grid')
    expect(within(grid).getAllByRole('article')).toHaveLength(15)
    expect(within(grid).getByRole('article', { name: 'Partner 15' })).toBeTruthy()
    expect(within(grid).queryByRole('article', { name: 'Partner 16' })).toBeNull()
    expect(within(grid).getAllByRole('link', { name: 'Get the deal' })[0]!.getAttribute('href')).toBe('https://partner1.example.test/')
    expect(screen.getByRole('heading', { name: 'Special offers for tushy members' })).toBeTruthy()
  })

  it('says so when there are no offers', async () => {
    renderOffers('/offers', [], { OffersPage: offersAnswer(0) })
    expect(await screen.findByText('No offers right now. Come back soon.')).toBeTruthy()
  })

  it('continues to next, recording interstitial_continue; without the ability there is no hide button', async () => {
    const { router, calls } = renderOffers('/offers?next=%2Fvideos', [], {
      OffersPage: offersAnswer(2),
      ContinueInterstitial: { continueInterstitial: interstitial(false) },
    })
    const interstitialSection = await screen.findByTestId('offers-interstitial')
    expect(within(interstitialSection).queryByRole('button', { name: 'Hide for one month' })).toBeNull()
    fireEvent.click(within(interstitialSection).getByRole('button', { name: 'Continue to tushy' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/videos'))
    const recorded = calls.find((call) => call.operationName === 'ContinueInterstitial')
    expect(recorded?.variables).toEqual({ input: { site: 'tushy', dealId: deal(1).id } })
  })

  it('never continues off the site', async () => {
    const { router } = renderOffers('/offers?next=https%3A%2F%2Fevil.test%2F', [], {
      OffersPage: offersAnswer(1),
      ContinueInterstitial: { continueInterstitial: interstitial(false) },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to tushy' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })

  it('hides the interstitial for one month for a member who may, and it stays hidden when they come back', async () => {
    const { router, calls } = renderOffers('/offers', ['see HideMonthInterstitialButton'], {
      OffersPage: offersAnswer(3),
      SnoozeInterstitial: { snoozeInterstitial: interstitial(true, '2026-12-25T10:00:00Z') },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Hide for one month' }))
    expect(await screen.findByText('Offers are hidden until December 25, 2026.')).toBeTruthy()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(calls.find((call) => call.operationName === 'SnoozeInterstitial')?.variables).toEqual({
      input: { site: 'tushy', dealId: deal(1).id },
    })
    await router.navigate('/offers')
    expect(await screen.findByTestId('offers-grid')).toBeTruthy()
    expect(screen.queryByTestId('offers-interstitial')).toBeNull()
  })

  it('goes straight on to next while the interstitial is hidden', async () => {
    const { router } = renderOffers('/offers?next=%2Fperformers', ['see HideMonthInterstitialButton'], {
      OffersPage: offersAnswer(3, true),
      PerformerListing: EMPTY_CATALOG.PerformerListing!,
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/performers'))
  })

  it('tells a failed snooze and stays', async () => {
    renderOffers('/offers', ['see HideMonthInterstitialButton'], { OffersPage: offersAnswer(1) })
    fireEvent.click(await screen.findByRole('button', { name: 'Hide for one month' }))
    expect(await screen.findByText('The offers could not be hidden. Please try again later.')).toBeTruthy()
    expect(screen.getByTestId('offers-interstitial')).toBeTruthy()
  })
})
