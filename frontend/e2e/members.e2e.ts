// The demo members' journeys: each signs in through the members host as that kind of user, does the
// thing, asserts what the person sees, and keeps screenshots at 360 px and 1440 px (e2e-artifacts/screenshots).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { contextInRegion, DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let context: BrowserContext
let page: Page

journeys((opened) => {
  ;({ browser, context, page } = opened)
})

const dialog = () => page.getByRole('dialog')
const stamp = () => Date.now().toString(36)

async function openFirstVideo() {
  await page.goto(brandUrl(DEMO_BRAND, '/videos'), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(page)
  const card = page.locator('main .video-card').first()
  const title = ((await card.locator('.video-card__title').textContent()) ?? '').trim()
  await card.locator('a').first().click()
  await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
  await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe(title)
  await dismissWelcomeModals(page)
  return title
}

describe('a pay-per-video user', () => {
  it('unlocks a video with a credit and watches it', async () => {
    await signIn(page, 'ppv', DEMO_BRAND, '/videos')
    const title = await openFirstVideo()
    const unlock = page.getByRole('button', { name: 'Unlock this video' })
    await unlock.waitFor()
    await unlock.click()
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Unlock or upgrade')
    const creditsText = (await dialog().getByTestId('credits-balance').textContent()) ?? ''
    const credits = Number(/(\d+) credits/.exec(creditsText)?.[1])
    expect(credits).toBeGreaterThan(0)
    await screenshotAtBothWidths(page, 'ppv-unlock-modal')
    await dialog().getByRole('button', { name: 'Unlock for 1 credit' }).click()
    const done = dialog().getByRole('status')
    await expect.poll(() => done.textContent(), SETTLE).toBe(`${title} is unlocked for good. You have ${credits - 1} credits left.`)
    await screenshotAtBothWidths(page, 'ppv-unlocked')
    await dialog().getByRole('button', { name: 'Watch now' }).click()
    // The player now plays the video itself from its media token, not the trailer.
    await expect.poll(() => page.locator('main video.player__media').getAttribute('src'), SETTLE).toMatch(/\/media\/videos\//)
    expect(await page.getByRole('button', { name: 'Unlock this video' }).count()).toBe(0)
    await screenshotAtBothWidths(page, 'ppv-watching')
  })
})

/** The signed-in user's gems, asked of the gateway the way the page asks. */
async function gemsBalance(): Promise<number> {
  return page.evaluate(async () => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
      body: JSON.stringify({ query: '{ getGemsBalance { wallet { balance { amount } } } }' }),
    })
    const body = (await response.json()) as { data?: { getGemsBalance: { wallet: { balance: { amount: number } } } } }
    return body.data?.getGemsBalance.wallet.balance.amount ?? -1
  })
}

