import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { Observable } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appRouteObjects } from '../../../app/router'
import { tenantConfig, userView } from '../../../app/routing/testing'
import type { RouteServices } from '../../../app/services'
import type { WelcomeData } from '../../../app/routing'
import { upgradeBackgroundSrc } from './UpgradeMembershipScreen'

type Answer = { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }

const calls: Array<{ operationName: string; variables: Record<string, unknown> }> = []

function client(answers: Record<string, Answer[]>) {
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const name = operation.operationName ?? ''
        calls.push({ operationName: name, variables: operation.variables })
        const queue = answers[name] ?? []
        observer.next((queue.length > 1 ? queue.shift() : queue[0]) ?? { data: null, errors: [{ message: `unscripted ${name}` }] })
        observer.complete()
      }),
  )
  return new ApolloClient({ link, cache: new InMemoryCache() })
}

const services: RouteServices = {
  fetchTopRated: vi.fn().mockResolvedValue({ data: { videos: [] } }),
  requestCamsUrl: vi.fn(),
  fetchSignupExtern: vi.fn(),
  welcomeCheck: vi.fn().mockResolvedValue(null),
  isCategoryListLoaded: () => false,
  errorReporting: { report: () => undefined, openReportDialog: () => {} },
}

function renderAt(url: string, answers: Record<string, Answer[]>, welcome: WelcomeData = {}) {
  const session = { tenant: tenantConfig(), user: userView({ welcome }), isMembersArea: url.includes('joinnow') }
  const router = createMemoryRouter(appRouteObjects(session, services), { initialEntries: [url] })
  render(
    <ApolloProvider client={client(answers)}>
      <RouterProvider router={router} />
    </ApolloProvider>,
  )
  return router
}

const option = (id: number, extra: Record<string, unknown> = {}) => ({
  __typename: 'JoinOption',
  id,
  site: 'tushy',
  kind: 'member',
  freeLimitedTrial: false,
  title: `Option ${id}`,
  price: '29.95',
  currency: 'USD',
  rebillPrice: '29.95',
  rebillPeriodDays: 30,
  trialDays: null,
  paymentOptions: ['EPOCH', 'SEGPAY'],
  ...extra,
})

const joinOptions = (options: unknown[]) => ({
  data: {
    joinOptions: {
      __typename: 'JoinOptions',
      site: 'tushy',
      siteId: 1,
      joinOptions: options,
      trialUpgrade: { __typename: 'TrialUpgradePrice', price: '19.95', currency: 'USD', rebillPeriodDays: 30 },
    },
  },
})

const welcomeAnswer = (isWelcome: boolean, extra: Record<string, unknown> = {}) => ({
  data: {
    welcomeCheck: {
      __typename: 'WelcomeCheck',
      memberid: 'EP-1',
      username: 'newbie',
      siteId: 1,
      isWelcome,
      isTrial: false,
      autologinId: isWelcome ? 'al-123' : null,
      ...extra,
    },
  },
})

const welcome: WelcomeData = { memberid: 'EP-1', hashedMemberId: 'h-1', username: 'newbie', siteId: 1 }
const noPictures = { data: { getWelcomePagePictureSet: null } }

let assign: ReturnType<typeof vi.fn>
beforeEach(() => {
  calls.length = 0
  assign = vi.fn()
  vi.stubGlobal('location', { ...window.location, assign })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('the join screen', () => {
  it('sends the form with the chosen option, biller and the join link’s tracking, then goes to the biller', async () => {
    renderAt('/joinnow?ref=home&elm=hdr&nats=MC4wLjEuMA&aff_code_single=AFF1&aff_code_multi=AFF2', {
      JoinOptions: [joinOptions([option(3045), option(3046, { title: 'Yearly', paymentOptions: ['CENTROBILL'] })])],
      Join: [{ data: { join: { __typename: 'JoinStarted', signupId: 's-1', location: 'http://sandbox/pay/EPOCH?x=1' } } }],
    })
    expect(await screen.findByText('Option 3045')).toBeTruthy()
    expect(screen.getAllByText('$29.95 / 30 days')).toHaveLength(2)
    fireEvent.click(screen.getByLabelText('SEGPAY'))
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'new@example.com' } })
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'newbie' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret12345' } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://sandbox/pay/EPOCH?x=1'))
    expect(calls.find((c) => c.operationName === 'Join')?.variables).toEqual({
      input: {
        email: 'new@example.com',
        username: 'newbie',
        password: 'Secret12345',
        joinOptionId: 3045,
        paymentOption: 'SEGPAY',
        ref: 'home',
        elm: 'hdr',
        nats: 'MC4wLjEuMA',
        affCodeSingle: 'AFF1',
        affCodeMulti: 'AFF2',
      },
    })
  })

  it('shows the server’s message, and a login link to an existing member', async () => {
    renderAt('/joinnow', {
      JoinOptions: [joinOptions([option(3045)])],
      Join: [
        {
          data: null,
          errors: [
            {
              message: 'An account with this email address already exists. Please log in.',
              extensions: { code: 'ACCOUNT_EXISTS_LOG_IN' },
            },
          ],
        },
      ],
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to payment' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('An account with this email address already exists. Please log in.')
    expect(within(alert).getByRole('link', { name: 'Log in' }).getAttribute('href')).toContain('/oidc/login')
    expect(assign).not.toHaveBeenCalled()
  })

  it('without options online, sends the visitor to support', async () => {
    renderAt('/joinnow', { JoinOptions: [joinOptions([])] })
    expect((await screen.findByRole('status')).textContent).toContain('not available to buy online')
  })
})

