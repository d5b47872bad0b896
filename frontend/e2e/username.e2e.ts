// The username selection screen (product.md, "Account and profile"): a member without a permanent
// username (the demo user "newcomer", who signs in with the e-mail) chooses one on /account/username. The form and
// the server both say 'invalid username' and 'already taken'; once chosen it is permanent. The server's answer is
// read back on the members host and on the brand. Screenshots at 360 px and 1440 px.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandUrl } from './support/gateway'
import { DEMO_BRAND, dismissWelcomeModals, SETTLE, signIn } from './support/members'
import { graphqlFromPage } from './support/server'

let browser: Browser
let page: Page

journeys((opened) => {
  browser = opened.browser
  page = opened.page
})

async function username(on: Page): Promise<string | null> {
  const answer = await graphqlFromPage<{ findOneUserProfile: { username: string | null } }>(on, '{ findOneUserProfile { username } }')
  if (!answer.data) throw new Error(JSON.stringify(answer.errors))
  return answer.data.findOneUserProfile.username
}

const chosen = () => `nc${Date.now().toString(36).slice(-8)}`

describe('a member without a username', () => {
  it('chooses one, meeting the rule and a taken name on the way, and keeps it for good', async () => {
    // On the members host: the account page offers the choice.
    await signIn(page, 'newcomer@paysite.test', 'vixenplus', '/account')
    await dismissWelcomeModals(page)
    expect(await username(page)).toBeNull()
    await page.getByRole('link', { name: 'Choose your username' }).click()
    await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toBe('Choose your username')
    expect(new URL(page.url()).pathname).toBe('/account/username')
    const field = page.getByLabel('Username')
    const submit = page.getByRole('button', { name: 'Choose this username' })
    const error = page.locator('main').getByRole('alert')

    // The form's rule: 3 to 20 lower-case letters and digits.
    await field.fill('No Way!')
    await submit.click()
    await expect.poll(() => error.textContent(), SETTLE).toBe('invalid username')
    // The server's: a name someone has.
    await field.fill('member')
    await submit.click()
    await expect.poll(() => error.textContent(), SETTLE).toBe('already taken')
    expect(await username(page)).toBeNull()
    await screenshotAtBothWidths(page, 'username-taken')

    const name = chosen()
    await field.fill(name)
    await Promise.all([page.waitForURL((url) => url.pathname === '/account'), submit.click()])
    await dismissWelcomeModals(page)
    await expect.poll(() => page.getByTestId('account-username').textContent(), SETTLE).toBe(name)
    expect(await username(page)).toBe(name)
    await screenshotAtBothWidths(page, 'username-chosen')

    // On the brand: the same username; the screen now says it is permanent, and the server refuses a change.
    const brand = await visitorContext(browser)
    const onBrand = await brand.newPage()
    try {
      await signIn(onBrand, name, DEMO_BRAND, '/account/username')
      await dismissWelcomeModals(onBrand)
      await expect.poll(() => onBrand.getByTestId('chosen-username').textContent(), SETTLE).toBe(name)
      await onBrand.getByText('A username is permanent once chosen.').waitFor()
      const change = await graphqlFromPage(onBrand, 'mutation { chooseUsername(username: "another1") { username } }')
      expect(change.errors?.[0]?.extensions?.code).toBe('USERNAME_PERMANENT')
      expect(await username(onBrand)).toBe(name)
      await screenshotAtBothWidths(onBrand, 'username-permanent')
      await onBrand.goto(brandUrl(DEMO_BRAND, '/account'), { waitUntil: 'networkidle' })
      await dismissWelcomeModals(onBrand)
      expect(await onBrand.getByRole('link', { name: 'Choose your username' }).count()).toBe(0)
    } finally {
      await brand.close()
    }
  })
})