describe('a member with gems', () => {
  it('unlocks channel packs, watches the balance fall, runs out and reads not enough gems with the days', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/channels')
    await dismissWelcomeModals(page)
    // This Friday's gems arrive from the wallet's weekly job shortly after the stack starts (scripts/e2e has it pass
    // every 2 s).
    await expect.poll(gemsBalance, { timeout: 60_000, interval: 1_000 }).toBeGreaterThanOrEqual(10)
    const channelLinks = await page.locator('main .performer-grid a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(channelLinks.length).toBeGreaterThan(0)
    const packs: string[] = []
    for (const channel of channelLinks) {
      await page.goto(brandUrl(DEMO_BRAND, channel!), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(page)
      const hrefs = await page.locator('main ul[aria-label="Packs"] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
      packs.push(...hrefs.map(String))
      if (packs.length >= 6) break
    }
    expect(packs.length).toBeGreaterThan(1)
    let unlocked = 0
    let ranOut = false
    for (const pack of packs) {
      await page.goto(brandUrl(DEMO_BRAND, pack), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(page)
      const button = page.locator('main button', { hasText: /^Unlock .* for 10 gems$/ })
      if ((await button.count()) === 0) continue // held already
      await button.click()
      const balance = dialog().getByTestId('gems-balance')
      await balance.waitFor()
      const before = Number(await balance.getAttribute('data-amount'))
      expect(await dialog().getByTestId('pack-cost').textContent()).toBe('10 gems')
      await dialog().getByRole('button', { name: 'Unlock for 10 gems' }).click()
      if (before >= 10) {
        await expect.poll(() => dialog().getByRole('status').textContent(), SETTLE).toMatch(/is unlocked\.$/)
        await expect.poll(() => balance.getAttribute('data-amount'), SETTLE).toBe(String(before - 10))
        // The gem animation counts down to the new balance.
        await expect.poll(() => balance.textContent(), SETTLE).toMatch(new RegExp(`${before - 10} gems?$`))
        if (unlocked === 0) await screenshotAtBothWidths(page, 'member-pack-unlocked')
        unlocked += 1
        await dialog().getByRole('button', { name: 'Watch now' }).click()
        await page.getByTestId('pack-unlocked').waitFor()
      } else {
        await expect
          .poll(() => dialog().getByRole('alert').textContent(), SETTLE)
          .toMatch(/^Not enough gems\. New gems arrive in \d+ days?\.$/)
        await screenshotAtBothWidths(page, 'member-not-enough-gems')
        ranOut = true
        break
      }
    }
    expect(unlocked).toBeGreaterThan(0)
    expect(ranOut).toBe(true)
  })

  it('downloads until the quota message', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/videos')
    await openFirstVideo()
    const quota = page.getByTestId('download-quota')
    await quota.waitFor()
    const buttons = page.locator('section.downloads button')
    const smallest = buttons.last()
    page.on('download', (download) => void download.cancel().catch(() => undefined))
    let text = (await quota.textContent()) ?? ''
    for (let attempt = 0; attempt < 30 && !text.startsWith('Download limit'); attempt += 1) {
      await smallest.click()
      await expect.poll(async () => ((await quota.textContent()) ?? '') !== text, SETTLE).toBe(true)
      text = (await quota.textContent()) ?? ''
      if (attempt === 0) {
        expect(text).toMatch(/^\d+ of \d+ downloads left in this \d+-day period\.$/)
        await screenshotAtBothWidths(page, 'member-downloading')
      }
    }
    expect(text).toMatch(/^Download limit of \d+ exceeded, try again in \d+ days?\.$/)
    expect(await smallest.isDisabled()).toBe(true)
    await screenshotAtBothWidths(page, 'member-download-quota')
  })
})

describe('a tandem parent', () => {
  it('creates a second account, which signs in and cannot see channels', async () => {
    // The demo tandem parent already shares with the demo child; this member becomes a parent here.
    await signIn(page, 'preview', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    await expect.poll(() => page.locator('main h1').textContent(), SETTLE).toBe('Account')
    await page.getByRole('button', { name: 'Create a second account' }).click()
    const email = `child-${stamp()}@example.com`
    const password = 'Child12345'
    await dialog().getByLabel('Their e-mail').fill('not-an-email')
    await dialog().getByLabel('Their password').fill('short')
    await dialog().getByRole('button', { name: 'Create account' }).click()
    await dialog().getByText('Invalid email address.').waitFor()
    await dialog().getByText('Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.').waitFor()
    await dialog().getByLabel('Their e-mail').fill(email)
    await dialog().getByLabel('Their password').fill(password)
    await screenshotAtBothWidths(page, 'tandem-create')
    await dialog().getByRole('button', { name: 'Create account' }).click()
    await expect.poll(() => dialog().count(), SETTLE).toBe(0)
    await page.getByTestId('tandem-child').waitFor()
    await screenshotAtBothWidths(page, 'tandem-parent-shared')

    const childContext = await visitorContext(browser)
    const child = await childContext.newPage()
    try {
      await signIn(child, email, DEMO_BRAND, '/', password)
      await dismissWelcomeModals(child)
      expect(await child.locator('header nav').getByRole('link', { name: 'Channels' }).count()).toBe(0)
      // The edge answers what the page shows: not found, without the ability.
      const response = await child.goto(brandUrl(DEMO_BRAND, '/channels'), { waitUntil: 'networkidle' })
      expect(response?.status()).toBe(404)
      await expect.poll(() => child.locator('main h1').first().textContent(), SETTLE).toBe('Page Not Found')
      await child.goto(brandUrl(DEMO_BRAND, '/account'), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(child)
      await child.getByText(/This account shares the membership of/).waitFor()
      await screenshotAtBothWidths(child, 'tandem-child-no-channels')
    } finally {
      await childContext.close()
    }
  })
})

describe('an invited VIP', () => {
  it('meets each form rule and answer, then converts with Enter and the page reloads as theirs', async () => {
    await signIn(page, 'vip', DEMO_BRAND, '/account')
    await dismissWelcomeModals(page)
    const vip = page.getByRole('dialog', { name: 'VIP' })
    await vip.waitFor()
    await vip.getByText('Exclusive membership').waitFor()
    await screenshotAtBothWidths(page, 'vip-modal')
    // Only the user's answer closes it.
    await page.keyboard.press('Escape')
    expect(await vip.count()).toBe(1)
    const email = vip.getByLabel('E-mail')
    const password = vip.getByLabel('Password', { exact: true })
    await email.fill('vip@vip.paysite.test')
    await password.fill('Vip12345678')
    await vip.getByRole('button', { name: 'Continue' }).click()
    await vip.getByText('Invalid email address.').waitFor()
    await email.fill('new-vip@example.com')
    await password.fill('short')
    await vip.getByRole('button', { name: 'Continue' }).click()
    await vip.getByText('Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.').waitFor()
    await email.fill('member@paysite.test')
    await password.fill('Vip12345678')
    await vip.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => vip.getByRole('alert').textContent(), SETTLE).toBe('This email already exists. Please choose another one.')
    await screenshotAtBothWidths(page, 'vip-email-exists')
    const mine = `  VIP-${stamp()}@Example.com `
    await email.fill(mine)
    await Promise.all([page.waitForEvent('load'), password.press('Enter')])
    await page.waitForLoadState('networkidle')
    await dismissWelcomeModals(page)
    await expect.poll(() => page.getByTestId('account-email').textContent(), SETTLE).toBe(mine.trim().toLowerCase())
    expect(await page.getByRole('dialog', { name: 'VIP' }).count()).toBe(0)
    await screenshotAtBothWidths(page, 'vip-converted')
  })
})

describe('a moderator', () => {
  it('pins and removes a comment', async () => {
    await signIn(page, 'moderator', DEMO_BRAND, '/videos')
    await openFirstVideo()
    const text = `A note to pin ${stamp()}`
    await page.getByLabel('Add a comment').fill(text)
    await page.getByRole('button', { name: 'Post' }).click()
    const comment = page.locator('li.comment', { hasText: text })
    await comment.waitFor()
    await comment.getByRole('button', { name: 'Pin' }).click()
    await expect.poll(() => comment.locator('.comment__pinned').count(), SETTLE).toBe(1)
    await comment.getByRole('button', { name: 'Unpin' }).waitFor()
    await screenshotAtBothWidths(page, 'moderator-pinned')
    await comment.getByRole('button', { name: 'Remove' }).click()
    await expect.poll(() => comment.count(), SETTLE).toBe(0)
    await screenshotAtBothWidths(page, 'moderator-removed')
  })
})

describe('a texas member', () => {
  // The Texas warning is on for blacked (config/tenants); the edge tells the gateway the region.
  const TEXAS_BRAND = 'blacked'

  it('meets the health warning, cannot pass it without acknowledging, and is not asked again', async () => {
    await contextInRegion(context, 'US-TX')
    await signIn(page, 'texas', TEXAS_BRAND, '/')
    const warning = page.getByRole('alertdialog', { name: 'Health warning' })
    await warning.waitFor()
    expect(await warning.textContent()).toContain('TEXAS HEALTH AND HUMAN SERVICES WARNING')
    await screenshotAtBothWidths(page, 'texas-health-warning')
    await page.keyboard.press('Escape')
    expect(await warning.count()).toBe(1)
    await warning.getByRole('button', { name: 'I understand' }).click()
    await expect.poll(() => warning.count(), SETTLE).toBe(0)
    await page.waitForLoadState('networkidle')

    // Another browser: the acknowledgement is the profile's, not only this browser's.
    const other = await visitorContext(browser)
    await contextInRegion(other, 'US-TX')
    const again = await other.newPage()
    try {
      await signIn(again, 'texas', TEXAS_BRAND, '/')
      await again.waitForTimeout(1000)
      expect(await again.getByRole('alertdialog', { name: 'Health warning' }).count()).toBe(0)
      await screenshotAtBothWidths(again, 'texas-acknowledged')
    } finally {
      await other.close()
    }
  })
})

describe('a multisite member', () => {
  it('switches to a sister site and stays signed in', async () => {
    await signIn(page, 'multisite', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    await page.goto(brandUrl(DEMO_BRAND, '/xsite/blacked'))
    await page.waitForURL((url) => url.origin === brandOrigin('blacked'), { timeout: 20_000 })
    await page.waitForLoadState('networkidle')
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached' })
    await dismissWelcomeModals(page)
    await screenshotAtBothWidths(page, 'multisite-xsite-blacked')
  })
})
