// A visitor on two brands (tushy, and vixen with faceted search and angels): browses, searches, opens a video and
// its trailer, hits not-found, follows each permanent move, and meets a route their brand has switched off.
// Every step is photographed at 360 px and 1440 px (e2e-artifacts/screenshots).
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, scrollsSideways, VIEWPORTS } from './support/browser'
import { journeys } from './support/journey'
import { brandGet, brandOrigin, brandUrl } from './support/gateway'

const FIRST = 'tushy'
const SECOND = 'vixen'

let page: Page

journeys((opened) => {
  page = opened.page
})

const heading = () => page.locator('main h1').first()

// The router moves the address first and shows the new screen on a later frame (a transition), so what a screen
// shows is read until it holds, for as long as a locator would wait, never once right after the address moved.
const SETTLE = { timeout: 15_000, interval: 100 }
const expectHeading = (text: string) => expect.poll(() => heading().textContent(), SETTLE).toBe(text)
const videoCards = () => page.locator('main .video-card')

async function open(brand: string, path: string, status = 200) {
  const response = await page.goto(brandUrl(brand, path), { waitUntil: 'networkidle' })
  expect(response?.status(), `${brand} ${path}`).toBe(status)
  await heading().waitFor()
}

describe.each([FIRST, SECOND])('a visitor on %s', (brand) => {
  it('sees the home page with its shelves, in the brand’s own look, without sideways scrolling on a phone', async () => {
    await open(brand, '/')
    await expectHeading(brand.toUpperCase())
    expect(await page.locator('main .shelf').count()).toBeGreaterThan(0)
    expect(await videoCards().count()).toBeGreaterThan(0)
    expect(await page.evaluate(() => document.documentElement.dataset.brand)).toBe(brand)
    const join = await page.locator('header a', { hasText: 'Join now' }).getAttribute('href')
    expect(join).toMatch(/\/joinnow\?brand=[a-z0-9]+&ref=home&elm=header&campaign=[a-z0-9]+-(hdr|mbhdr)$/)
    // The first shelf's own join link carries the shelf's campaign.
    const shelfJoin = await page.locator('main .shelf').first().locator('.join-cta a').getAttribute('href')
    expect(shelfJoin).toMatch(/\/joinnow\?brand=[a-z0-9]+&ref=home&elm=shelf1&campaign=[a-z0-9]+-(shelf1|mbshelf1)$/)
    await page.setViewportSize(VIEWPORTS.mobile)
    expect(await scrollsSideways(page)).toBe(false)
    // The shelves after the first arrive once the page is painted (Deferred).
    await page.locator('main .shelf').nth(1).waitFor()
    await screenshotAtBothWidths(page, `${brand}-home`)
  })

  it('gets the page and its GraphQL answers compressed', async () => {
    const encodings: string[] = []
    // The listing's answer (a page of cards, well over the 1 KiB below which nothing is compressed).
    page.on('response', (response) => {
      const asked = `${response.url()} ${response.request().postData() ?? ''}`
      if (response.url().includes('/graphql') && asked.includes('VideoListing') && response.status() === 200) {
        encodings.push(response.headers()['content-encoding'] ?? 'none')
      }
    })
    const response = await page.goto(brandUrl(brand, '/'), { waitUntil: 'networkidle' })
    expect(['br', 'gzip']).toContain(response?.headers()['content-encoding'])
    // The landing page's answer comes in the page (the first screen); the listing reached by a link is asked.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/videos')
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    await page.waitForURL((url) => url.pathname === '/videos')
    await expect.poll(() => encodings.length, SETTLE).toBeGreaterThan(0)
    expect(encodings.every((e) => e === 'br' || e === 'gzip'), encodings.join(', ')).toBe(true)
    // A visitor's join links under the grid and in the top banner carry their own campaigns.
    const gridJoin = await page.locator('main .join-cta:not(.join-cta--banner) a').last().getAttribute('href')
    expect(gridJoin).toMatch(/elm=grid&campaign=[a-z0-9]+-grid$/)
    const banner = await page.locator('main .join-cta--banner a').getAttribute('href')
    expect(banner).toMatch(/elm=top-banner&campaign=[a-z0-9]+-top-banner$/)
  })

  it('gets the brand’s icon, title and description in the HTML the edge sends', async () => {
    const failed: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
    })
    await open(brand, '/')
    const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '')
    expect(decodeURIComponent(icon)).toMatch(/^data:image\/svg\+xml,<svg .*>[A-Z]<\/text><\/svg>$/)
    const page404s = failed.filter((line) => !line.includes('/graphql'))
    expect(page404s).toEqual([])
    // The icon is in the HTML the edge sends (its head), not swapped in by the page's code: a crawler sees it too.
    const served = await page.evaluate(async () => {
      const html = await (await fetch('/')).text()
      const parsed = new DOMParser().parseFromString(html, 'text/html')
      return {
        icon: parsed.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href') ?? '',
        title: parsed.title,
        description: parsed.querySelector<HTMLMetaElement>('meta[name="description"]')?.content ?? '',
      }
    })
    expect(served.icon).toBe(icon)
    expect(served.title).not.toBe('paysite')
    expect(served.description).not.toBe('')
  })

  it('uses the site by keyboard alone: skip link, a navigation dropdown, named controls and pictures', async () => {
    await open(brand, '/')
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null
        return { id: element?.id ?? '', text: element?.textContent?.trim() ?? '', expanded: element?.getAttribute('aria-expanded') }
      })
    await page.keyboard.press('Tab')
    expect((await focused()).text).toBe('Skip to content')
    await page.keyboard.press('Enter')
    expect((await focused()).id).toBe('content')

    const videosMenu = page.locator('header nav button', { hasText: 'Videos' })
    await videosMenu.focus()
    await page.keyboard.press('Enter')
    expect(await videosMenu.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Tab')
    expect((await focused()).text).toBe('All videos')
    await page.keyboard.press('Escape')
    expect(await videosMenu.getAttribute('aria-expanded')).toBe('false')
    expect(await focused()).toMatchObject({ text: 'Videos', expanded: 'false' })

    // Every control has a name, every picture a text alternative (empty for the decorative card posters).
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href]')]
        .filter((element) => {
          const labels = (element as HTMLInputElement).labels
          const named = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') || element.textContent?.trim()
          return !named && !(labels && labels.length > 0)
        })
        .map((element) => element.outerHTML.slice(0, 120)),
    )
    expect(unnamed).toEqual([])
    expect(await page.locator('img:not([alt])').count()).toBe(0)
  })

  it('fits a 360 px phone on the listing and video pages too', async () => {
    await page.setViewportSize(VIEWPORTS.mobile)
    await open(brand, '/videos')
    expect(await scrollsSideways(page)).toBe(false)
    await videoCards().first().locator('a').first().click()
    await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
    await page.getByRole('heading', { name: /^Comments/ }).waitFor()
    expect(await scrollsSideways(page)).toBe(false)
  })

  it('browses the videos a page at a time', async () => {
    await open(brand, '/videos')
    expect(await videoCards().count()).toBeGreaterThan(0)
    expect(await videoCards().count()).toBeLessThanOrEqual(12)
    const next = page.getByRole('link', { name: 'Next page' })
    if ((await next.count()) > 0) {
      const firstTitle = await videoCards().first().locator('.video-card__title').textContent()
      await next.click()
      await page.waitForURL(/[?&]page=2/)
      await page.waitForLoadState('networkidle')
      await expect.poll(() => page.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current'), SETTLE).toBe('page')
      expect(await videoCards().first().locator('.video-card__title').textContent()).not.toBe(firstTitle)
      // Phones get at most 5 page links, desktops at most 10.
      expect(await page.locator('nav.pagination ol a').count()).toBeLessThanOrEqual(10)
      await page.setViewportSize(VIEWPORTS.mobile)
      expect(await page.locator('nav.pagination ol a').count()).toBeLessThanOrEqual(5)
    }
    await screenshotAtBothWidths(page, `${brand}-videos`)
  })

  it('searches from the header and finds the video it searched for', async () => {
    await open(brand, '/videos')
    const title = (await videoCards().first().locator('.video-card__title').textContent()) ?? ''
    const word = title.split(/\s+/).find((part) => part.length > 3) ?? title
    await page.getByRole('searchbox').fill(word)
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/\/search\?q=/)
    await page.waitForLoadState('networkidle')
    await expectHeading(`Search: ${word}`)
    expect(await videoCards().count()).toBeGreaterThan(0)
    await screenshotAtBothWidths(page, `${brand}-search`)
  })

  it('opens a video, meets its trailer and the join link, then the trailer page', async () => {
    await open(brand, '/videos')
    const card = videoCards().first()
    const title = (await card.locator('.video-card__title').textContent()) ?? ''
    await card.locator('a').first().click()
    await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
    await page.waitForLoadState('networkidle')
    await expectHeading(title)
    // A visitor gets the trailer, not the video, and the way to join from this element.
    await page.getByTestId('trailer').waitFor()
    const slug = new URL(page.url()).pathname.split('/').pop()
    const join = await page.locator('main .player__join a').getAttribute('href')
    expect(join).toMatch(/\/joinnow\?brand=[a-z0-9]+&ref=video&elm=video-player$/)
    await page.getByRole('heading', { name: /^Comments/ }).waitFor()
    await screenshotAtBothWidths(page, `${brand}-video`)

    await page.getByRole('link', { name: 'Watch the trailer' }).click()
    await page.waitForURL(new RegExp(`/trailer/${slug}$`))
    await expectHeading(`Trailer: ${title}`)
    await page.getByTestId('trailer').waitFor()
    await screenshotAtBothWidths(page, `${brand}-trailer`)
  })

  it('gets the not-found page for an invalid slug and for an unknown address', async () => {
    await open(brand, '/videos/Not_A_Valid_Slug', 404)
    await expectHeading('Page Not Found')
    await screenshotAtBothWidths(page, `${brand}-not-found`)
    await open(brand, '/no-such-page', 404)
    await expectHeading('Page Not Found')
    // In the app too: a link to a video that does not exist is not-found.
    await open(brand, '/')
    await page.evaluate(() => {
      window.history.pushState({}, '', '/videos/no-such-video-anywhere')
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    await page.waitForURL(/no-such-video-anywhere/)
    await page.locator('main h1', { hasText: 'Page Not Found' }).waitFor()
    // And loaded directly: a well-formed slug of no video. The page's query answers NOT_FOUND; the page is not-found
    // (the gateway's status for such a path is its own concern).
    await page.goto(brandUrl(brand, '/videos/no-such-video-anywhere'), { waitUntil: 'networkidle' })
    await expectHeading('Page Not Found')
    await page.goto(brandUrl(brand, '/performers/no-such-performer-anywhere'), { waitUntil: 'networkidle' })
    await expectHeading('Page Not Found')
  })
})

