// An affiliate's `ujc` code from the landing to the recorded sale (product.md, "Analytics and affiliates"): a `?ujc=`
// landing keeps the code in aff_code_single and aff_code_multi, the brand's "Join now" carries it to the members host's
// join form, the form sends it with the join, the biller's payment page gets it, and the biller's postback records the
// sale with it: the single-site code for a brand's own option, the multisite code for the network package. The sale
// is read from the subscription service's own table (scripts/e2e gives the scratch database as E2E_DATABASE_URL).
import { execFileSync } from 'node:child_process'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { SETTLE } from './support/members'

let context: BrowserContext
let page: Page

journeys((opened) => {
  ;({ context, page } = opened)
})

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

/** The affiliate value the subscription service recorded for the sale of the signup with `email`. */
function recordedSale(email: string): string {
  const database = process.env.E2E_DATABASE_URL
  if (!database) throw new Error('E2E_DATABASE_URL is not set (scripts/e2e sets it)')
  const sql = `select coalesce(m.nats_code, '(none)') from subscription.member_subscription m
               join subscription.signup s on s.user_id = m.user_id where s.email = '${email.replace(/'/g, "''")}'`
  return execFileSync('psql', [database, '-At', '-c', sql], { encoding: 'utf8' }).trim()
}

/** The join form, its option chosen, filled in; then the biller's page and its approval. */
async function joinAndApprove(email: string, username: string, affiliate: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill('Secret12345')
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 20_000 }),
    page.getByRole('button', { name: 'Continue to payment' }).click(),
  ])
  // The biller's payment page carries the code to the postback.
  expect(new URL(page.url()).searchParams.get('nats')).toBe(affiliate)
  await screenshotAtBothWidths(page, `affiliate-biller-${affiliate.startsWith('M') ? 'multi' : 'single'}`)
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith('/pay/'), { timeout: 30_000 }),
    page.getByRole('button', { name: 'Approve' }).click(),
  ])
}

describe('an affiliate code', () => {
  it('from a ujc landing on a brand reaches the members join, the biller and the sale (single-site)', async () => {
    const id = unique()
    const code = `AFF-${id}`
    await page.goto(brandUrl('tushy', `/?ujc=${code}`), { waitUntil: 'networkidle' })
    const kept = await context.cookies(brandOrigin('tushy'))
    expect(kept.find((c) => c.name === 'aff_code_single')?.value).toBe(code)
    expect(kept.find((c) => c.name === 'aff_code_multi')?.value).toBe(code)
    // Another page of the brand later: the code rides on its join link.
    await page.goto(brandUrl('tushy', '/videos'), { waitUntil: 'networkidle' })
    await Promise.all([
      page.waitForURL((url) => url.origin === brandOrigin('members') && url.pathname === '/joinnow'),
      page.locator('header a', { hasText: 'Join now' }).click(),
    ])
    const join = new URL(page.url())
    expect([join.searchParams.get('aff_code_single'), join.searchParams.get('aff_code_multi')]).toEqual([code, code])
    // tushy's own monthly option (the shared members host sells the brand the join came from) is a single-site sale.
    await page.locator('label.join__option', { hasNotText: 'Every site of the network' }).first().locator('input').check()
    const email = `aff-single-${id}@example.com`
    await joinAndApprove(email, `affs${id}`, code)
    await expect.poll(() => recordedSale(email), { timeout: 30_000, interval: 500 }).toBe(code)
  })

  it('from a ujc landing on the members host is credited as the multisite code for the network package', async () => {
    const id = unique()
    const code = `MAFF-${id}`
    await page.goto(`${brandOrigin('members')}/joinnow?ujc=${code}&ref=home&elm=header`, { waitUntil: 'networkidle' })
    await expect.poll(() => page.locator('main h1').first().textContent(), SETTLE).toMatch(/^Join /)
    const kept = await context.cookies(brandOrigin('members'))
    expect(kept.find((c) => c.name === 'aff_code_multi')?.value).toBe(code)
    await page.locator('label.join__option', { hasText: 'Every site of the network' }).first().locator('input').check()
    const email = `aff-multi-${id}@example.com`
    await joinAndApprove(email, `affm${id}`, code)
    await expect.poll(() => recordedSale(email), { timeout: 30_000, interval: 500 }).toBe(code)
  })
})
