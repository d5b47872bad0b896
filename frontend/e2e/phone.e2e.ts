// The phone's compact header: at 390×844 the header is one row (menu button, wordmark, the visitor's
// "Join now", a search icon), the first video card shows without scrolling, and the menu and the search open from
// their buttons and work. On a brand host and on the shared members host; screenshots at 390 px.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectAccessible } from './support/a11y'
import { ARTIFACTS_DIR } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { dismissWelcomeModals, SETTLE, signIn } from './support/members'

const PHONE = { width: 390, height: 844 }

let context: BrowserContext
let page: Page

journeys((opened) => {
  ;({ context, page } = opened)
})

async function screenshot(name: string): Promise<void> {
  const dir = join(ARTIFACTS_DIR, 'screenshots')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}-390.png`) })
  await expectAccessible(page, `${name} at 390 px`)
}

const header = () => page.locator('header.site-header')

/** Where the first video card of the page is, against the first screen. */
async function firstCardOnFirstScreen(): Promise<{ top: number; bottom: number; screen: number }> {
  const card = page.locator('main .video-card').first()
  await card.waitFor()
  await page.evaluate(() => window.scrollTo(0, 0))
  const box = (await card.boundingBox())!
  return { top: box.y, bottom: box.y + box.height, screen: PHONE.height }
}

describe('a phone at 390×844', () => {
  it.each(['vixen', 'members'])('on %s: a one-row header, and the first video card without scrolling', async (host) => {
    await page.setViewportSize(PHONE)
    await page.goto(brandUrl(host, '/'), { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const row = (await header().boundingBox())!
    expect(row.height).toBeLessThanOrEqual(64)
    // The menu and the search wait behind their buttons; the visitor's "Join now" stays in the row.
    expect(await header().getByRole('link', { name: 'Models' }).isVisible()).toBe(false)
    expect(await header().getByRole('searchbox').isVisible()).toBe(false)
    expect(await header().getByRole('link', { name: 'Join now' }).isVisible()).toBe(true)
    const card = await firstCardOnFirstScreen()
    expect(card.top).toBeGreaterThanOrEqual(row.height)
    expect(card.bottom).toBeLessThanOrEqual(card.screen)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await screenshot(`phone-home-${host}`)

    // The menu opens below the row, and a link in it navigates and closes it.
    await header().getByRole('button', { name: 'Menu' }).click()
    const models = header().getByRole('link', { name: 'Models' })
    await models.waitFor({ state: 'visible' })
    expect(await header().getByRole('link', { name: 'Log in' }).isVisible()).toBe(true)
    await screenshot(`phone-menu-open-${host}`)
    await models.click()
    await page.waitForURL((url) => url.pathname === '/performers')
    await expect.poll(() => models.isVisible(), SETTLE).toBe(false)

    // The search icon opens the search form; a search goes to the results.
    await header().getByRole('button', { name: 'Search', expanded: false }).click()
    const box = header().getByRole('searchbox')
    await box.waitFor({ state: 'visible' })
    await screenshot(`phone-search-open-${host}`)
    await box.fill('scene')
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'scene')
  })

  it('a signed-in member reaches the account menu and signs out from it', async () => {
    await signIn(page, 'trial', 'tushy', '/')
    await page.setViewportSize(PHONE)
    await page.reload({ waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const card = await firstCardOnFirstScreen()
    expect(card.bottom).toBeLessThanOrEqual(card.screen)
    await header().getByRole('button', { name: 'Menu' }).click()
    await header().getByRole('button', { name: 'My account' }).click()
    const signOut = header().getByRole('button', { name: 'Sign out', exact: true })
    await signOut.waitFor({ state: 'visible' })
    await screenshot('phone-account-menu')
    await Promise.all([page.waitForEvent('load'), signOut.click()])
    expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(`${brandOrigin('tushy')}/`)
    await page.waitForLoadState('networkidle')
    await header().getByRole('button', { name: 'Menu' }).click()
    await header().getByRole('link', { name: 'Log in' }).waitFor({ state: 'visible' })
    expect((await context.cookies(brandOrigin('tushy'))).some((c) => c.name === 'paysite_rt')).toBe(false)
  })
})
