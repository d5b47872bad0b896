// The recommender's signals (product.md, "Recommendations"), sent by the front end as a member uses the
// site and read back from where the catalog records them: a click on a recommendation shelf and on the video page's
// cross-navigation shelf (with the shelf's recommId), and the reels' view, rating, delete rating, add and delete
// bookmark, and purchase (with email, userId, timestamp, item id and recommId). On vixen and on the shared members
// host. Screenshots at 360 px and 1440 px.
import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths } from './support/browser'
import { journeys } from './support/journey'
import { brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'
import { graphqlFromPage, literal, sqlColumn } from './support/server'

let page: Page

journeys((opened) => {
  page = opened.page
})

const EVENTUALLY = { timeout: 20_000, interval: 250 }

async function me(on: Page): Promise<{ userId: string; email: string }> {
  const answer = await graphqlFromPage<{ findOneUserProfile: { userId: string; email: string } }>(
    on,
    '{ findOneUserProfile { userId email } }',
  )
  if (!answer.data) throw new Error(JSON.stringify(answer.errors))
  return answer.data.findOneUserProfile
}

const clicks = (userId: string) =>
  sqlColumn(`select recomm_id || ' ' || element_clicked from catalog.recommendation_click where user_id = ${literal(userId)}`)

/** The reel events the catalog stored for a user, oldest first: action, rating, recommId. */
function reelEvents(userId: string): Array<{ action: string; rating?: number; recomm_id?: string; reel_id: string }> {
  return sqlColumn(
    `select payload::text from catalog.event where event_type = 'ReelTracked' and payload::text like ${literal(`%${userId}%`)} order by global_position`,
  )
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .map((payload) => (payload.payload ?? payload) as { action: string; rating?: number; recomm_id?: string; reel_id: string })
}

/** Clicks the first card of a shelf and checks the tracking call the page sent for it. */
async function clickTracked(shelf: ReturnType<Page['locator']>, who: { userId: string; email: string }) {
  const recommId = await shelf.getAttribute('data-recomm-id')
  expect(recommId).toBeTruthy()
  const card = shelf.locator('a[href]').first()
  const href = (await card.getAttribute('href')) ?? ''
  const [request] = await Promise.all([
    page.waitForRequest((r: Request) => r.url().endsWith('/recommendations-tracking') && r.method() === 'POST'),
    card.click(),
  ])
  const body = request.postDataJSON() as Record<string, unknown>
  expect(body).toMatchObject({ email: who.email, userId: who.userId, recommId })
  expect(typeof body.elementClicked).toBe('string')
  expect((await request.response())?.status()).toBe(200)
  return { recommId: recommId!, elementClicked: String(body.elementClicked), href }
}

async function recommendationsOn(brand: string, login: string) {
  await signIn(page, login, brand, '/')
  await dismissWelcomeModals(page)
  const who = await me(page)
  const before = clicks(who.userId).length
  const home = page.locator('.recommendation-grid').first()
  await home.waitFor()
  const first = await clickTracked(home, who)
  await page.waitForURL((url) => url.pathname === first.href)
  await expect.poll(() => clicks(who.userId), EVENTUALLY).toContain(`${first.recommId} ${first.elementClicked}`)

  // The video page's cross-navigation shelf: this brand's and its sister sites' videos.
  const shelf = page.getByRole('region', { name: 'More from our sites' })
  await shelf.waitFor({ timeout: 20_000 })
  await shelf.scrollIntoViewIfNeeded()
  await screenshotAtBothWidths(page, `cross-navigation-shelf-${brand}`)
  const cross = await clickTracked(shelf.locator('.recommendation-grid'), who)
  expect(cross.recommId).not.toBe(first.recommId)
  await page.waitForURL((url) => url.pathname === cross.href)
  await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).not.toBe('Page Not Found')
  await expect.poll(() => clicks(who.userId).length, EVENTUALLY).toBe(before + 2)
  expect(clicks(who.userId)).toContain(`${cross.recommId} ${cross.elementClicked}`)
}

describe('a member following recommendations', () => {
  it(`is tracked on the home shelf and the cross-navigation shelf, on ${DEMO_BRAND}`, async () => {
    await recommendationsOn(DEMO_BRAND, 'member')
  })

  it('is tracked on the home shelf and the cross-navigation shelf, on vixenplus through the shared members host', async () => {
    await recommendationsOn('vixenplus', 'tandemparent')
  })
})

