import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { Observable } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { member, tenantConfig } from '../../app/routing/testing'
import { FlashProvider } from '../../app/shell/Flash'
import { ModalProvider } from '../../app/shell/ModalManager'
import { SessionProvider } from '../../app/session/SessionContext'
import { PurchaseMembership } from './modals/PurchaseMembership'
import { UpgradeToYearlyMembership } from './modals/UpgradeToYearlyMembership'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

type Answer = { data?: Record<string, unknown> | null; errors?: Array<{ message: string }> }
const calls: Array<{ operationName: string; variables: Record<string, unknown> }> = []

function client(answers: Record<string, Answer>) {
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const name = operation.operationName ?? ''
        calls.push({ operationName: name, variables: operation.variables })
        observer.next(answers[name] ?? { data: null, errors: [{ message: `unscripted ${name}` }] })
        observer.complete()
      }),
  )
  return new ApolloClient({ link, cache: new InMemoryCache() })
}

const option = (id: number, site: string, kind: string, title: string) => ({
  __typename: 'JoinOption',
  id,
  site,
  kind,
  freeLimitedTrial: false,
  title,
  price: '29.95',
  currency: 'USD',
  rebillPrice: '29.95',
  rebillPeriodDays: 30,
  trialDays: null,
  paymentOptions: ['EPOCH'],
})

const JOIN_OPTIONS = {
  data: {
    joinOptions: {
      __typename: 'JoinOptions',
      site: 'tushy',
      siteId: 1,
      joinOptions: [
        option(10201, 'tushy', 'member', '1 month'),
        option(10202, 'tushy', 'trial', '2-day trial'),
        option(2901, 'multisiteVP', 'member', 'Every site'),
      ],
      trialUpgrade: { __typename: 'TrialUpgradePrice', price: '19.95', currency: 'USD', rebillPeriodDays: 30 },
    },
  },
}

/** The gateway's answer to a one-click multisite purchase that charged. */
const oneclickBought = (memberId: string): Answer => ({
  data: {
    internalUpsellOneclickMultisite: {
      __typename: 'OneclickPurchase',
      success: true,
      location: null,
      username: 'neo',
      memberId,
      hashedMemberId: 'h',
    },
  },
})

function renderModal(
  subscriptionKind: string,
  answers: Record<string, Answer>,
  props: Record<string, unknown> = { reason: 'expired' },
  Body: typeof PurchaseMembership | typeof UpgradeToYearlyMembership = PurchaseMembership,
) {
  calls.length = 0
  // A member's membership is active; an expired or porn-portal one is not.
  const user = member({ profile: { subscriptionKind, isActive: subscriptionKind === 'member' } as never })
  const closed: boolean[] = []
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <ApolloProvider client={client(answers)}>
            <SessionProvider session={{ tenant: tenantConfig(), user, isMembersArea: false }}>
              <FlashProvider>
                <ModalProvider>
                  <Body props={props as never} close={() => closed.push(true)} />
                </ModalProvider>
              </FlashProvider>
            </SessionProvider>
          </ApolloProvider>
        ),
      },
    ],
    { initialEntries: ['/'] },
  )
  render(<RouterProvider router={router} />)
  return closed
}

