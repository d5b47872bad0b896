// The promotional video teaser (product.md, "Modals and flashes"): it opens when the tenant has it on,
// the user has not viewed it and is not a guest. The demo user "teaser" has not seen it: not on the shared members
// host (its tenant has the teaser off), then on vixen (on), where showing it records it as viewed, so tushy (on)
// does not show it again. The server's flag is read after each step. Screenshots at 360 px and 1440 px.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { SETTLE, signIn } from './support/members'
import { graphqlFromPage } from './support/server'

let browser: Browser
let page: Page

journeys((opened) => {
  browser = opened.browser
  page = opened.page
})

const TEASER = 'Something new for you'

async function teaserViewed(on: Page): Promise<boolean> {
  const answer = await graphqlFromPage<{ findOneUserProfile: { state: { modals: { teaserViewed: boolean } } } }>(
    on,
    '{ findOneUserProfile { state { modals { teaserViewed } } } }',
  )
  if (!answer.data) throw new Error(JSON.stringify(answer.errors))
  return answer.data.findOneUserProfile.state.modals.teaserViewed
}

describe('the demo user who has not seen the teaser', () => {
  it('sees it once, where the tenant has it on, and follows it to the new releases', async () => {
    // The members host's tenant (vixenplus) has the teaser off: nothing opens, nothing is recorded.
    await signIn(page, 'teaser', 'vixenplus', '/')
    await page.waitForTimeout(800)
    expect(await page.getByRole('dialog', { name: TEASER }).count()).toBe(0)
    expect(await teaserViewed(page)).toBe(false)

    // vixen has it on: it opens by itself, and showing it records it.
    const vixen = await visitorContext(browser)
    const onVixen = await vixen.newPage()
    try {
      await signIn(onVixen, 'teaser', 'vixen', '/')
      const teaser = onVixen.getByRole('dialog', { name: TEASER })
      await teaser.getByText(/New this week/).waitFor()
      await screenshotAtBothWidths(onVixen, 'teaser-vixen')
      await expect.poll(() => teaserViewed(onVixen), SETTLE).toBe(true)
      await Promise.all([
        onVixen.waitForURL((url) => url.pathname === '/videos'),
        teaser.getByRole('link', { name: 'Watch the new releases' }).click(),
      ])
      await expect.poll(() => onVixen.locator('main h1').first().textContent(), SETTLE).toBe('Videos')
      expect(await onVixen.getByRole('dialog', { name: TEASER }).count()).toBe(0)
      await onVixen.reload({ waitUntil: 'networkidle' })
      await onVixen.waitForTimeout(800)
      expect(await onVixen.getByRole('dialog', { name: TEASER }).count()).toBe(0)
      await screenshotAtBothWidths(onVixen, 'teaser-followed')
    } finally {
      await vixen.close()
    }

    // tushy has it on too, but it has been viewed.
    const tushy = await visitorContext(browser)
    const onTushy = await tushy.newPage()
    try {
      await signIn(onTushy, 'teaser', 'tushy', '/')
      await onTushy.waitForTimeout(800)
      expect(await onTushy.getByRole('dialog', { name: TEASER }).count()).toBe(0)
      expect(await teaserViewed(onTushy)).toBe(true)
    } finally {
      await tushy.close()
    }
  })
})
