// Sign-in, session and sign-out journeys: a sign-in comes back to the brand, path and query it started
// from; a page load after the access token lapsed is signed in from its first paint; "Sign out" and "Sign out
// everywhere" end the sessions, and the header says so at once. Each journey asserts what the person sees and the
// server's state behind it (cookies, /api/refresh, GraphQL). Screenshots in e2e-artifacts/screenshots.
import type { BrowserContext, Cookie, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { DEMO_PASSWORD, dismissWelcomeModals, SETTLE, signIn } from './support/members'

let context: BrowserContext
let page: Page

journeys((opened) => {
  ;({ context, page } = opened)
})

const header = () => page.locator('header.site-header')
const accountMenu = () => header().locator('button', { hasText: 'My account' })
const loginLink = () => header().getByRole('link', { name: 'Log in' })

/** The e-mail GraphQL answers for the session of this page's cookies, or null when it answers for nobody. */
async function signedInEmail(): Promise<string | null> {
  return page.evaluate(async () => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
      body: JSON.stringify({ query: '{ findOneUserProfile { email } }' }),
    })
    const body = (await response.json()) as { data?: { findOneUserProfile?: { email: string } | null } }
    return body.data?.findOneUserProfile?.email ?? null
  })
}

/** `GET /api/refresh` from the page, with whatever cookies the browser holds: its status. */
async function refreshStatus(): Promise<number> {
  return page.evaluate(async () => (await fetch('/api/refresh')).status)
}

async function cookiesOf(brand: string): Promise<Cookie[]> {
  return context.cookies(brandOrigin(brand))
}

const named = (cookies: Cookie[], name: string) => cookies.find((c) => c.name === name)

/** Signs in through the members login page the brand's "Log in" link opened. */
async function fillLogin(login: string, returnOrigin: string): Promise<void> {
  await page.locator('#username').fill(login)
  await page.locator('#password').fill(DEMO_PASSWORD)
  await Promise.all([
    page.waitForURL((url) => url.origin === returnOrigin && !url.pathname.startsWith('/oidc/'), { timeout: 20_000 }),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ])
  await page.waitForLoadState('networkidle')
}

describe('signing in from a brand page', () => {
  it.each([
    // A brand host, and the shared members host (which serves its default brand, vixenplus).
    { start: 'vixen', path: '/videos?page=2&order=latest', returnTo: 'vixen' },
    { start: 'members', path: '/videos?page=2', returnTo: 'vixenplus' },
  ])('from $start$path comes back to $returnTo, same path and query, signed in', async ({ start, path, returnTo }) => {
    await page.goto(brandUrl(start, path), { waitUntil: 'networkidle' })
    await loginLink().waitFor()
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin('members') && url.pathname === '/oidc/login'),
      loginLink().click(),
    ])
    // The return target is the brand's absolute URL, never a bare path the members host would give its own brand.
    expect(new URL(page.url()).searchParams.get('uri')).toBe(brandUrl(returnTo, path))
    await screenshotAtBothWidths(page, `sign-in-from-${start}`)
    await fillLogin('admin', brandOrigin(returnTo))
    const landed = new URL(page.url())
    expect(landed.origin + landed.pathname + landed.search).toBe(brandUrl(returnTo, path))
    await dismissWelcomeModals(page)
    await accountMenu().waitFor()
    expect(await loginLink().count()).toBe(0)
    expect(await signedInEmail()).toBe('admin@paysite.test')
    expect(named(await cookiesOf(returnTo), 'paysite_rt')).toBeDefined()
    await screenshotAtBothWidths(page, `signed-in-back-on-${returnTo}`)
  })

  it('refuses a return target that is not a brand host (no open redirect)', async () => {
    for (const uri of ['https://evil.example/steal', '//evil.example/', `${brandOrigin('vixen')}.evil.example/`]) {
      const response = await page.goto(`${brandOrigin('members')}/oidc/login?uri=${encodeURIComponent(uri)}`)
      expect(response?.status()).toBe(400)
      await page.getByText('This sign-in link is not valid.').waitFor()
      // The form left on the page returns to the members host's own brand, never to the link's target.
      const target = await page.locator('input[name="uri"]').inputValue()
      expect(target).not.toContain('evil')
    }
    await screenshotAtBothWidths(page, 'sign-in-open-redirect-refused')
  })
})

