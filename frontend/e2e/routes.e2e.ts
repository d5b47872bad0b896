// The route table's journeys, against the real stack: the members host's login as a full page load, /joinnow
// signed in landing once, /awards at its bounds, a refused picture set with its way in, a visitor's trailer playing,
// and the 404 and 500 pages inside the brand's shell with the error reported. Screenshots at 360 px and 1440 px
// (e2e-artifacts/screenshots).
import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths } from './support/browser'
import { journeys } from './support/journey'
import { brandGet, brandOrigin, brandUrl, GATEWAY } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'
import { graphqlOperation } from './support/server'

let page: Page

journeys((opened) => {
  page = opened.page
})

const VISITOR_BRAND = GATEWAY.hostname.split('.')[0]!
const heading = () => page.locator('main h1').first()
const dialog = () => page.getByRole('dialog')
const errorScreen = () => page.getByText('Something went wrong! We are working to fix this as soon as possible.')

/** A GraphQL answer as the page gets it (same origin, its cookies). */
async function graphql<TData = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}) {
  return page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({ query, variables }),
      })
      return (await response.json()) as { data?: TData; errors?: Array<{ message: string; extensions?: { code?: string } }> }
    },
    { query, variables },
  )
}

/** The first of `slugs` whose picture set the server refuses this user (FORBIDDEN, not NOT_FOUND). */
async function refusedPictureSet(slugs: string[]): Promise<string> {
  for (const slug of slugs) {
    const answer = await graphql('query($slug: String!) { getPictureSet(videoSlug: $slug) { videoSlug } }', { slug })
    if (answer.errors?.[0]?.extensions?.code === 'FORBIDDEN') return slug
  }
  throw new Error(`no refused picture set among ${slugs.length} videos`)
}

/** Document loads of the main frame from now on (a redirect chain is one load). */
function countLoads(): string[] {
  const loads: string[] = []
  page.on('load', () => loads.push(page.url()))
  return loads
}

describe('the security headers', () => {
  it('come with every page and asset, and the page runs under its policy on a brand and on the members host', async () => {
    for (const url of [brandUrl(VISITOR_BRAND, '/videos'), brandUrl('members', '/')]) {
      const assets: Record<string, string>[] = []
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response.headers())
      })
      const response = await page.goto(url)
      const headers = response!.headers()
      expect(headers['content-security-policy']).toContain("script-src 'self'")
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(headers['content-security-policy']).not.toContain('unsafe-inline')
      expect(headers['x-content-type-options']).toBe('nosniff')
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      await expect.poll(() => page.locator('header').first().isVisible(), SETTLE).toBe(true)
      expect(assets.length).toBeGreaterThan(0)
      for (const asset of assets) expect(asset['x-content-type-options']).toBe('nosniff')
      page.removeAllListeners('response')
    }
  })
})

describe('the members host', () => {
  it('sends a signed-out visitor on /account to the sign-in form, as a full page load that shows the form', async () => {
    const members = 'members'
    const edge = await brandGet(members, '/account?tab=profile')
    expect(edge.status).toBe(302)
    expect(String(edge.headers.location)).toContain('/oidc/login?uri=')
    const loads = countLoads()
    await page.goto(`${brandOrigin(members)}/account?tab=profile`, { waitUntil: 'networkidle' })
    const url = new URL(page.url())
    expect(url.pathname).toBe('/oidc/login')
    expect(new URL(url.searchParams.get('uri') ?? '', url.origin).pathname).toBe('/account')
    expect(url.searchParams.get('uri')).toContain('tab=profile')
    await page.locator('#username').waitFor()
    await page.locator('#password').waitFor()
    expect(await page.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(0)
    expect(loads.length).toBe(1)
    await screenshotAtBothWidths(page, 'routes-members-login')
  })
})

describe('/joinnow signed in', () => {
  it('lands once on the home page with from=joinnow, and stays', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/')
    await dismissWelcomeModals(page)
    const loads = countLoads()
    const documents: string[] = []
    page.on('request', (request: Request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url())
    })
    await page.goto(brandUrl(DEMO_BRAND, '/joinnow'), { waitUntil: 'networkidle' })
    // Long enough for a reload loop to show itself (it made 24 to 28 loads in 18 s).
    await page.waitForTimeout(8_000)
    const settled = page.url()
    await page.waitForTimeout(4_000)
    expect(page.url()).toBe(settled)
    const final = new URL(settled)
    expect(final.pathname).toBe('/')
    // The landing, and at most the one reload after the subscription-status actions (which drops from=joinnow).
    expect(loads.length, loads.join('\n')).toBeLessThanOrEqual(2)
    expect(new URL(loads[0]!).searchParams.get('from')).toBe('joinnow')
    expect(documents.filter((url) => new URL(url).pathname === '/joinnow')).toHaveLength(1)
    await heading().waitFor()
    await screenshotAtBothWidths(page, 'routes-joinnow-signed-in')
  })
})

