// The offers page, the upgrade prompts and the one-click outgoing upsell: each journey signs in through the
// members host as a demo user, asserts what the person sees, and keeps screenshots at 360 px and 1440 px
// (e2e-artifacts/screenshots).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { collectPageErrors, launchBrowser, screenshotAtBothWidths, visitorContext } from './support/browser'
import { brandOrigin, brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

beforeEach(async () => {
  context = await visitorContext(browser)
  page = await context.newPage()
  errors = collectPageErrors(page)
})

afterEach(async () => {
  await context?.close()
  expect(errors.filter((error) => error.startsWith('pageerror'))).toEqual([])
})

const dialog = () => page.getByRole('dialog')
const upgradeBar = () => page.getByTestId('upgrade-bar')
const pornPortalBar = () => page.getByTestId('porn-portal-bar')
const pathname = () => new URL(page.url()).pathname

/** Asks the gateway as the page does (same session, CSRF header); answers the error codes. */
async function graphqlErrorCodes(query: string): Promise<string[]> {
  return page.evaluate(async (body) => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
      body: JSON.stringify({ query: body }),
    })
    const answer = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> }
    return (answer.errors ?? []).map((error) => error.extensions?.code ?? '')
  }, query)
}

/** Expired members get the upgrade modal on every page load (product.md, "Modals and flashes"); closes it when it is there. */
async function closeExpiredUpgradeModal() {
  await page.waitForTimeout(400)
  const title = dialog().locator('.modal__title')
  if ((await title.count()) > 0 && ((await title.textContent()) ?? '').trim() === 'Join now') {
    await dialog().getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => dialog().count(), SETTLE).toBe(0)
  }
}

/**
 * Opens /offers with a full page load. Until the promotional teaser is seen, /offers sends the user on to `next`
 * (product.md, "Screens and routes"); the teaser opened on the sign-in page records it, so the page comes once the profile has it.
 */
