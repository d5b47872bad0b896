import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appRouteObjects } from '../../../app/router'
import { member, tenantConfig, userView } from '../../../app/routing/testing'
import type { RouteServices } from '../../../app/services'
import type { RoutingSession } from '../../../app/session/bootstrap'
import { scriptedGraphql, WithGraphql, type GraphqlAnswer } from '../../../testing/graphql'
import { leavePage } from '../leavePage'

vi.mock('../leavePage', () => ({ leavePage: vi.fn() }))

afterEach(cleanup)
beforeEach(() => {
  vi.mocked(leavePage).mockClear()
  for (const name of ['outgoing_upsell_oneclick_success', 'outgoing_upsell_oneclick_fallback']) {
    document.cookie = `${name}=; Max-Age=0; Path=/`
  }
})

const services: RouteServices = {
  fetchTopRated: vi.fn(),
  requestCamsUrl: vi.fn(),
  fetchSignupExtern: vi.fn(),
  welcomeCheck: vi.fn(),
  isCategoryListLoaded: () => false,
  errorReporting: { report: () => undefined, openReportDialog: () => {} },
}

function renderAt(url: string, answers: Record<string, GraphqlAnswer>, user = member()) {
  const session: RoutingSession = { tenant: tenantConfig(), user, isMembersArea: false }
  const graphql = scriptedGraphql(answers)
  const router = createMemoryRouter(appRouteObjects(session, services), { initialEntries: [url] })
  render(
    <WithGraphql client={graphql.client}>
      <RouterProvider router={router} />
    </WithGraphql>,
  )
  // The page's own calls: the header's gems balance (a signed-in member's) is not the page's.
  const calls = graphql.calls
  const own = () => calls.filter((call) => call.operationName !== 'GemsBalance')
  return { at: (index: number) => own()[index], all: own }
}

const UPSELL_URL =
  '/oneclick/outgoing-upsell?rg_upsellid=4203&member_link=https%3A%2F%2Fcams.example.test%2Fmembers&gas_cid=c-1&tour_link_code=T1'

const answer = (fields: Record<string, unknown>) => ({
  outgoingUpsellOneclick: {
    __typename: 'OutgoingUpsellOneclick',
    success: false,
    redirectUrl: null,
    redirectToConfirmationStep: false,
    confirmationModal: null,
    ...fields,
  },
})

describe('the outgoing one-click upsell', () => {
  it('asks the member to confirm the offer first, and confirming comes back with confirmed=1', async () => {
    const calls = renderAt(UPSELL_URL, {
      OutgoingUpsellOneclick: answer({
        redirectToConfirmationStep: true,
        confirmationModal: {
          __typename: 'OutgoingUpsellConfirmationModal',
          title: 'Sandbox Cams Premium',
          description: 'Unlimited live shows.',
          component: 'ConfirmOutgoingUpsell',
          price: { __typename: 'OutgoingUpsellPrice', initial: '1.00', recurring: '29.95' },
        },
      }),
    })
    const dialog = await screen.findByRole('dialog', { name: 'Sandbox Cams Premium' })
    expect(await within(dialog).findByText('Unlimited live shows.')).toBeTruthy()
    expect(screen.getByTestId('upsell-price').textContent).toBe('Price: 1.00, then 29.95')
    expect(calls.at(0)).toEqual({
      operationName: 'OutgoingUpsellOneclick',
      variables: {
        epochUpsellId: null,
        segpayUpsellId: null,
        rgUpsellId: '4203',
        fallbackUrl: null,
        memberLink: 'https://cams.example.test/members',
        clickId: 'c-1',
        confirmationRequired: true,
      },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm purchase' }))
    expect(leavePage).toHaveBeenCalledWith(`${UPSELL_URL}&confirmed=1`)
  })

  it('charges a confirmed offer and takes the member to the member link', async () => {
    const calls = renderAt(`${UPSELL_URL}&confirmed=1`, {
      OutgoingUpsellOneclick: answer({ success: true, redirectUrl: 'https://cams.example.test/members' }),
    })
    expect(await screen.findByText(/^Your purchase is complete\. Taking you to your new membership/)).toBeTruthy()
    expect(calls.at(0)?.variables.confirmationRequired).toBe(false)
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('https://cams.example.test/members'))
  })

  it('says the upsell was denied when there is nowhere to go', async () => {
    renderAt(`${UPSELL_URL}&confirmed=1`, { OutgoingUpsellOneclick: answer({}) })
    expect((await screen.findByRole('alert')).textContent).toBe('One-click upsell denied. Your membership cannot pay for this offer.')
    expect(leavePage).not.toHaveBeenCalled()
  })

  it('asks a visitor to log in first, and charges nothing', async () => {
    const calls = renderAt(UPSELL_URL, {}, userView())
    const login = within(await screen.findByRole('main')).getByRole('link', { name: 'Log in' })
    expect(login.getAttribute('href')).toBe(`https://members.tushy.com/oidc/login?uri=${encodeURIComponent(`https://www.tushy.com${UPSELL_URL}`)}`)
    expect(calls.all()).toEqual([])
  })
})

const tracking = (redirectUrl: string | null) => ({
  outgoingUpsellOneclickTracking: { __typename: 'OutgoingUpsellOneclickTracking', success: redirectUrl !== null, redirectUrl },
})

describe('the one-click upsell result pages', () => {
  it('record a success, set the success cookie to the member link and go there', async () => {
    const calls = renderAt('/_upsell_signupsuccess', { OutgoingUpsellOneclickTracking: tracking('https://cams.example.test/members') })
    expect(await screen.findByRole('heading', { name: 'Purchase Complete' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('Thank you! Your purchase is complete.')
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('https://cams.example.test/members'))
    expect(calls.all()).toEqual([{ operationName: 'OutgoingUpsellOneclickTracking', variables: { status: true } }])
    expect(document.cookie).toContain(`outgoing_upsell_oneclick_success=${encodeURIComponent('https://cams.example.test/members')}`)
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('https://cams.example.test/members')
  })

  it('record a failure and set the fallback cookie', async () => {
    const calls = renderAt('/_upsell_signupdenial', { OutgoingUpsellOneclickTracking: tracking('/deals') })
    expect(await screen.findByRole('heading', { name: 'Purchase Not Completed' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('One-click upsell denied. Your purchase was not completed.')
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('/deals'))
    expect(calls.at(0)?.variables).toEqual({ status: false })
    expect(document.cookie).toContain('outgoing_upsell_oneclick_fallback=%2Fdeals')
    expect(document.cookie).not.toContain('outgoing_upsell_oneclick_success')
  })

  it('set no cookie and stay when the tracking call answers no redirectUrl', async () => {
    renderAt('/_upsell_signupsuccess', { OutgoingUpsellOneclickTracking: tracking(null) })
    expect(await screen.findByRole('heading', { name: 'Purchase Complete' })).toBeTruthy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(leavePage).not.toHaveBeenCalled()
    expect(document.cookie).not.toContain('outgoing_upsell_oneclick')
  })
})
