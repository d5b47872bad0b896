// The member's account journeys (product.md, "Account and profile"): the gems popup opened from the
// header's balance and from the account page, with the transactions newest first, while its automatic opening keeps
// the once-a-day rule; the change-password form with its three errors and the password rule, the password_changed
// notice and the other sessions ended; the display name beside the user's comments. On two brands, one through the
// shared members host. Screenshots in e2e-artifacts/screenshots.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { graphql, join, JOIN_PASSWORD, unique } from './support/join'
import { dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let page: Page

journeys((opened) => {
  ;({ browser, page } = opened)
})

interface Transaction {
  amount: number
  currency: string
  createdAt: string
  transactionType: string
}

const GEMS = '{ getGemsBalance { daysUntilRefreshGems wallet { balance { amount } } } getTransactions { amount currency createdAt transactionType } }'

/** Where `p` is: a brand's origin or the members host's. */
const originOf = (where: string) => (where === 'members' ? brandOrigin('members') : brandOrigin(where))

describe('the gems popup', () => {
  it.each([
    ['member', 'vixen'],
    ['multisite', 'vixenplus'],
  ])('opens for %s on %s from the header balance and the account page, with the transactions newest first', async (login, where) => {
    await signIn(page, login, where, '/')
    await dismissWelcomeModals(page)
    const server = await graphql<{ data: { getGemsBalance: { daysUntilRefreshGems: number; wallet: { balance: { amount: number } } }; getTransactions: Transaction[] } }>(
      page,
      GEMS,
    )
    const balance = server.data.getGemsBalance.wallet.balance.amount
    const entry = page.getByTestId('header-gems')
    await entry.waitFor()
    expect(await entry.getAttribute('aria-label')).toBe(`Your gems: ${balance} ${balance === 1 ? 'gem' : 'gems'}`)
    await entry.click()
    const dialog = page.getByRole('dialog')
    await dialog.locator('.modal__title', { hasText: 'Your gems' }).waitFor()
    await expect.poll(() => dialog.getByTestId('gems-balance').getAttribute('data-amount'), SETTLE).toBe(String(balance))
    const days = server.data.getGemsBalance.daysUntilRefreshGems
    expect(await dialog.getByTestId('days-until-gems').textContent()).toBe(`${days} ${days === 1 ? 'day' : 'days'}`)
    // The transactions, as the wallet answers them, newest first.
    const transactions = server.data.getTransactions
    expect(transactions.length).toBeGreaterThan(0)
    const times = transactions.map((transaction) => Date.parse(transaction.createdAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    const rows = dialog.locator('table.gems-transactions tbody tr')
    await expect.poll(() => rows.count(), SETTLE).toBe(transactions.length)
    const first = transactions[0]!
    // A debit or a forfeit takes gems away: shown with a minus, and the rows add up to the balance.
    const sign = (t: Transaction) => (t.transactionType === 'debit' || t.transactionType === 'forfeit' ? -1 : 1)
    expect(await rows.first().locator('td').last().textContent()).toBe(
      `${sign(first) < 0 ? '−' : '+'}${Math.abs(first.amount)}`,
    )
    const gems = transactions.filter((t) => t.currency === 'gems')
    expect(gems.reduce((sum, t) => sum + sign(t) * Math.abs(t.amount), 0)).toBe(balance)
    await screenshotAtBothWidths(page, `gems-popup-${where}`)
    await dialog.getByRole('button', { name: 'Got it' }).click()
    await expect.poll(() => page.getByRole('dialog').count(), SETTLE).toBe(0)

    // The account page's door back.
    await page.goto(`${originOf(where)}/account`, { waitUntil: 'networkidle' })
    await page.getByTestId('account-gems').waitFor()
    expect(await page.getByTestId('account-gems').textContent()).toContain(`You have ${balance} ${balance === 1 ? 'gem' : 'gems'}.`)
    await page.getByRole('button', { name: 'See my gems and transactions' }).click()
    await page.getByRole('dialog').locator('.modal__title', { hasText: 'Your gems' }).waitFor()
    await page.getByRole('dialog').getByRole('button', { name: 'Got it' }).click()

    // The automatic opening still keeps its once-a-day rule: a new page load opens nothing by itself.
    await page.goto(`${originOf(where)}/`, { waitUntil: 'networkidle' })
    await page.waitForTimeout(1_000)
    expect(await page.getByRole('dialog').locator('.modal__title', { hasText: 'Your gems' }).count()).toBe(0)
  })
})

/** Signs `login` in with `password` on `where` in a new context of its own (another device). */
async function otherSession(where: string, login: string, password: string): Promise<{ context: BrowserContext; other: Page }> {
  const context = await visitorContext(browser)
  const other = await context.newPage()
  await signIn(other, login, where, '/', password)
  return { context, other }
}

const WHOAMI = '{ findOneUserProfile { username } }'
const codesOf = (body: { errors?: { extensions?: { code?: string } }[] }) => (body.errors ?? []).map((e) => e.extensions?.code ?? '')

describe('changing the password', () => {
  it.each([
    ['tushy', 'tushy'],
    ['the members host', 'members'],
  ])('on %s: the three errors and the rule, then the notice, and the other sessions end', async (_, where) => {
    const joinUrl = where === 'members' ? `${brandOrigin('members')}/joinnow?ref=home&elm=header` : brandUrl(where, '/joinnow?ref=home&elm=header')
    const joined = await join(page, joinUrl, 'pw')
    // Where this journey works: the brand joined (the members host's joins are vixenplus joins).
    const here = joined.brand
    const { context, other } = await otherSession(here, joined.email, JOIN_PASSWORD)
    expect(codesOf(await graphql(other, WHOAMI))).toEqual([])

    await page.goto(`${originOf(here)}/account`, { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Change password' }) })
    const fill = async (old: string, next: string, confirm: string) => {
      await form.getByLabel('Current password', { exact: true }).fill(old)
      await form.getByLabel('New password', { exact: true }).fill(next)
      await form.getByLabel('Confirm new password', { exact: true }).fill(confirm)
      await form.getByRole('button', { name: 'Change password' }).click()
    }
    const alert = form.getByRole('alert')
    const newPassword = `Changed${unique()}`.slice(0, 20)

    await fill('Wrong12345', newPassword, newPassword)
    await expect.poll(() => alert.textContent(), SETTLE).toBe('old password incorrect')
    await fill(JOIN_PASSWORD, newPassword, `${newPassword}x`)
    await expect.poll(() => alert.textContent(), SETTLE).toBe('confirmation does not match')
    await fill(JOIN_PASSWORD, JOIN_PASSWORD, JOIN_PASSWORD)
    await expect.poll(() => alert.textContent(), SETTLE).toBe('new password not secure')
    await fill(JOIN_PASSWORD, 'short!', 'short!')
    await form
      .getByText('Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.', { exact: true })
      .first()
      .waitFor()
    expect(new URL(page.url()).search).toBe('')
    await screenshotAtBothWidths(page, `change-password-errors-${where}`)

    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account' && url.searchParams.has('password_changed')),
      fill(JOIN_PASSWORD, newPassword, newPassword),
    ])
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Your password was changed.' }).count(), SETTLE).toBeGreaterThan(0)
    await screenshotAtBothWidths(page, `change-password-notice-${where}`)
    // This session stays; the other one is gone within seconds, and the new password signs in.
    expect(codesOf(await graphql(page, WHOAMI))).toEqual([])
    await expect.poll(async () => codesOf(await graphql(other, WHOAMI)), { timeout: 5_000, interval: 100 }).toEqual(['UNAUTHENTICATED'])
    await context.close()
    const again = await otherSession(here, joined.email, newPassword)
    expect(codesOf(await graphql(again.other, WHOAMI))).toEqual([])
    await again.context.close()
  })
})

describe('the display name', () => {
  it.each([
    ['tushy', 'tushy'],
    ['the members host', 'members'],
  ])('on %s: set on the account page, it appears beside the user’s comments', async (_, where) => {
    const joinUrl = where === 'members' ? `${brandOrigin('members')}/joinnow?ref=home&elm=header` : brandUrl(where, '/joinnow?ref=home&elm=header')
    const joined = await join(page, joinUrl, 'dn')
    const here = joined.brand
    await page.goto(`${originOf(here)}/account`, { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const displayName = `Neutral Name ${unique().slice(-4)}`
    await page.getByLabel('Shown beside your comments').fill(displayName)
    await page.getByRole('button', { name: 'Save display name' }).click()
    await page.getByText('Your display name has been saved.').waitFor()

    await page.goto(`${originOf(here)}/videos`, { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    await page.locator('main .video-card a').first().click()
    await page.waitForURL(/\/videos\/[a-z0-9-]+$/)
    await dismissWelcomeModals(page)
    const text = `A quiet remark ${unique()}`
    await page.getByLabel('Add a comment').fill(text)
    await page.getByRole('button', { name: 'Post', exact: true }).click()
    const mine = page.locator('.comment', { hasText: text })
    await mine.waitFor({ timeout: 15_000 })
    expect(await mine.locator('.comment-author__name').textContent()).toBe(displayName)
    expect(await mine.locator('.comment-author__username').textContent()).toBe(`@${joined.username}`)
    await screenshotAtBothWidths(page, `display-name-beside-comment-${where}`)
    // The server's answer behind it: the author's display name from the profile service.
    const slug = new URL(page.url()).pathname.split('/').pop()!
    const body = await graphql<{ data: { getVideo: { video: { uuid: string } } } }>(page, 'query($s: String!) { getVideo(videoSlug: $s) { video { uuid } } }', { s: slug })
    const comments = await graphql<{ data: { comments: { comments: { text: string; authorName: string; author: { displayName: string | null } }[] } } }>(
      page,
      'query($v: ID!) { comments(videoId: $v, sort: newest) { comments { text authorName author { displayName } } } }',
      { v: body.data.getVideo.video.uuid },
    )
    expect(comments.data.comments.comments.find((c) => c.text === text)).toEqual({
      text,
      authorName: joined.username,
      author: { displayName },
    })
  })
})
