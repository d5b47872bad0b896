// Consent before sharing: /cams asks CamsConsent before anything goes to the cams partner, and the
// e-mail consent prompt opens by itself for the users the profile service asks (a tandem user here, with the tandem
// text), never for an internal test domain. Each journey runs on a brand and on vixenplus through the shared members host, and reads
// the server's answer behind what the person saw. Screenshots at 360 px and 1440 px.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'
import { graphqlFromPage, postFromPage } from './support/server'

let browser: Browser
let page: Page

journeys((opened) => {
  browser = opened.browser
  page = opened.page
})

const CAMS_CALL = '/api/payments/v1/outgoing-upsells-oneclick/cams'
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`

interface Consents {
  findOneUserProfile: { email: string; hasEmailConsent: boolean; gdpr: { shouldRequestCamsConsent: boolean; shouldRequestEmailConsent: boolean } }
}

async function consents(on: Page): Promise<Consents['findOneUserProfile']> {
  const answer = await graphqlFromPage<Consents>(
    on,
    '{ findOneUserProfile { email hasEmailConsent gdpr { shouldRequestCamsConsent shouldRequestEmailConsent } } }',
  )
  if (!answer.data) throw new Error(JSON.stringify(answer.errors))
  return answer.data.findOneUserProfile
}

/** From the footer's cams link: the consent first; nothing is sent until the member agrees; then the partner. */
async function camsWithConsent(brand: string, login: string, tenant: string) {
  await signIn(page, login, brand, '/')
  await dismissWelcomeModals(page)
  expect((await consents(page)).gdpr.shouldRequestCamsConsent).toBe(true)
  await page.locator('footer').getByRole('link', { name: 'Live cams' }).click()
  const consent = page.getByRole('dialog', { name: 'Cams' })
  await consent.getByText(/we share your e-mail address with them/).waitFor()
  await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe('Cams')
  expect(new URL(page.url()).pathname).toBe('/cams')
  // The server refuses the partner call until the consent is recorded, whoever asks.
  const early = await postFromPage(page, CAMS_CALL, { gas_cid: 'e2e' })
  expect(early.status).toBe(403)
  expect(early.body).toMatchObject({ code: 'CAMS_CONSENT_REQUIRED' })
  await screenshotAtBothWidths(page, `cams-consent-${brand}`)
  // Not now: the page says nothing was shared and offers to go on.
  await consent.getByRole('button', { name: 'Not now' }).click()
  await expect.poll(() => page.getByRole('dialog').count(), SETTLE).toBe(0)
  await page.getByText('We have not shared anything with them').waitFor()
  await page.getByRole('button', { name: 'Continue to cams' }).click()
  await Promise.all([
    page.waitForURL((url) => url.pathname.endsWith('/partners/cams'), { timeout: 20_000 }),
    page.getByRole('dialog', { name: 'Cams' }).getByRole('button', { name: 'Agree and continue' }).click(),
  ])
  const partner = new URL(page.url())
  expect(partner.searchParams.get('email')).toBe(`${login}@paysite.test`)
  expect(partner.searchParams.get('site')).toBe(tenant)
  await page.getByText(`One-click join for ${login}@paysite.test from ${tenant}`).waitFor()
  await screenshotAtBothWidths(page, `cams-partner-${brand}`)
  // Recorded: the next visit to /cams goes straight on.
  await page.goto(`${brandOrigin(brand)}/`, { waitUntil: 'networkidle' })
  expect((await consents(page)).gdpr.shouldRequestCamsConsent).toBe(false)
  await Promise.all([
    page.waitForURL((url) => url.pathname.endsWith('/partners/cams'), { timeout: 20_000 }),
    page.goto(`${brandOrigin(brand)}/cams`),
  ])
}

describe('a member going to cams', () => {
  it(`agrees to share their e-mail first, on ${DEMO_BRAND}`, async () => {
    await camsWithConsent(DEMO_BRAND, 'moderator', DEMO_BRAND)
  })

  it('agrees to share their e-mail first, on vixenplus through the shared members host', async () => {
    await camsWithConsent('vixenplus', 'multisite', 'vixenplus')
  })
})

describe('a tandem user', () => {
  it('is asked for e-mail consent with the tandem text on every host until they answer; the parent on a test domain is not', async () => {
    // The parent: an internal test domain, never prompted, even as a tandem parent.
    await signIn(page, 'newcomer@paysite.test', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    await page.getByRole('button', { name: 'Create a second account' }).click()
    const email = `consent-${stamp()}@example.com`
    const password = 'Child12345'
    await page.getByRole('dialog').getByLabel('Their e-mail').fill(email)
    await page.getByRole('dialog').getByLabel('Their password').fill(password)
    await page.getByRole('dialog').getByRole('button', { name: 'Create account' }).click()
    await expect.poll(() => page.getByRole('dialog').count(), SETTLE).toBe(0)
    await page.reload({ waitUntil: 'networkidle' })
    await page.waitForTimeout(600)
    expect(await page.getByRole('dialog', { name: 'E-mail preferences' }).count()).toBe(0)
    expect((await consents(page)).gdpr.shouldRequestEmailConsent).toBe(false)

    // The child on the members host: the prompt opens by itself, with the tandem text.
    const members = await visitorContext(browser)
    const child = await members.newPage()
    try {
      await signIn(child, email, 'vixenplus', '/', password)
      const prompt = child.getByRole('dialog', { name: 'E-mail preferences' })
      await prompt.waitFor()
      await prompt
        .getByText('I confirm that I am 18 years of age or older and I agree to the Terms of Service and the Privacy Policy.')
        .waitFor()
      expect(await prompt.getByText(/marketing/).count()).toBe(0)
      expect((await consents(child)).gdpr.shouldRequestEmailConsent).toBe(true)
      await screenshotAtBothWidths(child, 'email-consent-tandem-members-host')
      // Closed without an answer, it asks again on the next page load.
      await prompt.getByRole('button', { name: 'Close' }).click()
      await expect.poll(() => child.getByRole('dialog').count(), SETTLE).toBe(0)
      await child.reload({ waitUntil: 'networkidle' })
      await child.getByRole('dialog', { name: 'E-mail preferences' }).waitFor()
    } finally {
      await members.close()
    }

    // On the brand: the same prompt; "I agree" records the answer and the prompt is done everywhere.
    const brand = await visitorContext(browser)
    const onBrand = await brand.newPage()
    try {
      await signIn(onBrand, email, DEMO_BRAND, '/', password)
      const prompt = onBrand.getByRole('dialog', { name: 'E-mail preferences' })
      await prompt.waitFor()
      await screenshotAtBothWidths(onBrand, `email-consent-tandem-${DEMO_BRAND}`)
      await prompt.getByRole('button', { name: 'I agree' }).click()
      await expect.poll(() => onBrand.getByRole('dialog', { name: 'E-mail preferences' }).count(), SETTLE).toBe(0)
      const after = await consents(onBrand)
      expect(after.hasEmailConsent).toBe(true)
      expect(after.gdpr.shouldRequestEmailConsent).toBe(false)
      await onBrand.reload({ waitUntil: 'networkidle' })
      await onBrand.waitForTimeout(600)
      expect(await onBrand.getByRole('dialog', { name: 'E-mail preferences' }).count()).toBe(0)
      await screenshotAtBothWidths(onBrand, `email-consent-answered-${DEMO_BRAND}`)
    } finally {
      await brand.close()
    }
  })
})

describe('a porn-portal guest', () => {
  it('is asked for e-mail consent with the marketing text, on the brand and on the members host, until they agree', async () => {
    const guestText =
      'I confirm that I am 18 years of age or older, I agree to the Terms of Service and the Privacy Policy, and I agree to receive marketing e-mails.'
    // The seeded guest (guest@guests.example.com: not an internal test domain). The prompt opens by itself on a
    // brand; closed without an answer, nothing is recorded.
    await signIn(page, 'guest', DEMO_BRAND, '/')
    const prompt = page.getByRole('dialog', { name: 'E-mail preferences' })
    await prompt.waitFor()
    await prompt.getByText(guestText).waitFor()
    const before = await consents(page)
    expect(before.gdpr.shouldRequestEmailConsent).toBe(true)
    expect(before.hasEmailConsent).toBe(false)
    await screenshotAtBothWidths(page, `email-consent-guest-${DEMO_BRAND}`)
    await prompt.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => page.getByRole('dialog').count(), SETTLE).toBe(0)
    expect((await consents(page)).gdpr.shouldRequestEmailConsent).toBe(true)

    // On vixenplus, signed in through the shared members host: asked again; "I agree" records it, and it is done everywhere.
    const members = await visitorContext(browser)
    const there = await members.newPage()
    try {
      await signIn(there, 'guest', 'vixenplus', '/')
      const again = there.getByRole('dialog', { name: 'E-mail preferences' })
      await again.waitFor()
      await again.getByText(guestText).waitFor()
      await screenshotAtBothWidths(there, 'email-consent-guest-members-host')
      await again.getByRole('button', { name: 'I agree' }).click()
      await expect.poll(() => there.getByRole('dialog', { name: 'E-mail preferences' }).count(), SETTLE).toBe(0)
      const after = await consents(there)
      expect(after.hasEmailConsent).toBe(true)
      expect(after.gdpr.shouldRequestEmailConsent).toBe(false)
    } finally {
      await members.close()
    }
    await page.reload({ waitUntil: 'networkidle' })
    await page.waitForTimeout(600)
    expect(await page.getByRole('dialog', { name: 'E-mail preferences' }).count()).toBe(0)
  })
})
