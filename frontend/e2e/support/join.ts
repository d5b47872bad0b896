// A new user of a journey's own, joined as a person would: the join form (a brand's own /joinnow or the members
// host's), the biller sandbox's approval, then signed in on the joined brand. Tests that sign in from 127.0.0.1 share
// one client address, so each journey that changes an account makes its own.
import type { Page } from 'playwright-core'
import { brandOrigin } from './gateway'

export const JOIN_PASSWORD = 'Secret12345'

export interface Joined {
  /** The brand the new user is signed in on (the members host's joins are vixenplus joins). */
  brand: string
  username: string
  email: string
}

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`

/**
 * Joins from `joinUrl` with the join option labelled `option` ('1 month', 'Free limited trial', ...), approves at the
 * biller sandbox and ends signed in: a member from the welcome page's "Start watching", a trial from the upgrade
 * page's "Continue with my trial".
 */
export async function join(page: Page, joinUrl: string, name: string, option = '1 month'): Promise<Joined> {
  const username = `${name}${unique()}`.slice(0, 20)
  const email = `${username}@example.com`
  await page.goto(joinUrl, { waitUntil: 'networkidle' })
  await page.getByLabel(option, { exact: false }).first().check()
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(JOIN_PASSWORD)
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 20_000 }),
    page.getByRole('button', { name: 'Continue to payment' }).click(),
  ])
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/_signupsuccess' || url.pathname === '/_upgrademembership', {
      timeout: 40_000,
    }),
    page.getByRole('button', { name: 'Approve' }).click(),
  ])
  const brand = new URL(page.url()).hostname.split('.')[0] ?? ''
  // A member is welcomed with "Start watching"; a trial goes on to the upgrade page (once its account exists) and
  // carries on with the trial from there.
  const next = page.getByRole('link', { name: /^(Start watching|Continue with my trial)$/ })
  await next.waitFor({ timeout: 40_000 })
  await Promise.all([
    page.waitForURL((url) => url.origin === brandOrigin(brand) && url.pathname === '/' && !url.search.includes('al_token'), {
      timeout: 20_000,
    }),
    next.click(),
  ])
  await page.locator('header button', { hasText: 'My account' }).waitFor({ state: 'attached', timeout: 20_000 })
  return { brand, username, email }
}

/** A GraphQL call from the page, as the app makes it (the session's cookies, the CSRF header). */
export async function graphql<T = { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] }>(
  page: Page,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  return page.evaluate(
    async ({ q, v }) => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-paysite-csrf': '1' },
        body: JSON.stringify({ query: q, variables: v }),
      })
      return response.json()
    },
    { q: query, v: variables },
  ) as Promise<T>
}
