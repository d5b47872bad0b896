// Signing in as a demo user (README: `<name>@paysite.test`, password Demo12345) through the members host's login
// form, as a person would, and clearing the modals a page load opens by itself (the promotional teaser, the gems
// intro) when a journey is about something else.
import type { BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import { brandOrigin, brandUrl } from './gateway'

export const DEMO_PASSWORD = 'Demo12345'

/** Where the demo users' memberships are: every demo membership is on vixen. */
export const DEMO_BRAND = 'vixen'

export const SETTLE = { timeout: 15_000, interval: 100 }

/** Signs in on the members host and lands on `path` of `brand`, signed in there. */
export async function signIn(page: Page, login: string, brand = DEMO_BRAND, path = '/', password = DEMO_PASSWORD): Promise<void> {
  const target = brandUrl(brand, path)
  await page.goto(`${brandOrigin('members')}/oidc/login?uri=${encodeURIComponent(target)}`)
  await page.locator('#username').fill(login)
  await page.locator('#password').fill(password)
  await Promise.all([
    // Past the brand's /oidc/callback, which sets the session cookies and redirects on.
    page.waitForURL((url) => url.origin === brandOrigin(brand) && !url.pathname.startsWith('/oidc/'), { timeout: 20_000 }),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ])
  await page.waitForLoadState('networkidle')
  await page.locator('main h1').first().waitFor()
  // Signed in: the header offers the account menu, not the login link (behind a modal the page opened, if any).
  await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached' })
}

const DISMISS: Readonly<Record<string, string>> = {
  'Something new for you': 'Maybe later',
  'Your gems': 'Got it',
  // The e-mail consent prompt of guests and tandem users (not of the demo users: their domain is an internal one).
  'E-mail preferences': 'No, thanks',
}

/** Closes the teaser, the gems intro and the e-mail consent prompt if the page opened them; leaves any other modal. */
export async function dismissWelcomeModals(page: Page): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await page.waitForTimeout(400)
    const dialog = page.getByRole('dialog')
    if ((await dialog.count()) === 0) return
    const title = ((await dialog.locator('.modal__title').textContent()) ?? '').trim()
    const button = DISMISS[title]
    if (!button) return
    await dialog.getByRole('button', { name: button }).click()
    await expect.poll(() => page.getByRole('dialog').locator('.modal__title', { hasText: title }).count(), SETTLE).toBe(0)
  }
}

/** A new context whose requests say the visitor is in `region` (the edge's geo header). */
export async function contextInRegion(context: BrowserContext, region: string): Promise<void> {
  await context.setExtraHTTPHeaders({ 'x-paysite-region': region })
}
