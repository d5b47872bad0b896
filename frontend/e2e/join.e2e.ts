// A visitor joins through the biller sandbox and becomes a member (product.md, "Sign-up and join"): the brand's
// "Join now" leads to the members host's join form, the form takes the visitor to the biller's payment page, the
// biller's approval brings the browser back to the signup-success page, which waits for the account (welcomeCheck)
// and signs the new member in with the autologin token. A trial joiner goes on to the upgrade membership page and
// upgrades there; a declined multisite signup goes to offers. Screenshots in e2e-artifacts/screenshots.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { dismissWelcomeModals, SETTLE } from './support/members'

// The shared local members host serves the brand the join started on (tushy's "Join now" says so): the joins here
// are tushy joins, and the new member comes back to tushy.
const JOINED_BRAND = 'tushy'

let page: Page
let browser: Browser

journeys((opened) => {
  page = opened.page
  browser = opened.browser
})

const heading = () => page.locator('main h1').first()
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

/** From tushy's header to the join form, filled in with `option` chosen, then on to the biller's payment page. */
async function joinUpToPayment(option: string, email: string, username: string): Promise<void> {
  await joinUpToPaymentOn(page, option, email, username)
}

async function joinUpToPaymentOn(page: Page, option: string, email: string, username: string): Promise<void> {
  await page.goto(brandUrl('tushy', '/'), { waitUntil: 'networkidle' })
  // The click sends the analytics leave event (the gateway answers 204) before the browser goes.
  const [leave] = await Promise.all([
    page.waitForResponse(
      (r) => r.url().endsWith('/api/analytics/events') && r.request().postDataJSON()?.event === 'leave',
    ),
    page.waitForURL((url) => url.origin === brandOrigin('members') && url.pathname === '/joinnow'),
    page.locator('header a', { hasText: 'Join now' }).click(),
  ])
  expect(leave.status()).toBe(204)
  expect(leave.request().postDataJSON()).toMatchObject({ event: 'leave', to: 'join', ref: 'home', elm: 'header' })
  expect(new URL(page.url()).searchParams.get('ref')).toBe('home')
  expect(new URL(page.url()).searchParams.get('brand')).toBe(JOINED_BRAND)
  // This page's heading (the module's `heading` reads the first visitor's page).
  await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe(`Join ${JOINED_BRAND.toUpperCase()}`)
  await page.getByLabel(option, { exact: false }).first().check()
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill('Secret12345')
  await screenshotAtBothWidths(page, 'join-form')
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 20_000 }),
    page.getByRole('button', { name: 'Continue to payment' }).click(),
  ])
}