describe('/awards', () => {
  const LAST_PAGE = 715_827_882

  it('shows its first and its last allowed page, and moves a page past the bound to /awards', async () => {
    await page.goto(brandUrl(DEMO_BRAND, '/awards'), { waitUntil: 'networkidle' })
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Awards')
    expect(await page.locator('main .video-card').count()).toBeGreaterThan(0)

    const asked: Array<{ variables: unknown; errors: unknown }> = []
    page.on('response', async (response) => {
      const operation = graphqlOperation(response.request())
      if (operation?.operationName === 'AwardedVideos') {
        const answer = (await response.json().catch(() => ({}))) as { errors?: unknown }
        asked.push({ variables: operation.variables, errors: answer.errors })
      }
    })
    const last = await page.goto(brandUrl(DEMO_BRAND, `/awards?page=${LAST_PAGE}`), { waitUntil: 'networkidle' })
    expect(last?.status()).toBe(200)
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Awards')
    expect(await errorScreen().count()).toBe(0)
    await page.getByText('No award winners yet.').waitFor()
    expect(asked).toContainEqual({ variables: { page: LAST_PAGE, first: 12 }, errors: undefined })
    await screenshotAtBothWidths(page, 'routes-awards-last-page')

    const past = await brandGet(DEMO_BRAND, `/awards?page=${LAST_PAGE + 1}`)
    expect(past.status).toBe(302)
    expect(past.headers.location).toBe('/awards')
    await page.goto(brandUrl(DEMO_BRAND, `/awards?page=${LAST_PAGE + 1}`), { waitUntil: 'networkidle' })
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/awards')
    await expect.poll(() => page.locator('main .video-card').count(), SETTLE).toBeGreaterThan(0)

    // The server checks the bounds itself: a skip past 32 bits is the caller's mistake, never an internal error.
    const overflow = await graphql('{ getAwardedVideos(skip: 8589934572) { totalCount } }')
    expect(overflow.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT')
  })
})

describe('a refused picture set', () => {
  it('in a channel pack a member has not unlocked: the locked page, and the unlock-channel modal over it', async () => {
    await signIn(page, 'member', DEMO_BRAND, '/channels')
    await dismissWelcomeModals(page)
    const listing = await graphql<{ channelVideos: { videos: { slug: string }[] } }>('{ channelVideos(channelSlug: "behind-the-lens", size: 50) { videos { slug } } }')
    const slug = await refusedPictureSet((listing.data?.channelVideos.videos ?? []).map((v: { slug: string }) => v.slug))
    await page.goto(brandUrl(DEMO_BRAND, `/channels/behind-the-lens/picturesets/${slug}`), { waitUntil: 'networkidle' })
    const locked = page.getByTestId('locked-page')
    await locked.waitFor()
    expect(await locked.textContent()).toContain('is not part of your membership yet.')
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Unlock channel')
    expect(await errorScreen().count()).toBe(0)
    await screenshotAtBothWidths(page, 'routes-refused-pictureset-channel')
    // Closed, the way in stays on the page.
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog().count(), SETTLE).toBe(0)
    await locked.getByRole('button', { name: 'Unlock the channel pack' }).waitFor()
  })

  it('on a brand the membership does not cover (milfy): the locked page, and the purchase modal over it', async () => {
    await signIn(page, 'member', 'milfy', '/')
    await dismissWelcomeModals(page)
    const listing = await graphql<{ videos: { videos: { slug: string }[] } }>('{ videos(size: 50) { videos { slug } } }')
    const slug = await refusedPictureSet((listing.data?.videos.videos ?? []).map((v: { slug: string }) => v.slug))
    await page.goto(brandUrl('milfy', `/pictureset/${slug}`), { waitUntil: 'networkidle' })
    const locked = page.getByTestId('locked-page')
    await locked.waitFor()
    await expect.poll(() => dialog().locator('.modal__title').textContent(), SETTLE).toBe('Join now')
    expect(await errorScreen().count()).toBe(0)
    await screenshotAtBothWidths(page, 'routes-refused-pictureset-milfy')
  })
})