describe('a returning member whose access token lapsed', () => {
  it.each(['vixen', 'tushy'])('on %s is signed in from the first paint, the session renewed at the edge', async (brand) => {
    await signIn(page, 'moderator', brand, '/')
    await dismissWelcomeModals(page)
    const before = await cookiesOf(brand)
    const oldRefresh = named(before, 'paysite_rt')!
    expect(named(before, 'paysite_at')).toBeDefined()
    // The browser drops the access cookie at its Max-Age; the 30-day refresh cookie stays.
    await context.clearCookies({ name: 'paysite_at' })
    expect(named(await cookiesOf(brand), 'paysite_at')).toBeUndefined()

    // Watch the header from the document's first node: a "Log in" link must never be drawn.
    await page.addInitScript(() => {
      const seen = { login: false }
      ;(window as unknown as { __loginSeen: typeof seen }).__loginSeen = seen
      new MutationObserver(() => {
        for (const link of document.querySelectorAll('header a')) if (link.textContent === 'Log in') seen.login = true
      }).observe(document, { childList: true, subtree: true })
    })
    const refreshes: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/refresh') refreshes.push(request.url())
    })
    const response = await page.goto(brandUrl(brand, '/videos?page=2'), { waitUntil: 'networkidle' })
    expect(response?.status()).toBe(200)
    // The page came with the signed-in user in its bootstrap and with the renewed cookies.
    expect(await response?.text()).toContain('"isAuthenticated":true')
    await dismissWelcomeModals(page)
    await accountMenu().waitFor()
    expect(await page.evaluate(() => (window as unknown as { __loginSeen: { login: boolean } }).__loginSeen.login)).toBe(false)
    expect(refreshes).toEqual([])
    const after = await cookiesOf(brand)
    expect(named(after, 'paysite_at')?.value).toBeTruthy()
    expect(named(after, 'paysite_rt')?.value).not.toBe(oldRefresh.value)
    expect(await signedInEmail()).toBe('moderator@paysite.test')
    await screenshotAtBothWidths(page, `session-renewed-at-the-edge-${brand}`)
  })
})

describe('signing out', () => {
  it('from the account menu ends this brand session, and the header says "Log in" at once', async () => {
    await signIn(page, 'cancelled', 'tushy', '/videos')
    await dismissWelcomeModals(page)
    const oldRefresh = named(await cookiesOf('tushy'), 'paysite_rt')!
    await accountMenu().click()
    const signOut = header().getByRole('button', { name: 'Sign out', exact: true })
    await signOut.waitFor()
    expect(await header().getByRole('button', { name: 'Sign out everywhere' }).count()).toBe(1)
    await screenshotAtBothWidths(page, 'sign-out-account-menu')
    if (!(await signOut.isVisible())) await accountMenu().click()
    await signOut.click()
    await page.waitForURL((url) => url.origin === brandOrigin('tushy') && url.pathname === '/')
    await page.waitForLoadState('networkidle')
    await loginLink().waitFor()
    expect(await accountMenu().count()).toBe(0)
    expect(await signedInEmail()).toBeNull()
    expect(named(await cookiesOf('tushy'), 'paysite_rt')).toBeUndefined()
    // The ended session's refresh cookie, put back, renews nothing.
    await context.addCookies([oldRefresh])
    expect(await refreshStatus()).toBe(401)
    await screenshotAtBothWidths(page, 'signed-out')
  })

  it('everywhere from /account ends the sessions on the other brands too', async () => {
    await signIn(page, 'expired', 'tushy', '/')
    await signIn(page, 'expired', 'vixen', '/account')
    await dismissWelcomeModals(page)
    await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe('Account')
    // An expired member is offered to rejoin in a modal first: they close it, as a person would.
    const offer = page.getByRole('dialog')
    await offer.waitFor({ timeout: 5_000 }).catch(() => undefined)
    if ((await offer.count()) > 0) await offer.locator('.modal__close').click()
    await expect.poll(() => offer.count(), SETTLE).toBe(0)
    const main = page.locator('main')
    await main.getByRole('button', { name: 'Sign out', exact: true }).waitFor()
    await screenshotAtBothWidths(page, 'sign-out-account-page')
    await main.getByRole('button', { name: 'Sign out everywhere' }).click()
    await page.waitForURL((url) => url.origin === brandOrigin('vixen') && url.pathname === '/')
    await loginLink().waitFor()
    expect(await signedInEmail()).toBeNull()
    // tushy's cookies are still in the browser, but their session is over: the page there is a visitor's.
    expect(named(await cookiesOf('tushy'), 'paysite_rt')).toBeDefined()
    // The revocation reaches every gateway through the broker, within moments.
    await expect
      .poll(async () => {
        await page.goto(brandUrl('tushy', '/'), { waitUntil: 'networkidle' })
        return loginLink().count()
      }, SETTLE)
      .toBe(1)
    expect(await accountMenu().count()).toBe(0)
    expect(await signedInEmail()).toBeNull()
    expect(named(await cookiesOf('tushy'), 'paysite_rt')).toBeUndefined()
    await screenshotAtBothWidths(page, 'signed-out-everywhere-tushy')
  })
})
