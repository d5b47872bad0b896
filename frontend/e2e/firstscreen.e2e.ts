// The first screen comes with the page (docs/decisions/caching-and-first-screen/first-screen-comes-page.md): a visitor's and a
// member's home and video page paint their first screen before the page has asked /graphql anything, and never ask
// for the screen's own query at all. Measured by the browser itself: the first contentful paint against the start of
// every /graphql request (resource timing), on tushy and on vixen, where the member signs in through the members host.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { journeys } from './support/journey'
import { brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, signIn } from './support/members'
import { graphqlOperation } from './support/server'

let page: Page

journeys((opened) => {
  page = opened.page
})

interface Loaded {
  firstPaint: number
  /** Each /graphql request of the load: its operation and when it started, in ms from navigation start. */
  asked: Array<{ operation: string; start: number }>
  embedded: string | null
}

/** Opens `path` as a fresh load and reads, once its heading shows, when it first painted and what it asked. */
async function load(brand: string, path: string): Promise<Loaded> {
  const operations = new Map<string, string>()
  const listener = (request: Parameters<typeof graphqlOperation>[0]) => {
    const operation = graphqlOperation(request)
    if (operation) operations.set(request.url(), operation.operationName ?? '(unnamed)')
  }
  page.on('request', listener)
  const response = await page.goto(brandUrl(brand, path), { waitUntil: 'load' })
  expect(response?.status(), `${brand} ${path}`).toBe(200)
  await page.locator('main h1').first().waitFor()
  // Whatever the first screen starts asking at once (a member's media tokens, the shelves after the first) has begun.
  await page.waitForTimeout(500)
  page.off('request', listener)
  const timing = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
    requests: performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname === '/graphql')
      .map((entry) => ({ url: entry.name, start: entry.startTime })),
    embedded: document.getElementById('paysite-first-screen')?.textContent ?? null,
  }))
  expect(timing.firstPaint, 'the page painted').toBeGreaterThan(0)
  return {
    firstPaint: timing.firstPaint,
    asked: timing.requests.map((r) => ({ operation: operations.get(r.url) ?? '(POST)', start: r.start })),
    embedded: timing.embedded,
  }
}

/** The page carried the screen's answer, and never asked for it. */
function expectScreenFromThePage(loaded: Loaded, operation: string) {
  expect(loaded.embedded, 'the page carries its first screen').not.toBeNull()
  expect((JSON.parse(loaded.embedded!) as { answers: Array<{ operation: string }> }).answers[0]?.operation).toBe(operation)
  expect(loaded.asked.map((request) => request.operation)).not.toContain(operation)
}

/** ...and painted before it asked /graphql anything at all. */
function expectFirstScreenFromThePage(loaded: Loaded, operation: string) {
  expectScreenFromThePage(loaded, operation)
  const beforePaint = loaded.asked.filter((request) => request.start < loaded.firstPaint)
  expect(beforePaint, `asked before the first paint at ${loaded.firstPaint.toFixed(0)} ms`).toEqual([])
}

/** A video of the brand's listing, as its first card links it. */
async function someVideo(brand: string): Promise<string> {
  await page.goto(brandUrl(brand, '/videos'), { waitUntil: 'load' })
  const href = await page.locator('main .video-card a[href^="/videos/"]').first().getAttribute('href')
  expect(href).toMatch(/^\/videos\/[a-z0-9-]+$/)
  return href!
}

describe.each(['tushy', 'vixen'])('a visitor on %s', (brand) => {
  it('gets the home page and a video page painted before any GraphQL request', async () => {
    const home = await load(brand, '/')
    expectFirstScreenFromThePage(home, 'HomePage')
    expect(await page.locator('main .video-card').count()).toBeGreaterThan(0)
    const video = await someVideo(brand)
    const shown = await load(brand, video)
    expectFirstScreenFromThePage(shown, 'VideoPage')
    expect(await page.locator('[data-testid="trailer"]').count()).toBe(1)
  })
})

describe('a member on the demo brand, signed in through the members host', () => {
  it('gets their home page and a video page, with its player and favourite, painted before any GraphQL request', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    const home = await load(DEMO_BRAND, '/')
    expectFirstScreenFromThePage(home, 'HomePage')
    await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached' })
    const video = await someVideo(DEMO_BRAND)
    const shown = await load(DEMO_BRAND, video)
    // The video comes with the page, and with it what the member's player and favourite button ask from its answer.
    expectFirstScreenFromThePage(shown, 'VideoPage')
    const carried = (JSON.parse(shown.embedded!) as { answers: Array<{ operation: string }> }).answers.map((a) => a.operation)
    expect(carried).toEqual(['VideoPage', 'GemsBalance', 'VideoTokens', 'VideoFavorite'])
    expect(shown.asked.map((request) => request.operation)).not.toContain('VideoTokens')
    expect(shown.asked.map((request) => request.operation)).not.toContain('VideoFavorite')
  })
})