async function openOffers() {
  await expect
    .poll(async () => {
      await page.goto(brandUrl(DEMO_BRAND, '/offers'), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(page)
      return pathname()
    }, SETTLE)
    .toBe('/offers')
  await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe('Offers')
}

describe('an expired member', () => {
  it('sees the upgrade and porn-portal bars, the overlay on a video, and the offers page, and continues past it', async () => {
    await signIn(page, 'expired', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    await closeExpiredUpgradeModal()
    await expect.poll(() => upgradeBar().textContent(), SETTLE).toContain('Your membership has expired. Rejoin to watch every video on VIXEN again.')
    await expect.poll(() => pornPortalBar().textContent(), SETTLE).toContain('Miss VIXEN? Come back for every video')
    await screenshotAtBothWidths(page, 'expired-bars')

    // The bar's button opens the purchase modal: an expired member reactivates the brand in one click there.
    await upgradeBar().getByRole('button', { name: 'Rejoin now' }).click()
    await dialog().getByRole('button', { name: 'Reactivate now' }).waitFor()
    expect(await dialog().locator('[data-kind="reactivate"]').count()).toBe(1)
    await dialog().getByRole('button', { name: 'Close' }).click()

    // A video the lapsed membership no longer opens: the overlay over the trailer.
    await page.goto(brandUrl(DEMO_BRAND, '/videos'), { waitUntil: 'networkidle' })
    await closeExpiredUpgradeModal()
    await page.locator('main .video-card a').first().click()
    await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
    await closeExpiredUpgradeModal()
    const overlay = page.getByTestId('upgrade-overlay')
    await expect.poll(() => overlay.textContent(), SETTLE).toContain('Upgrade to watch the full video')
    await screenshotAtBothWidths(page, 'expired-upgrade-overlay')
    await overlay.getByRole('button', { name: 'Rejoin now' }).click()
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Join now')
    await dialog().getByRole('button', { name: 'Close' }).click()

    // The offers page: the grid under the interstitial; an expired member may continue but not hide it for a month.
    await openOffers()
    await closeExpiredUpgradeModal()
    await expect.poll(() => page.getByTestId('offers-grid').getByRole('article').count(), SETTLE).toBeGreaterThan(0)
    expect(await page.getByTestId('offers-grid').getByRole('article').count()).toBeLessThanOrEqual(15)
    const interstitial = page.getByTestId('offers-interstitial')
    expect(await interstitial.getByRole('button', { name: 'Hide for one month' }).count()).toBe(0)
    // Nor does the gateway let them, whatever the page shows.
    expect(await graphqlErrorCodes('mutation { snoozeInterstitial(input: {}) { snoozed } }')).toEqual(['FORBIDDEN'])
    // On the offers page the porn-portal bar is the interstitial's (campaign -int-pp-bar, which the modal's one-click
    // sale carries): it opens the reactivation.
    await pornPortalBar().getByRole('button', { name: 'See your options' }).click()
    await dialog().getByRole('button', { name: 'Reactivate now' }).waitFor()
    await dialog().getByRole('button', { name: 'Close' }).click()
    await screenshotAtBothWidths(page, 'expired-offers')
    await interstitial.getByRole('button', { name: 'Continue to VIXEN' }).click()
    await expect.poll(pathname, SETTLE).toBe('/')
  })
})

describe('a free limited trial', () => {
  it('sees the upgrade bar about its 3 full videos, and no porn-portal bar', async () => {
    await signIn(page, 'freetrial', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    await expect.poll(() => upgradeBar().textContent(), SETTLE).toContain('Your free trial includes 3 full videos.')
    expect(await pornPortalBar().count()).toBe(0)
    await upgradeBar().getByRole('button', { name: 'Upgrade now' }).click()
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Join now')
    await screenshotAtBothWidths(page, 'freetrial-upgrade-bar')
  })
})

describe('a pay-per-video user', () => {
  it('sees the upgrade bar (the porn-portal bar is for expired members) and the special offer on the offers page', async () => {
    await signIn(page, 'ppv', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    await expect.poll(() => upgradeBar().textContent(), SETTLE).toContain('You pay per video. A membership opens every video on VIXEN.')
    expect(await pornPortalBar().count()).toBe(0)
    await openOffers()
    // Porn-portal subscribers get the special offers (product.md, "Deals, offers and upsells"), ranked first here.
    await expect.poll(() => page.getByTestId('offers-grid').getByRole('article').first().getAttribute('aria-label'), SETTLE).toBe(
      'Lumen Video',
    )
    await screenshotAtBothWidths(page, 'ppv-offers')
  })
})

describe('an active member', () => {
  it('has no upgrade prompt, hides the offers interstitial for one month, and it stays hidden', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    expect(await upgradeBar().count()).toBe(0)
    expect(await pornPortalBar().count()).toBe(0)
    await openOffers()
    const interstitial = page.getByTestId('offers-interstitial')
    await interstitial.waitFor()
    expect(await page.getByTestId('offers-grid').getByRole('article', { name: 'Lumen Video' }).count()).toBe(0)
    await screenshotAtBothWidths(page, 'member-offers-interstitial')
    await interstitial.getByRole('button', { name: 'Hide for one month' }).click()
    await expect.poll(() => page.locator('.flashes').textContent(), SETTLE).toMatch(/Offers are hidden until [A-Z][a-z]+ \d{1,2}, \d{4}\./)
    await expect.poll(pathname, SETTLE).toBe('/')
    // A new page load asks the deals service again: still hidden, the grid alone.
    await openOffers()
    await page.getByTestId('offers-grid').waitFor()
    expect(await page.getByTestId('offers-interstitial').count()).toBe(0)
    // And on the way somewhere else, /offers no longer stops the member.
    await page.goto(brandUrl(DEMO_BRAND, '/offers?next=%2Fvideos'), { waitUntil: 'networkidle' })
    await expect.poll(pathname, SETTLE).toBe('/videos')
  })

  it('buys an outgoing one-click upsell after confirming it, and the success page records it', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    const query = new URLSearchParams({
      epoch_upsellid: '4201',
      segpay_upsellid: '4202',
      rg_upsellid: '4203',
      member_link: '/videos',
      gas_cid: `e2e-${Date.now().toString(36)}`,
    })
    await page.goto(brandUrl(DEMO_BRAND, `/oneclick/outgoing-upsell?${query}`), { waitUntil: 'networkidle' })
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Sandbox Cams Premium')
    expect(await dialog().getByTestId('upsell-price').textContent()).toBe('Price: 1.00, then 29.95')
    await screenshotAtBothWidths(page, 'outgoing-upsell-confirmation')
    await dialog().getByRole('button', { name: 'Confirm purchase' }).click()
    // Charged: on to the member link.
    await expect.poll(pathname, SETTLE).toBe('/videos')

    await page.goto(brandUrl(DEMO_BRAND, '/_upsell_signupsuccess'), { waitUntil: 'networkidle' })
    await expect.poll(pathname, SETTLE).toBe('/videos')
    const cookies = await context.cookies(brandOrigin(DEMO_BRAND))
    expect(cookies.find((cookie) => cookie.name === 'outgoing_upsell_oneclick_success')?.value).toBe('%2Fvideos')
  })
})