describe('signup success', () => {
  it('polls while the account is made, then welcomes the member with the autologin link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderAt('/_signupsuccess', { AccountCreationCheck: [welcomeAnswer(false), welcomeAnswer(true)], WelcomePagePictureSet: [noPictures] }, welcome)
    expect((await screen.findByRole('status')).textContent).toContain('Creating your account')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000)
    })
    const start = await screen.findByRole('link', { name: 'Start watching' })
    expect(start.getAttribute('href')).toBe('/?al_token=al-123')
    expect(screen.getByText('Welcome to tushy, newbie! Your membership is ready.')).toBeTruthy()
    const checks = calls.filter((c) => c.operationName === 'AccountCreationCheck')
    expect(checks).toHaveLength(2)
    expect(checks[0]?.variables).toEqual({ site: 'tushy', memberId: 'EP-1', hashedMemberId: 'h-1' })
  })

  it('gives up after 24 tries with ‘Account creation timed out’ and offers a manual login', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderAt('/_signupsuccess', { AccountCreationCheck: [welcomeAnswer(false)], WelcomePagePictureSet: [noPictures] }, welcome)
    await screen.findByRole('status')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000 * 24)
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Account creation timed out')
    expect(calls.filter((c) => c.operationName === 'AccountCreationCheck')).toHaveLength(24)
    expect(within(alert).getByRole('link', { name: 'Log in' })).toBeTruthy()
    expect(within(alert).getByRole('link', { name: 'Contact support' })).toBeTruthy()
  })

  it('sends a trial on to the upgrade membership page', async () => {
    const router = renderAt(
      '/_signupsuccess',
      {
        AccountCreationCheck: [welcomeAnswer(true, { isTrial: true })],
        WelcomePagePictureSet: [noPictures],
        JoinOptions: [joinOptions([])],
      },
      welcome,
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/_upgrademembership'))
    expect(await screen.findByRole('heading', { name: 'Upgrade Membership' })).toBeTruthy()
    expect(screen.getByText('$19.95 every 30 days')).toBeTruthy()
    // The signup page's token is handed over: no second check (each would issue another token).
    expect(screen.getByRole('link', { name: 'Continue with my trial' }).getAttribute('href')).toBe('/?al_token=al-123')
    expect(calls.filter((c) => c.operationName === 'AccountCreationCheck')).toHaveLength(1)
  })

  it('takes a declined signup to signup denied with the reason', async () => {
    const router = renderAt(
      '/_signupsuccess',
      {
        AccountCreationCheck: [
          { data: null, errors: [{ message: 'the biller declined', extensions: { code: 'SIGNUP_DENIED', reason: 'Card expired' } }] },
        ],
        WelcomePagePictureSet: [noPictures],
      },
      welcome,
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/_signupdenial'))
    expect((await screen.findByTestId('signup-denied-reason')).textContent).toBe('Reason: Card expired')
  })

  it('shows the welcome page’s pictures behind the greeting', async () => {
    renderAt(
      '/_signupsuccess',
      {
        AccountCreationCheck: [welcomeAnswer(true)],
        WelcomePagePictureSet: [
          {
            data: {
              getWelcomePagePictureSet: {
                __typename: 'WelcomePagePictureSet',
                site: 'TUSHY',
                images: [
                  { __typename: 'Image', src: '/media/a.svg', placeholder: '/p', width: 10, height: 10, highdpi: null },
                ],
              },
            },
          },
        ],
      },
      welcome,
    )
    const backgrounds = await screen.findByTestId('welcome-backgrounds')
    expect(backgrounds.querySelector('img')?.getAttribute('src')).toBe('/media/a.svg')
    expect(calls.find((c) => c.operationName === 'WelcomePagePictureSet')?.variables).toEqual({ site: 'TUSHY' })
  })
})