describe("a visitor's trailer", () => {
  /** Waits until the clip has decoded frames and its clock moves. */
  async function expectPlaying(selector: string) {
    await page.locator(selector).waitFor()
    await page.evaluate(async (selector) => {
      const video = document.querySelector<HTMLVideoElement>(selector)!
      video.muted = true
      await video.play().catch(() => undefined)
    }, selector)
    await expect
      .poll(
        () =>
          page.evaluate((selector) => {
            const video = document.querySelector<HTMLVideoElement>(selector)!
            return { error: video.error?.code ?? null, ready: video.readyState >= 2, moving: video.currentTime > 0 }
          }, selector),
        SETTLE,
      )
      .toEqual({ error: null, ready: true, moving: true })
  }

  it('plays on /trailer/{slug} and on the video page, while the full video stays locked', async () => {
    const media: string[] = []
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.startsWith('/media/videos/') || path.startsWith('/media/trailers/')) media.push(path)
    })
    await page.goto(brandUrl(VISITOR_BRAND, '/videos'), { waitUntil: 'networkidle' })
    const href = (await page.locator('main .video-card a').first().getAttribute('href')) ?? ''
    const slug = href.split('/').pop() ?? ''
    const trailer = await page.goto(brandUrl(VISITOR_BRAND, `/trailer/${slug}`), { waitUntil: 'networkidle' })
    expect(trailer?.status()).toBe(200)
    const clip = '[data-testid="trailer"] video'
    expect(await page.locator(clip).getAttribute('src')).toBe(`/media/trailers/${slug}.mp4`)
    await expectPlaying(clip)
    await screenshotAtBothWidths(page, 'routes-visitor-trailer')

    await page.goto(brandUrl(VISITOR_BRAND, `/videos/${slug}`), { waitUntil: 'networkidle' })
    expect(await page.locator(clip).getAttribute('src')).toBe(`/media/trailers/${slug}.mp4`)
    await expectPlaying(clip)
    await page.getByText(/to watch the full video/).waitFor()
    expect(media.filter((path) => path.startsWith('/media/videos/'))).toEqual([])
    expect(media.some((path) => path === `/media/trailers/${slug}.mp4`)).toBe(true)
    const full = await graphql<{ getVideo: { video: { qualities: string[] } } }>('query($slug: String!) { getVideo(videoSlug: $slug) { video { qualities } } }', { slug })
    expect(full.data?.getVideo.video.qualities).toEqual([])
    await screenshotAtBothWidths(page, 'routes-visitor-video-page')
  })
})

describe('the error screens', () => {
  async function expectInsideShell() {
    await page.locator('header.site-header').waitFor()
    await page.locator('footer.site-footer').waitFor()
    expect(await page.evaluate(() => document.documentElement.dataset.brand)).toBe(VISITOR_BRAND)
  }

  it('shows the 404 page inside the brand’s shell, answered 404 at the edge', async () => {
    const response = await page.goto(brandUrl(VISITOR_BRAND, '/no-such-page'), { waitUntil: 'networkidle' })
    expect(response?.status()).toBe(404)
    await expect.poll(() => heading().textContent(), SETTLE).toBe('Page Not Found')
    await expectInsideShell()
    const home = page.locator('main').getByRole('link', { name: 'Go Home' })
    expect(await home.getAttribute('class')).toContain('button')
    await screenshotAtBothWidths(page, 'routes-404')
    await home.click()
    await page.waitForURL((url) => url.pathname === '/')
  })

  it('shows the 500 page inside the shell with its text and buttons (product.md, "Route errors and the error screen"), and reports the error under its report id', async () => {
    const reports: Array<{ body: Record<string, unknown>; id: string; status: number }> = []
    page.on('response', async (response) => {
      const request = response.request()
      if (!response.url().endsWith('/api/analytics/events')) return
      const body = JSON.parse(request.postData() ?? '{}') as Record<string, unknown>
      if (body.event === 'error') reports.push({ body, id: request.headers()['x-correlation-id'] ?? '', status: response.status() })
    })
    // A confirmation whose link is missing: the error of product.md, "Deals, offers and upsells" ('Outgoing upsell - Confirmation link is missing').
    await page.goto(brandUrl(VISITOR_BRAND, '/deals?confirmation=bm90LWpzb24'), { waitUntil: 'networkidle' })
    await errorScreen().waitFor()
    await expectInsideShell()
    await page.getByRole('button', { name: 'Go Home' }).waitFor()
    const fill = page.getByRole('button', { name: 'Fill a report' })
    await fill.waitFor()
    await expect.poll(() => reports.length, SETTLE).toBe(1)
    expect(reports[0]).toMatchObject({
      status: 204,
      body: { label: 'Error 500', message: 'Outgoing upsell - Confirmation link is missing', path: '/deals' },
    })
    expect(reports[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
    await screenshotAtBothWidths(page, 'routes-500')
    await fill.click()
    await page.waitForURL((url) => url.pathname === '/support')
    expect(new URL(page.url()).searchParams.get('errorReportId')).toBe(reports[0]!.id)
    await page.getByRole('status').filter({ hasText: reports[0]!.id }).waitFor()
  })
})
