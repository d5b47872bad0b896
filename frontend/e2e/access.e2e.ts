// One owner for every rule, one verified identity on every call, as a user meets it: a member who cancelled
// keeps the paid period and a tandem child plays on the parent's membership; a media URL plays only in its owner's
// session; a chargeback stops a media URL already handed out within seconds; a logout ends the session everywhere,
// also for a copy of its cookie. Screenshots in e2e-artifacts/screenshots.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let context: BrowserContext
let page: Page

journeys((opened) => {
  ;({ browser, context, page } = opened)
})

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

/** Opens the first video of the listing and waits for the player to play the video itself; its media URL. */
async function playFirstVideo(p: Page, brand = DEMO_BRAND): Promise<string> {
  await p.goto(brandUrl(brand, '/videos'), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(p)
  await p.locator('main .video-card a').first().click()
  await p.waitForURL(/\/videos\/[a-z0-9-]+$/)
  await dismissWelcomeModals(p)
  const player = p.locator('main video.player__media')
  await expect.poll(() => player.getAttribute('src'), SETTLE).toMatch(/\/media\/videos\//)
  return new URL((await player.getAttribute('src'))!, p.url()).toString()
}

/** The status a media URL answers in `p`'s session, for the player's first range. */
async function mediaStatus(p: Page, url: string): Promise<number> {
  return p.evaluate(async (u) => (await fetch(u, { headers: { range: 'bytes=0-1023' }, credentials: 'include' })).status, url)
}

/** A GraphQL call from `p`'s page, as the app makes it; its error codes. */
/**
 * A page of `c` on the brand's origin that runs none of the app: the copy's own tab reacts to the ended session (it
 * goes to the login), and a fetch inside a page that is navigating fails on its own. Same origin, same cookies.
 */
async function probePage(c: BrowserContext): Promise<Page> {
  const probe = await c.newPage()
  await probe.route('**/__probe', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>probe</title>' }))
  await probe.goto(brandUrl(DEMO_BRAND, '/__probe'))
  return probe
}

async function graphqlCodes(p: Page, query: string): Promise<string[]> {
  return p.evaluate(async (q) => {
    const response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
      body: JSON.stringify({ query: q }),
    })
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] }
    return (body.errors ?? []).map((e) => e.extensions?.code ?? '')
  }, query)
}

describe('a member who cancelled, inside the paid period', () => {
  it('plays and downloads a video, as the spec keeps them a member until the period ends', async () => {
    await signIn(page, 'cancelled', DEMO_BRAND, '/videos')
    const url = await playFirstVideo(page)
    expect(await mediaStatus(page, url)).toBe(206)
    expect(await page.getByText('Your membership does not include this video yet').count()).toBe(0)
    const quota = page.getByTestId('download-quota')
    await quota.waitFor()
    expect(await quota.textContent()).toMatch(/^\d+ of \d+ downloads left in this \d+-day period\.$/)
    page.on('download', (download) => void download.cancel().catch(() => undefined))
    const before = (await quota.textContent()) ?? ''
    await page.locator('section.downloads button').last().click()
    await expect.poll(async () => ((await quota.textContent()) ?? '') !== before, SETTLE).toBe(true)
    await screenshotAtBothWidths(page, 'access-cancelled-member-plays')
  })
})

describe('a tandem child', () => {
  it('plays and downloads a video on the parent’s membership', async () => {
    await signIn(page, 'tandemchild', DEMO_BRAND, '/videos')
    const url = await playFirstVideo(page)
    expect(await mediaStatus(page, url)).toBe(206)
    expect(await page.getByRole('button', { name: /Get full access/ }).count()).toBe(0)
    await page.getByTestId('download-quota').waitFor()
    await screenshotAtBothWidths(page, 'access-tandem-child-plays')
  })
})

describe('a media URL', () => {
  it('answers 403 when copied into a signed-out browser or another member’s session', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/videos')
    const url = await playFirstVideo(page)
    expect(await mediaStatus(page, url)).toBe(206)

    const signedOut = await visitorContext(browser)
    const outsider = await signedOut.newPage()
    await outsider.goto(brandUrl(DEMO_BRAND, '/'), { waitUntil: 'domcontentloaded' })
    expect(await mediaStatus(outsider, url)).toBe(403)
    const direct = await outsider.goto(url)
    expect(direct?.status()).toBe(403)
    await signedOut.close()

    const otherContext = await visitorContext(browser)
    const other = await otherContext.newPage()
    await signIn(other, 'moderator', DEMO_BRAND, '/')
    expect(await mediaStatus(other, url)).toBe(403)
    await otherContext.close()
  })
})