describe('a visitor joining', () => {
  it('is told the server’s rule when the form is wrong, and loses nothing', async () => {
    await page.goto(`${brandOrigin('members')}/joinnow?ref=home&elm=header`, { waitUntil: 'networkidle' })
    await page.getByLabel('E-mail').fill('not-an-email')
    await page.getByLabel('Username').fill('someone')
    await page.getByLabel('Password').fill('Secret12345')
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect.poll(() => page.getByRole('alert').textContent(), SETTLE).toContain('nvalid email')
    expect(await page.getByLabel('Username').inputValue()).toBe('someone')
    expect(new URL(page.url()).pathname).toBe('/joinnow')
  })

  it('is told a username is already taken before leaving for the biller', async () => {
    await page.goto(`${brandOrigin('members')}/joinnow?ref=home&elm=header`, { waitUntil: 'networkidle' })
    // The demo member's username, with an e-mail nobody has.
    await page.getByLabel('E-mail').fill(`taken-${unique()}@example.com`)
    await page.getByLabel('Username').fill('member')
    await page.getByLabel('Password').fill('Secret12345')
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect.poll(() => page.getByRole('alert').textContent(), SETTLE).toContain('already taken')
    expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(`${brandOrigin('members')}/joinnow`)
    await screenshotAtBothWidths(page, 'join-username-taken')
  })

  it('pays at the biller sandbox, waits for the account, and is signed in as a member', async () => {
    const id = unique()
    await joinUpToPayment('1 month', `joiner-${id}@example.com`, `joiner${id}`)
    await screenshotAtBothWidths(page, 'join-biller-payment-page')
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin(JOINED_BRAND) && url.pathname === '/_signupsuccess', {
        timeout: 20_000,
      }),
      page.getByRole('button', { name: 'Approve' }).click(),
    ])
    const start = page.getByRole('link', { name: 'Start watching' })
    await start.waitFor({ timeout: 30_000 })
    expect(await page.locator('main').textContent()).toContain(`joiner${id}`)
    // The welcome page signs the new member in as soon as the account exists: its header says so, and
    // the session is the browser's (the cookies), not only the page's.
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached', timeout: 20_000 })
    expect(await page.locator('header a', { hasText: 'Log in' }).count()).toBe(0)
    expect(await page.locator('header a', { hasText: 'Join now' }).count()).toBe(0)
    expect((await page.context().cookies(brandOrigin(JOINED_BRAND))).some((c) => c.name === 'paysite_rt')).toBe(true)
    expect(await start.getAttribute('href')).toBe('/')
    await screenshotAtBothWidths(page, 'join-welcome')
    await dismissWelcomeModals(page)
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin(JOINED_BRAND) && url.pathname === '/' && !url.search.includes('al_token')),
      start.click(),
    ])
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached', timeout: 20_000 })
    const membership = await page.evaluate(async () => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({ query: '{ getUserSubscription { subscription { type active } } }' }),
      })
      return (await response.json()) as { data?: { getUserSubscription?: { subscription: { type: string; active: boolean } } } }
    })
    expect(membership.data?.getUserSubscription?.subscription).toEqual({ type: 'member', active: true })
    await screenshotAtBothWidths(page, 'join-signed-in-member')
  })

  it('keeps the payment when the username is taken meanwhile, and chooses another, signed in', async () => {
    const id = unique()
    const username = `racer${id}`
    await joinUpToPayment('1 month', `racer-a-${id}@example.com`, username)
    // Another visitor, in another browser, passed the same check with the same username and pays first.
    const other = await visitorContext(browser)
    try {
      const otherPage = await other.newPage()
      await joinUpToPaymentOn(otherPage, '1 month', `racer-b-${id}@example.com`, username)
      await Promise.all([
        otherPage.waitForURL((url) => url.pathname === '/_signupsuccess', { timeout: 20_000 }),
        otherPage.getByRole('button', { name: 'Approve' }).click(),
      ])
    } finally {
      await other.close()
    }
    // The first visitor approves: the biller's page hands the browser back to ours (no raw JSON), and our page says
    // what happened. The membership is active and the visitor is signed in.
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin(JOINED_BRAND) && url.pathname === '/_signupsuccess', {
        timeout: 20_000,
      }),
      page.getByRole('button', { name: 'Approve' }).click(),
    ])
    const lost = page.getByTestId('username-lost')
    await expect.poll(() => lost.textContent(), { timeout: 30_000 }).toContain(username)
    expect(await lost.textContent()).toContain('membership is active')
    const choose = page.getByRole('link', { name: 'Choose your username' })
    await choose.waitFor({ timeout: 20_000 })
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached', timeout: 20_000 })
    await screenshotAtBothWidths(page, 'join-username-lost')
    await Promise.all([page.waitForURL((url) => url.pathname === '/account/username'), choose.click()])
    // A new member's first automatic modal (the gems intro) opens here, as on any member page; close it.
    await dismissWelcomeModals(page)
    await expect.poll(() => page.getByTestId('username-taken-notice').textContent(), SETTLE).toContain(username)
    // The same taken name is still refused; another one is kept, and the member goes on to the account, signed in.
    await page.getByLabel('Username').fill(username)
    await page.getByRole('button', { name: 'Choose this username' }).click()
    await expect.poll(() => page.getByRole('alert').textContent(), SETTLE).toContain('already taken')
    await screenshotAtBothWidths(page, 'join-username-lost-choose')
    const chosen = `${username}b`
    await page.getByLabel('Username').fill(chosen)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account', { timeout: 20_000 }),
      page.getByRole('button', { name: 'Choose this username' }).click(),
    ])
    const account = await page.evaluate(async () => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({
          query: '{ findOneUserProfile { username email } getUserSubscription { subscription { type active } } }',
        }),
      })
      return (await response.json()) as {
        data?: {
          findOneUserProfile?: { username: string | null; email: string }
          getUserSubscription?: { subscription: { type: string; active: boolean } }
        }
      }
    })
    expect(account.data?.findOneUserProfile).toEqual({ username: chosen, email: `racer-a-${id}@example.com` })
    expect(account.data?.getUserSubscription?.subscription).toEqual({ type: 'member', active: true })
  })

  it('as a trial, goes on to the upgrade membership page and upgrades there', async () => {
    const id = unique()
    await joinUpToPayment('2-day trial', `trial-${id}@example.com`, `trial${id}`)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_upgrademembership', { timeout: 40_000 }),
      page.getByRole('button', { name: 'Approve' }).click(),
    ])
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Upgrade Membership')
    const background = await page.getByTestId('upgrade-background').evaluate((el) => getComputedStyle(el).backgroundImage)
    expect(background).toMatch(/\/media\/placeholder\/upgrade\/tushy-large\.svg\?w=1400&h=1024/)
    await screenshotAtBothWidths(page, 'join-trial-upgrade-membership')
    const upgrade = page.getByRole('button', { name: 'Upgrade now' })
    expect(await upgrade.isDisabled()).toBe(true)
    await page.getByRole('checkbox').check()
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('notification') === 'upgradesuccess', {
        timeout: 30_000,
      }),
      upgrade.click(),
    ])
    await expect.poll(() => page.getByText('Your membership has been upgraded.').count(), SETTLE).toBeGreaterThan(0)
  })

  it('declined with a reason, reads the denial and the reason, and can try another card', async () => {
    const id = unique()
    // Straight to the shared members host, naming no brand: its default brand's join (vixenplus).
    await page.goto(`${brandOrigin('members')}/joinnow?ref=home&elm=header`, { waitUntil: 'networkidle' })
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Join VIXENPLUS')
    await page.getByLabel('1 month', { exact: false }).first().check()
    await page.getByLabel('E-mail').fill(`declined-${id}@example.com`)
    await page.getByLabel('Username').fill(`declined${id}`)
    await page.getByLabel('Password').fill('Secret12345')
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 20_000 }),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ])
    await page.locator('input[name="reason"]').fill('Card expired')
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_signupdenial', { timeout: 20_000 }),
      page.getByRole('button', { name: 'Decline with reason' }).click(),
    ])
    // vixenplus's site id counts as multisite, but offers is for a signed-in member: a declined visitor reads the
    // denial (docs/decisions/).
    expect(new URL(page.url()).origin).toBe(brandOrigin('vixenplus'))
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Signup Denied')
    const denial = page.getByRole('alert')
    await expect
      .poll(() => denial.textContent(), SETTLE)
      .toContain('Your payment was declined by the billing processor. Please try a different card.')
    expect(await page.getByTestId('signup-denied-reason').textContent()).toBe('Reason: Card expired')
    await screenshotAtBothWidths(page, 'join-declined-denial')
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin('members') && url.pathname === '/joinnow'),
      page.getByRole('link', { name: 'Try a different card' }).click(),
    ])
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Join VIXENPLUS')
  })

  it('from a brand, joins that brand on the shared members host, also on the next page of the visit', async () => {
    await page.goto(brandUrl('wifey', '/'), { waitUntil: 'networkidle' })
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin('members') && url.pathname === '/joinnow'),
      page.locator('header a', { hasText: 'Join now' }).click(),
    ])
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Join WIFEY')
    // The options on offer are wifey's (its single-site options), and a reload without the link's brand keeps it.
    await page.goto(`${brandOrigin('members')}/joinnow`, { waitUntil: 'networkidle' })
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Join WIFEY')
    const session = await page.evaluate(async () => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({ query: '{ tenantConfig }' }),
      })
      return (await response.json()) as { data?: { tenantConfig?: { tenant: string } } }
    })
    expect(session.data?.tenantConfig?.tenant).toBe('wifey')
    await screenshotAtBothWidths(page, 'join-members-host-wifey')
  })
})