describe('the purchase modal for an expired member', () => {
  it('reactivates the brand in one click with one of its own member options, after consent', async () => {
    const closed = renderModal('expired', {
      JoinOptions: JOIN_OPTIONS,
      InternalUpsellOneclickSinglesite: {
        data: { internalUpsellOneclickSinglesite: { __typename: 'OneclickPurchase', success: true, location: null } },
      },
    })
    expect(await screen.findByText('1 month: $29.95 / 30 days')).toBeTruthy()
    expect(screen.queryByText(/2-day trial/)).toBeNull()
    expect(screen.queryByText(/Every site/)).toBeNull()
    const buy = screen.getByRole('button', { name: 'Reactivate now' }) as HTMLButtonElement
    expect(buy.disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(buy)
    await waitFor(() => expect(closed).toEqual([true]))
    const bought = calls.find((c) => c.operationName === 'InternalUpsellOneclickSinglesite')?.variables
    expect(bought).toMatchObject({ joinOptionId: 10201, siteName: 'tushy', elm: 'purchase-modal', consent: true })
    expect(bought?.tracking).toBeNull()
    expect(typeof bought?.idempotencyKey).toBe('string')
  })

  it('carries the element and campaign of the bar that opened it', async () => {
    renderModal(
      'expired',
      {
        JoinOptions: JOIN_OPTIONS,
        InternalUpsellOneclickSinglesite: {
          data: { internalUpsellOneclickSinglesite: { __typename: 'OneclickPurchase', success: true, location: null } },
        },
      },
      { reason: 'expired', elm: 'pp-bar', campaign: 'vxn-int-pp-bar' },
    )
    fireEvent.click(await screen.findByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: 'Reactivate now' }))
    await waitFor(() => expect(calls.some((c) => c.operationName === 'InternalUpsellOneclickSinglesite')).toBe(true))
    const bought = calls.find((c) => c.operationName === 'InternalUpsellOneclickSinglesite')?.variables
    expect(bought).toMatchObject({ elm: 'pp-bar', tracking: { marketing: { campaign: 'vxn-int-pp-bar' } } })
  })

  it('says the options could not be loaded when they cannot', async () => {
    renderModal('expired', {})
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load the membership options. Please try again later.')
  })

  it('sends a porn-portal user, who has no membership to reactivate, to the join form', async () => {
    renderModal('porn-portal', {})
    expect(await screen.findByRole('link', { name: 'See membership options' })).toBeTruthy()
    expect(calls).toEqual([])
  })
})

describe('the purchase modal for an active member', () => {
  const multisiteAnswers = (optionId: number): Record<string, Answer> => ({
    MultisiteUpsellOption: {
      data: { joinOptions: { __typename: 'JoinOptions', multisiteUpsellJoinOptionId: optionId } },
    },
    InternalUpsellOneclickMultisite: oneclickBought('M-1'),
  })

  it('buys the multisite package the server names, after consent', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    renderModal('member', multisiteAnswers(2566), { reason: 'upgrade' })
    const buy = (await screen.findByRole('button', { name: 'Buy the multisite package' })) as HTMLButtonElement
    expect(buy.disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(buy)
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1))
    const bought = calls.find((c) => c.operationName === 'InternalUpsellOneclickMultisite')?.variables
    expect(bought).toMatchObject({ optionId: 2566, elm: 'purchase-modal', consent: true })
    expect(assign.mock.calls[0]?.[0]).toMatch(/^\/_signupsuccess\?fatr=true&memberid=M-1/)
  })

  it('says the options could not be loaded when the server does not name the package', async () => {
    renderModal('member', {}, { reason: 'upgrade' })
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load the membership options. Please try again later.')
    expect(calls.some((c) => c.operationName === 'InternalUpsellOneclickMultisite')).toBe(false)
  })
})

describe('the yearly upgrade modal', () => {
  it('buys the VP yearly option the server names in one click, after consent', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    renderModal(
      'member',
      {
        YearlyUpgradeOption: {
          data: {
            joinOptions: {
              __typename: 'JoinOptions',
              vixenPlusYearlyJoinOptionId: 2901,
              joinOptions: [option(10201, 'tushy', 'member', '1 month'), option(2901, 'multisiteVP', 'member', 'Every site')],
            },
          },
        },
        InternalUpsellOneclickMultisite: oneclickBought('M-2'),
      },
      {},
      UpgradeToYearlyMembership,
    )
    expect(await screen.findByText('Every site: $29.95 / 30 days')).toBeTruthy()
    const buy = screen.getByRole('button', { name: 'Upgrade to yearly' }) as HTMLButtonElement
    expect(buy.disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(buy)
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1))
    const bought = calls.find((c) => c.operationName === 'InternalUpsellOneclickMultisite')?.variables
    expect(bought).toMatchObject({ optionId: 2901, elm: 'upgrade-yearly', consent: true })
    expect(typeof bought?.idempotencyKey).toBe('string')
  })
})