describe('a member watching quickies', () => {
  it('sends the view, rating, rating removal, bookmark and bookmark removal, on vixenplus through the shared members host', async () => {
    await signIn(page, 'moderator', 'vixenplus', '/quickies')
    await dismissWelcomeModals(page)
    const who = await me(page)
    await page.locator('main ul[aria-label="Quickies"] a').first().click()
    const actions = page.getByTestId('reel-actions')
    await actions.waitFor()
    const reelId = new URL(page.url()).pathname.split('/').pop()!
    await expect.poll(() => reelEvents(who.userId).filter((e) => e.reel_id === reelId).map((e) => e.action), EVENTUALLY).toEqual(['view'])

    await actions.getByRole('button', { name: /^Bookmark/ }).click()
    await actions.getByRole('button', { name: /^Remove bookmark \(\d+\)/ }).waitFor()
    await actions.getByLabel('Your rating').selectOption('7')
    await actions.getByRole('button', { name: 'Rate' }).click()
    await actions.getByText('You rated it 7.').waitFor()
    expect(sqlColumn(`select rating from catalog.reel_rating where user_id = ${literal(who.userId)} and reel_id = ${literal(reelId)}`)).toEqual(['7'])
    expect(sqlColumn(`select count(*) from catalog.reel_bookmark where user_id = ${literal(who.userId)} and reel_id = ${literal(reelId)}`)).toEqual(['1'])
    await screenshotAtBothWidths(page, 'quickie-rated-bookmarked')

    await actions.getByRole('button', { name: 'Remove my rating' }).click()
    await actions.getByText('Your rating is removed.').waitFor()
    await actions.getByRole('button', { name: /^Remove bookmark/ }).click()
    await actions.getByRole('button', { name: /^Bookmark \(\d+\)/ }).waitFor()
    await expect
      .poll(() => reelEvents(who.userId).filter((e) => e.reel_id === reelId).map((e) => e.action), EVENTUALLY)
      .toEqual(['view', 'add_bookmark', 'rating', 'delete_rating', 'delete_bookmark'])
    expect(reelEvents(who.userId).find((e) => e.action === 'rating')?.rating).toBe(7)
    expect(sqlColumn(`select count(*) from catalog.reel_rating where user_id = ${literal(who.userId)} and reel_id = ${literal(reelId)}`)).toEqual(['0'])
    expect(sqlColumn(`select count(*) from catalog.reel_bookmark where user_id = ${literal(who.userId)} and reel_id = ${literal(reelId)}`)).toEqual(['0'])
  })

  it(`sends the purchase when a pay-per-video member unlocks the reel's video, on ${DEMO_BRAND}`, async () => {
    await signIn(page, 'ppv', DEMO_BRAND, '/quickies')
    await dismissWelcomeModals(page)
    const who = await me(page)
    const reels = page.locator('main ul[aria-label="Quickies"] a')
    await reels.first().waitFor()
    // The last reel of the page: the other journeys unlock videos from the top of the lists.
    await reels.last().click()
    const actions = page.getByTestId('reel-actions')
    await actions.waitFor()
    const reelId = new URL(page.url()).pathname.split('/').pop()!
    await actions.getByRole('button', { name: 'Unlock the full video' }).click()
    const unlock = page.getByRole('dialog')
    await unlock.getByRole('button', { name: /^Unlock for 1 credit/ }).click()
    await unlock.getByText(/is unlocked for good/).waitFor()
    await screenshotAtBothWidths(page, 'quickie-unlocked')
    await expect
      .poll(() => reelEvents(who.userId).filter((e) => e.reel_id === reelId).map((e) => e.action), EVENTUALLY)
      .toEqual(expect.arrayContaining(['view', 'purchase']))
    expect(reelEvents(who.userId).filter((e) => e.reel_id === reelId && e.action === 'purchase')).toHaveLength(1)
    expect(sqlColumn(`select purchases > 0 from catalog.reel where reel_id = ${literal(reelId)}`)).toEqual(['t'])
    await page.goto(brandUrl(DEMO_BRAND, '/'), { waitUntil: 'networkidle' })
  })
})