describe('a member charged back', () => {
  it('is offered reactivation, and the media URL handed out before stops within 5 s', async () => {
    // A fresh vixen member, joined on the brand's own join page through the biller sandbox, so the chargeback is
    // theirs alone.
    const id = unique()
    await page.goto(brandUrl(DEMO_BRAND, '/joinnow?ref=home&elm=header'), { waitUntil: 'networkidle' })
    await page.getByLabel('1 month', { exact: false }).first().check()
    await page.getByLabel('E-mail').fill(`chargeback-${id}@example.com`)
    await page.getByLabel('Username').fill(`cb${id}`)
    await page.getByLabel('Password').fill('Secret12345')
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 20_000 }),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ])
    const sandbox = new URL(page.url()).origin
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_signupsuccess', { timeout: 20_000 }),
      page.getByRole('button', { name: 'Approve' }).click(),
    ])
    const memberId = new URL(page.url()).searchParams.get('memberid')
    expect(memberId).toBeTruthy()
    const brand = new URL(page.url()).hostname.split('.')[0]
    const start = page.getByRole('link', { name: 'Start watching' })
    await start.waitFor({ timeout: 30_000 })
    await Promise.all([page.waitForURL((url) => url.pathname === '/' && !url.search.includes('al_token')), start.click()])
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached', timeout: 20_000 })
    const url = await playFirstVideo(page, brand)
    expect(await mediaStatus(page, url)).toBe(206)

    // The cardholder's bank reverses the payment: the biller's signed postback.
    const answer = await page.request.post(`${sandbox}/sandbox/members/${memberId}/chargeback`)
    expect(answer.status()).toBe(200)
    const charged = Date.now()
    await expect.poll(() => mediaStatus(page, url), { timeout: 5_000, interval: 100 }).toBe(403)
    expect(Date.now() - charged).toBeLessThan(5_000)

    // The page now offers the way back.
    await page.reload({ waitUntil: 'networkidle' })
    await expect
      .poll(async () => (await page.getByRole('dialog').count()) + (await page.getByRole('button', { name: /Upgrade|Reactivate|Get full access/ }).count()), SETTLE)
      .toBeGreaterThan(0)
    await screenshotAtBothWidths(page, 'access-charged-back-offered-reactivation')
  })
})

describe('a logout', () => {
  it('ends the session for a copy of its cookie too within 5 s', async () => {
    await signIn(page, 'multisite', DEMO_BRAND, '/')
    // Another tab that keeps the session's cookie as it was (a second device with a copied cookie behaves the same).
    const copyContext = await visitorContext(browser)
    await copyContext.addCookies(await context.cookies())
    const copy = await copyContext.newPage()
    await copy.goto(brandUrl(DEMO_BRAND, '/'), { waitUntil: 'domcontentloaded' })
    const whoami = '{ findOneUserProfile { email } }'
    expect(await graphqlCodes(copy, whoami)).toEqual([])
    const probe = await probePage(copyContext)
    expect(await graphqlCodes(probe, whoami)).toEqual([])
    // The copy's tab is left open once its page has finished loading: nothing of it is in flight at the logout.
    await copy.waitForLoadState('networkidle')
    await page.evaluate(async () => {
      await fetch('/logout', { method: 'POST', credentials: 'include', headers: { 'x-paysite-csrf': '1', 'content-type': 'application/json' }, body: '{}' })
    })
    const loggedOut = Date.now()
    await expect
      .poll(() => graphqlCodes(probe, whoami), { timeout: 5_000, interval: 100 })
      .toEqual(['UNAUTHENTICATED'])
    expect(Date.now() - loggedOut).toBeLessThan(5_000)
    // Back at the copy's own tab, left open on the home page, its user opens their account: the tab notices the
    // session has ended, settles on the sign-in page and stays there (no loop between the sign-in and the brand).
    await copy.locator('header button', { hasText: 'My account' }).click()
    await copy.locator('header').getByRole('link', { name: 'Account', exact: true }).click()
    await expect.poll(() => copy.url(), { timeout: 15_000 }).toMatch(/\/oidc\/login/)
    await copy.waitForLoadState('networkidle')
    let navigations = 0
    copy.on('framenavigated', (frame) => {
      if (frame === copy.mainFrame()) navigations += 1
    })
    await copy.waitForTimeout(3_000)
    expect(navigations).toBe(0)
    expect(await copy.locator('form input[type="password"]').count()).toBeGreaterThan(0)
    await screenshotAtBothWidths(copy, 'access-copied-cookie-after-logout')
    await copyContext.close()
  })
})