describe('the permanent moves', () => {
  const uuid = '0b7c6f0e-5a3e-4c55-9a61-3c1f1f3c2a10'

  it.each([
    ['/models', '/performers'],
    ['/models?order=name', '/performers?order=name'],
    ['/models/some-performer', '/performers/some-performer'],
    ['/categories/red-dress', '/search?search=red-dress'],
    ['/reels', '/quickies'],
    [`/reels/${uuid}`, `/quickies/${uuid}`],
    ['/favorites/models', '/favorites/performers'],
  ])('%s answers 301 to %s', async (from, to) => {
    const response = await brandGet(FIRST, from)
    expect(response.status).toBe(301)
    const location = response.headers.location
    expect(typeof location).toBe('string')
    expect(new URL(location as string, brandOrigin(FIRST)).toString()).toBe(brandUrl(FIRST, to))
  })

  it('lands the browser on the new address: a performer, and the search a category moved to', async () => {
    await open(FIRST, '/performers')
    const performerHref = await page.locator('main .performer-card').first().getAttribute('href')
    expect(performerHref).toMatch(/^\/performers\/[a-z0-9-]+$/)
    const slug = performerHref!.split('/').pop()!
    await open(FIRST, `/models/${slug}`)
    expect(new URL(page.url()).pathname).toBe(`/performers/${slug}`)
    expect(await videoCards().count()).toBeGreaterThan(0)
    await screenshotAtBothWidths(page, 'tushy-performer-after-301')

    await open(FIRST, '/categories/red-dress')
    expect(new URL(page.url()).pathname).toBe('/search')
    await expectHeading('Search: red dress')
  })
})

describe('tenant features', () => {
  it('shows angels on vixen, which has them, and not-found on tushy, which does not', async () => {
    await open(SECOND, '/angels')
    await expectHeading('Angels')
    await screenshotAtBothWidths(page, 'vixen-angels')
    await open(FIRST, '/angels', 404)
    await expectHeading('Page Not Found')
    await screenshotAtBothWidths(page, 'tushy-angels-not-found')
  })

  it('sends a search on vixen (faceted search) to the category filter, and keeps it a search on tushy', async () => {
    await open(SECOND, '/videos?search=Outdoor')
    expect(new URL(page.url()).search).toBe('?categories=outdoor')
    await open(FIRST, '/videos?search=Outdoor')
    expect(new URL(page.url()).search).toBe('?search=Outdoor')
    await expectHeading('Videos: outdoor')
  })
})
