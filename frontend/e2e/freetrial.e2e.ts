// The free limited trial (product.md, "Unlocks": 3 full videos; docs/decisions/access/free-trial-videos-user-video-together.md), as a new user meets it on two brands, tushy and vixenplus
// (the combined brand, joined through the shared members host): the trial bar links to "Free for your trial", the
// trial's own videos (the home page has a shelf of them too); only those are marked, never another brand's flagged
// videos the combined brand lists; the video page offers each as one of the 3 free ones ("N left"), UnlockVideo opens
// it and it plays in full; a fourth is refused with the trial's own message, never a shortage of credits, and after 3
// the page says 'limited trial expired' and offers the upgrade. A refused playback says why and offers the step that
// fits (reactivate for a lapsed member), never a purchase. Screenshots in e2e-artifacts/screenshots.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { graphql, join } from './support/join'
import { dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let page: Page

journeys((opened) => {
  ;({ browser, page } = opened)
})

const FREE_LEFT = '{ unlockState { freeLimitedTrialVideosLeft } }'
const ACCESS = 'query($ids: [ID!]!) { videoAccess(videoIds: $ids) { denied deniedReason access freeForYourTrial } }'
const LISTING = '{ videos(page: 1, size: 48) { videos { uuid newId site isFreeLimitedTrial freeForYourTrial } } }'
const UNLOCK = 'mutation($input: UnlockVideoInput!) { UnlockVideo(input: $input) { paidWith } }'
const MARK = 'Free for your trial'

type Refusal = { errors?: { message: string; extensions?: { code?: string } }[] }
type Listed = { uuid: string; newId: string; site: string; isFreeLimitedTrial: boolean; freeForYourTrial: boolean }

/** The video page's player plays the video itself (a media URL the server answers with its bytes). */
async function playsInFull(p: Page): Promise<void> {
  const player = p.locator('main video.player__media')
  await expect.poll(() => player.getAttribute('src'), SETTLE).toMatch(/\/media\/videos\//)
  const url = new URL((await player.getAttribute('src'))!, p.url()).toString()
  const status = await p.evaluate(
    async (u) => (await fetch(u, { headers: { range: 'bytes=0-1023' }, credentials: 'include' })).status,
    url,
  )
  expect(status).toBe(206)
}

async function leftOf(p: Page): Promise<number> {
  return (await graphql<{ data: { unlockState: { freeLimitedTrialVideosLeft: number } } }>(p, FREE_LEFT)).data.unlockState
    .freeLimitedTrialVideosLeft
}

/** The video page's offer of a free video, taken through its dialog; the dialog's answer is returned as it reads. */
async function takeFreeVideo(p: Page, left: number): Promise<ReturnType<Page['getByRole']>> {
  await p.getByRole('button', { name: `Watch as a free video (${left} left)` }).click()
  const dialog = p.getByRole('dialog')
  await dialog.getByTestId('free-videos-left').waitFor()
  await dialog.getByRole('button', { name: 'Watch as a free video' }).click()
  return dialog
}

/** The free trial's journey on `brand`: the bar to the trial's videos, three of them in full, a fourth refused. */
async function spendTheFreeTrial(brand: string, shots: string): Promise<void> {
  await page.goto(brandUrl(brand, '/'), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(page)
  // The home page's shelf of the trial's videos, each marked.
  const shelf = page.locator('main section.shelf').filter({ has: page.getByRole('heading', { name: MARK }) })
  await shelf.waitFor()
  await expect.poll(() => shelf.locator('.video-card__badge', { hasText: MARK }).count(), SETTLE).toBeGreaterThanOrEqual(3)
  await screenshotAtBothWidths(page, `${shots}-home-shelf`)

  // The trial bar's link leads to "Free for your trial".
  const bar = page.getByTestId('upgrade-bar')
  await expect.poll(() => bar.textContent(), SETTLE).toContain('Your free trial includes 3 full videos.')
  await bar.getByRole('link', { name: 'See your free videos' }).click()
  await page.waitForURL(/\/free-trial-videos$/)
  await dismissWelcomeModals(page)
  const marked = page.locator('main .video-card').filter({ has: page.locator('.video-card__badge', { hasText: MARK }) })
  await expect.poll(() => marked.count(), SETTLE).toBeGreaterThanOrEqual(4)
  await expect.poll(() => page.getByTestId('free-trial-lead').textContent(), SETTLE).toContain('3 left.')
  await screenshotAtBothWidths(page, `${shots}-free-trial-videos`)
  const hrefs = await marked.locator('a.video-card__link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))
  expect(await leftOf(page)).toBe(3)

  // The mark is the user's and the video's together: on the listing, every marked video is one of the trial's (on
  // the combined brand, whose lists carry every brand's flagged videos, only its own), and some are on page 1.
  const listing = (await graphql<{ data: { videos: { videos: Listed[] } } }>(page, LISTING)).data.videos.videos
  const ownSite = brand
  expect(listing.filter((v) => v.freeForYourTrial).length).toBeGreaterThanOrEqual(2)
  for (const v of listing.filter((v) => v.freeForYourTrial)) expect(v).toMatchObject({ site: ownSite, isFreeLimitedTrial: true })
  const othersFlagged = listing.filter((v) => v.isFreeLimitedTrial && v.site !== ownSite)
  if (brand === 'vixenplus') {
    // Another brand's flagged video: not marked, and refused as another site's, never NOT_ENOUGH_CREDITS.
    expect(othersFlagged.length).toBeGreaterThan(0)
    expect(othersFlagged.every((v) => !v.freeForYourTrial)).toBe(true)
    const other = othersFlagged[0]!
    const refusal = await graphql<Refusal>(page, UNLOCK, { input: { videoId: other.uuid, videoNewId: other.newId } })
    expect(refusal.errors?.[0]?.extensions?.code).toBe('FREE_TRIAL_VIDEO_OF_ANOTHER_SITE')
    expect(refusal.errors?.[0]?.message).toContain('another site')
  }
  const unflagged = listing.find((v) => !v.isFreeLimitedTrial)!
  const notTrial = await graphql<Refusal>(page, UNLOCK, { input: { videoId: unflagged.uuid, videoNewId: unflagged.newId } })
  expect(notTrial.errors?.[0]?.extensions?.code).toBe('NOT_A_FREE_TRIAL_VIDEO')
  expect(await leftOf(page)).toBe(3)

  // The fourth of the trial's videos, opened beside the others while it is still offered.
  const fourth = await page.context().newPage()
  await fourth.goto(brandUrl(brand, hrefs[3]!), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(fourth)
  await expect.poll(() => fourth.locator('main .player__locked').getAttribute('data-step'), SETTLE).toBe('freeVideo')

  const taken: string[] = []
  for (const href of hrefs.slice(0, 3)) {
    const left = 3 - taken.length
    await page.goto(brandUrl(brand, href), { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    await page.locator('main .video-page__free-trial', { hasText: MARK }).waitFor()
    const locked = page.locator('main .player__locked')
    await expect.poll(() => locked.getAttribute('data-step'), SETTLE).toBe('freeVideo')
    await expect.poll(() => locked.textContent(), SETTLE).toContain(`as one of your 3 free videos: ${left} left.`)
    // The free video is the offer: no "Upgrade now" over its trailer beside it.
    expect(await page.getByTestId('upgrade-overlay').count()).toBe(0)
    if (taken.length === 0) await screenshotAtBothWidths(page, `${shots}-offer`)
    const dialog = await takeFreeVideo(page, left)
    const after = left - 1
    await dialog.getByText(`You have ${after} free ${after === 1 ? 'video' : 'videos'} left.`).waitFor()
    await dialog.getByRole('button', { name: 'Watch now' }).click()
    await playsInFull(page)
    if (taken.length === 0) await screenshotAtBothWidths(page, `${shots}-plays`)
    // The server counted it.
    expect(await leftOf(page)).toBe(after)
    taken.push(href)
  }
  expect(taken).toHaveLength(3)

  // The fourth, still offered on the page opened before, is refused with the trial's own message.
  await fourth.bringToFront()
  const refused = await takeFreeVideo(fourth, 3)
  const alert = refused.getByRole('alert')
  await expect.poll(() => alert.textContent(), SETTLE).toContain("Your free trial's 3 full videos are taken.")
  expect(await alert.textContent()).not.toMatch(/credits/i)
  await screenshotAtBothWidths(fourth, `${shots}-fourth-refused`)
  await fourth.close()

  // The three stay open for good: the first plays again.
  await page.goto(brandUrl(brand, taken[0]!), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(page)
  await playsInFull(page)

  // The fourth now: 'limited trial expired', and the upgrade; no longer marked.
  await page.goto(brandUrl(brand, hrefs[3]!), { waitUntil: 'networkidle' })
  await dismissWelcomeModals(page)
  const locked = page.locator('main .player__locked')
  await expect.poll(() => locked.textContent(), SETTLE).toContain('limited trial expired')
  expect(await page.locator('main .video-page__free-trial').count()).toBe(0)
  // Past the three, the upgrade is the way in, and where the brand has the upgrade overlay it offers it too.
  const overlay = await graphql<{ data: { tenantConfig: { features: { upgradeOverlay: boolean } } } }>(page, '{ tenantConfig }')
  const overlays = overlay.data.tenantConfig.features.upgradeOverlay ? 1 : 0
  await expect.poll(() => page.getByTestId('upgrade-overlay').count(), SETTLE).toBe(overlays)
  expect(await page.getByRole('button', { name: /Get full access|Watch as a free video/ }).count()).toBe(0)
  const uuid = await page.evaluate(async (slug) => {
    const response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
      body: JSON.stringify({ query: 'query($s: String!) { getVideo(videoSlug: $s) { video { uuid } } }', variables: { s: slug } }),
    })
    return ((await response.json()) as { data: { getVideo: { video: { uuid: string } } } }).data.getVideo.video.uuid
  }, new URL(page.url()).pathname.split('/').pop()!)
  const access = await graphql<{ data: { videoAccess: { denied: boolean; deniedReason: string; freeForYourTrial: boolean }[] } }>(
    page,
    ACCESS,
    { ids: [uuid] },
  )
  expect(access.data.videoAccess[0]).toMatchObject({ denied: true, deniedReason: 'free_trial_expired', freeForYourTrial: false })
  await page.getByRole('button', { name: 'Upgrade membership' }).click()
  const dialog = page.getByRole('dialog')
  await expect.poll(() => dialog.textContent(), SETTLE).toMatch(/Upgrade your trial to a full membership/)
  await screenshotAtBothWidths(page, `${shots}-expired-upgrade`)
}

describe('the free limited trial', () => {
  it('on tushy: the bar to the trial videos, three of them played in full, the fourth refused with its reason', async () => {
    const { brand } = await join(page, brandUrl('tushy', '/joinnow?ref=home&elm=header'), 'flttushy', 'Free limited trial')
    expect(brand).toBe('tushy')
    await spendTheFreeTrial(brand, 'freetrial-tushy')
  }, 180_000)

  it('on vixenplus, joined on the shared members host: only its own trial videos, the same three and the fourth', async () => {
    const { brand } = await join(page, `${brandOrigin('members')}/joinnow?ref=home&elm=header`, 'fltmembers', 'Free limited trial')
    expect(brand).toBe('vixenplus')
    await spendTheFreeTrial(brand, 'freetrial-vixenplus')
  }, 180_000)
})

describe('a refused playback', () => {
  it('tells a lapsed member why and offers reactivation, never "Get full access", on two brands', async () => {
    for (const origin of ['vixen', 'tushy']) {
      // Each brand in a browser of its own, as another device would be.
      const context = await visitorContext(browser)
      page = await context.newPage()
      await signIn(page, 'expired', origin, '/videos')
      await dismissWelcomeModals(page)
      // The expired user's automatic upgrade modal (product.md, "Modals and flashes") comes first; closing it leaves the page.
      const auto = page.getByRole('dialog')
      if ((await auto.count()) > 0) await page.keyboard.press('Escape')
      await page.locator('main .video-card a').first().click()
      await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
      await dismissWelcomeModals(page)
      if ((await page.getByRole('dialog').count()) > 0) await page.keyboard.press('Escape')
      const locked = page.locator('main .player__locked')
      await expect.poll(() => locked.getAttribute('data-step'), SETTLE).toBe('reactivate')
      expect(await locked.textContent()).toContain('Your membership has expired.')
      expect(await page.getByRole('button', { name: 'Get full access' }).count()).toBe(0)
      await page.getByRole('button', { name: 'Reactivate membership' }).click()
      await page.getByRole('dialog').waitFor()
      await screenshotAtBothWidths(page, `refused-playback-reactivate-${origin}`)
      await context.close()
    }
  })
})
