// UpgradeToYearlyMembership: offered to a member the subscription service calls upgradeable to the VP
// yearly plan (isUpgradeableToVixenPlusYearly), never to one who is not. The demo user "texas" (an active vixen
// member, browsing here from no particular region) sees the offer on the members host's account page, and buys it
// on vixen's in one click; the server then has the package and offers it no more. A multisite member is not offered
// it. Screenshots at 360 px and 1440 px.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'
import { graphqlFromPage } from './support/server'

let browser: Browser
let page: Page

journeys((opened) => {
  browser = opened.browser
  page = opened.page
})

interface Upgradeable {
  getUserSubscription: { siteAccessArray: string[]; subscription: { upgradeOptions: { isUpgradeableToVixenPlusYearly: boolean } } }
}

async function upgradeable(on: Page): Promise<{ yearly: boolean; sites: string[] }> {
  const answer = await graphqlFromPage<Upgradeable>(
    on,
    '{ getUserSubscription { siteAccessArray subscription { upgradeOptions { isUpgradeableToVixenPlusYearly } } } }',
  )
  if (!answer.data) throw new Error(JSON.stringify(answer.errors))
  return {
    yearly: answer.data.getUserSubscription.subscription.upgradeOptions.isUpgradeableToVixenPlusYearly,
    sites: answer.data.getUserSubscription.siteAccessArray,
  }
}

const offer = (on: Page) => on.locator('main').getByRole('button', { name: 'Upgrade to yearly' })

describe('a member upgradeable to the VP yearly plan', () => {
  it('is offered it on the account page and buys it in one click', async () => {
    await signIn(page, 'texas', 'vixenplus', '/account')
    await dismissWelcomeModals(page)
    expect((await upgradeable(page)).yearly).toBe(true)
    await offer(page).click()
    const modal = page.getByRole('dialog', { name: 'Upgrade to a yearly membership' })
    await modal.getByText(/12 months: /).waitFor()
    await screenshotAtBothWidths(page, 'yearly-offer-members-host')
    await modal.getByRole('button', { name: 'Close' }).click()

    const vixen = await visitorContext(browser)
    const onVixen = await vixen.newPage()
    try {
      await signIn(onVixen, 'texas', DEMO_BRAND, '/account')
      await dismissWelcomeModals(onVixen)
      await offer(onVixen).click()
      const buy = onVixen.getByRole('dialog', { name: 'Upgrade to a yearly membership' })
      const upgrade = buy.getByRole('button', { name: 'Upgrade to yearly' })
      await upgrade.waitFor()
      expect(await upgrade.isDisabled()).toBe(true)
      await buy.getByLabel(/I agree to be charged/).check()
      await screenshotAtBothWidths(onVixen, `yearly-offer-${DEMO_BRAND}`)
      await Promise.all([onVixen.waitForURL(/[?&]fatr=true/, { timeout: 30_000 }), upgrade.click()])
      await onVixen.waitForLoadState('networkidle')
      // The package arrives by events: the subscription service then has vixenplus, and no more offer.
      await expect
        .poll(async () => upgradeable(onVixen), { timeout: 30_000, interval: 1_000 })
        .toEqual(expect.objectContaining({ yearly: false, sites: expect.arrayContaining(['vixenplus']) }))
      await onVixen.goto(brandUrl(DEMO_BRAND, '/account'), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(onVixen)
      await onVixen.locator('main h1').first().waitFor()
      expect(await offer(onVixen).count()).toBe(0)
      await screenshotAtBothWidths(onVixen, 'yearly-bought')
    } finally {
      await vixen.close()
    }
  })

  it('is not offered to a pay-per-video member', async () => {
    await signIn(page, 'ppv', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe('Account')
    expect((await upgradeable(page)).yearly).toBe(false)
    expect(await offer(page).count()).toBe(0)
  })
})