describe('signup denied', () => {
  it('says the billing processor declined, with the reason, and offers another card', async () => {
    renderAt('/_signupdenial?reason=Insufficient+funds', {}, { siteId: 1, reason: 'Insufficient funds' })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('declined by the billing processor. Please try a different card.')
    expect(screen.getByTestId('signup-denied-reason').textContent).toBe('Reason: Insufficient funds')
    expect(screen.getByRole('link', { name: 'Try a different card' }).getAttribute('href')).toMatch(/\/joinnow\?brand=tushy$/)
  })
})

describe('upgrade membership', () => {
  it('draws the background for the viewport', () => {
    expect(upgradeBackgroundSrc('tushy', { size: 'small', width: 320, height: 770 })).toBe(
      '/media/placeholder/upgrade/tushy-small.svg?w=320&h=770&t=Upgrade',
    )
  })

  it('needs consent, charges the trial upgrade once per page, and goes to the result', async () => {
    const router = renderAt(
      '/_upgrademembership',
      {
        JoinOptions: [joinOptions([])],
        AccountCreationCheck: [welcomeAnswer(true)],
        TrialUpgradeWelcomePage: [
          { data: { internalUpsellTrialUpgradeWelcomePage: { __typename: 'OneclickPurchase', success: true, location: null } } },
        ],
      },
      welcome,
    )
    const buy = await screen.findByRole('button', { name: 'Upgrade now' })
    expect((buy as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('upgrade-background').getAttribute('data-size')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Continue with my trial' }).getAttribute('href')).toBe('/?al_token=al-123'),
    )
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(buy)
    // /_upgradesuccess asks welcomeCheck for the token and goes home with the upgrade flash.
    await waitFor(() => expect(router.state.location.search).toContain('notification=upgradesuccess'))
    expect(services.welcomeCheck).toHaveBeenCalledWith({ site: 'TUSHY', memberId: 'EP-1', hashedMemberId: 'h-1' })
    const bought = calls.find((c) => c.operationName === 'TrialUpgradeWelcomePage')?.variables
    expect(bought).toMatchObject({ memberId: 'EP-1', hashedMemberId: 'h-1', consent: true })
    expect(typeof bought?.idempotencyKey).toBe('string')
  })
})

describe('external signup', () => {
  it('welcomes the member the biller answers for, on the signup-success screen', async () => {
    vi.mocked(services.fetchSignupExtern).mockResolvedValueOnce({
      status: 200,
      body: { data: { memberid: 'SP-7', hashedMemberId: 'h-7', username: 'extern', siteId: 1, isWelcome: true } },
    })
    renderAt('/_signup-extern/SEGPAY', {
      AccountCreationCheck: [welcomeAnswer(true, { memberid: 'SP-7', username: 'extern' })],
      WelcomePagePictureSet: [noPictures],
    })
    expect(await screen.findByRole('link', { name: 'Start watching' })).toBeTruthy()
    expect(screen.getByText('Welcome to tushy, extern! Your membership is ready.')).toBeTruthy()
    expect(calls.find((c) => c.operationName === 'AccountCreationCheck')?.variables).toEqual({
      site: 'tushy',
      memberId: 'SP-7',
      hashedMemberId: 'h-7',
    })
  })

  it('goes to signup denied when the biller’s answer is a 400', async () => {
    vi.mocked(services.fetchSignupExtern).mockResolvedValueOnce({ status: 400, body: null })
    const router = renderAt('/_signup-extern/SEGPAY', {})
    await waitFor(() => expect(router.state.location.pathname).toBe('/_signupdenial'))
  })
})

describe('the join form image test', () => {
  afterEach(() => {
    document.cookie = 'ab_join_form_image=; max-age=0; path=/'
  })

  it('shows no picture while the test is off', async () => {
    renderAt('/joinnow', { JoinOptions: [joinOptions([option(3045)])] })
    await screen.findByText('Option 3045')
    expect(document.querySelector('.join__image')).toBeNull()
    expect(document.cookie).not.toContain('ab_join_form_image')
  })

  it('keeps the visitor’s variant in a cookie and shows its picture when the test is on', async () => {
    document.cookie = 'ab_join_form_image=b; path=/'
    const session = {
      tenant: tenantConfig({ features: { joinFormImageTest: { enabled: true } } }),
      user: userView(),
      isMembersArea: true,
    }
    const router = createMemoryRouter(appRouteObjects(session, services), { initialEntries: ['/joinnow'] })
    render(
      <ApolloProvider client={client({ JoinOptions: [joinOptions([option(3045)])] })}>
        <RouterProvider router={router} />
      </ApolloProvider>,
    )
    await screen.findByText('Option 3045')
    const image = document.querySelector('.join__image')
    expect(image?.getAttribute('data-variant')).toBe('b')
    expect(image?.getAttribute('src')).toBe('/media/placeholder/join/tushy-b.svg?w=800&h=300&t=Join')
  })
})
