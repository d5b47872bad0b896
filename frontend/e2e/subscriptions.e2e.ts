// Subscription journeys: a trial upgrades in one click and the status polling brings the membership in; a
// cancelled member (native biller) reactivates on the retention offer; an expired member reactivates their brand in
// one click (single site). Screenshots at 360 px and 1440 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths } from './support/browser'
import { journeys } from './support/journey'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'

let page: Page

journeys((opened) => {
  page = opened.page
})

const membership = () => page.locator('main dl.account-facts dd').nth(2)

/** The account page again until what it says about the membership holds (the change travels by events). */
async function reloadUntil(predicate: (text: string) => boolean) {
  await expect
    .poll(
      async () => {
        await page.reload({ waitUntil: 'networkidle' })
        await dismissWelcomeModals(page)
        return predicate(((await membership().textContent()) ?? '').trim())
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBe(true)
}

describe('a trial member', () => {
  it('upgrades in one click and becomes a member', async () => {
    await signIn(page, 'trial', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    expect((await membership().textContent())?.trim()).toBe('trial')
    await page.getByRole('button', { name: 'Upgrade my membership' }).click()
    const purchase = page.getByRole('dialog')
    await purchase.getByText(/Upgrade your trial to a full membership/).waitFor()
    const buy = purchase.getByRole('button', { name: 'Upgrade now' })
    expect(await buy.isDisabled()).toBe(true)
    await purchase.getByLabel(/I agree to be charged/).check()
    await screenshotAtBothWidths(page, 'trial-upgrade-modal')
    await buy.click()
    // The status modal polls the membership, then reloads the page with fatr=true.
    await page.waitForURL(/[?&]fatr=true/, { timeout: 30_000 })
    await page.waitForLoadState('networkidle')
    await reloadUntil((text) => text === 'member')
    await screenshotAtBothWidths(page, 'trial-upgraded')
  })
})

describe('a cancelled member', () => {
  it('reactivates the cancelled rebill on the retention offer', async () => {
    await signIn(page, 'cancelled', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    expect((await membership().textContent())?.trim()).toContain('(cancelled)')
    // The account page's button (the upgrade bar offers the same modal).
    await page.locator('#content').getByRole('button', { name: 'Reactivate my membership' }).click()
    const modal = page.getByRole('dialog', { name: 'Reactivate your membership' })
    const offer = modal.getByTestId('retention-offer')
    await offer.waitFor()
    expect(await offer.textContent()).toMatch(/^Stay (for .+ instead of .+|and get \d+ gems)\.$/)
    await screenshotAtBothWidths(page, 'cancelled-retention-offer')
    await modal.getByRole('button', { name: 'Reactivate my membership' }).click()
    await expect.poll(() => modal.getByRole('status').textContent(), SETTLE).toBe('Your membership is active again.')
    await screenshotAtBothWidths(page, 'cancelled-reactivated')
    await reloadUntil((text) => !text.includes('(cancelled)'))
    expect(await page.locator('#content').getByRole('button', { name: 'Reactivate my membership' }).count()).toBe(0)
  })
})

describe('an expired member', () => {
  it('reactivates their brand in one click and is a member again', async () => {
    await signIn(page, 'expired', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    expect((await membership().textContent())?.trim()).toMatch(/\(inactive\)$/)
    // An expired member's page load may open the purchase modal by itself; else the account page's button does.
    const purchase = page.getByRole('dialog')
    await page.waitForTimeout(400)
    if ((await purchase.count()) === 0) await page.getByRole('button', { name: 'Upgrade my membership' }).click()
    const options = purchase.getByRole('radio')
    await options.first().waitFor()
    // Only the brand's own memberships reactivate it: no trials, no multisite packages.
    expect(await purchase.getByText(/trial/i).count()).toBe(0)
    const reactivate = purchase.getByRole('button', { name: 'Reactivate now' })
    expect(await reactivate.isDisabled()).toBe(true)
    await purchase.getByLabel(/I agree to be charged/).check()
    await screenshotAtBothWidths(page, 'expired-reactivate-modal')
    await reactivate.click()
    // The status modal polls the membership, then reloads the page with fatr=true.
    await page.waitForURL(/[?&]fatr=true/, { timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    await reloadUntil((text) => text === 'member')
    await screenshotAtBothWidths(page, 'expired-reactivated')
  })
})
