// Account creation after a signup (product.md, "Sign-up and join"): the biller has approved, the account is being made
// from its postback. Ask welcomeCheck every 5 s, at most 24 times; then 'Account creation timed out'. A welcome
// answer is stored; trial members go on to the upgrade membership page, everyone else sees the welcome page.

import { readBootstrap, type RoutingSession } from '../../app/session/bootstrap'

export const ACCOUNT_CREATION_POLL_MS = 5_000
export const ACCOUNT_CREATION_MAX_TRIES = 24
export const ACCOUNT_CREATION_TIMED_OUT = 'Account creation timed out'

export interface WelcomeAnswer {
  isWelcome: boolean
  isTrial: boolean
  autologinId?: string | null
  /** The join race: the username was taken while the payment went through; the account waits for another. */
  usernameLost?: boolean
}

export type AccountCreationStep =
  /** Not made yet: ask again after `afterMs`; `tries` is how many answers came so far. */
  | { kind: 'wait'; afterMs: number; tries: number }
  /**
   * Made: the welcome page (with the autologin token, when still within its window). `usernameLost`: the account has no
   * username yet (it was taken meanwhile); the member chooses one before anything else, trial or not.
   */
  | { kind: 'welcome'; autologinId: string | null; usernameLost: boolean }
  /** Made, for a trial: on to the upgrade membership page. */
  | { kind: 'upgrade'; autologinId: string | null }
  | { kind: 'timedOut'; error: typeof ACCOUNT_CREATION_TIMED_OUT }

/** What to do after the `tries`-th answer (1-based). */
export function nextAccountCreationStep(answer: WelcomeAnswer, tries: number): AccountCreationStep {
  const autologinId = answer.autologinId || null
  const usernameLost = answer.usernameLost === true
  if (answer.isWelcome) {
    return answer.isTrial && !usernameLost ? { kind: 'upgrade', autologinId } : { kind: 'welcome', autologinId, usernameLost }
  }
  if (tries < ACCOUNT_CREATION_MAX_TRIES) return { kind: 'wait', afterMs: ACCOUNT_CREATION_POLL_MS, tries }
  return { kind: 'timedOut', error: ACCOUNT_CREATION_TIMED_OUT }
}

/** The address that signs the new member in: home with the single-use autologin token. */
const redeeming = new Map<string, Promise<RoutingSession | null>>()

/**
 * Redeems the welcome page's autologin token in the background: the gateway's `/?al_token=` sets the session cookies
 * and redirects home, whose page carries the signed-in user's bootstrap, which is answered. The token is single-use,
 * so one redemption per token however often it is asked (a re-render, StrictMode's second effect). Null when the
 * token was refused or the page could not be read: the "Start watching" link still signs in.
 */
export function signInWithAutologin(autologinId: string, fetchPage: typeof fetch = (input, init) => fetch(input, init)): Promise<RoutingSession | null> {
  let pending = redeeming.get(autologinId)
  if (!pending) {
    pending = fetchPage(autologinHref(autologinId), { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(async (response) => {
        if (!response.ok) return null
        const doc = new DOMParser().parseFromString(await response.text(), 'text/html')
        const session = readBootstrap(doc)
        return session.user.isAuthenticated ? session : null
      })
      .catch(() => null)
    redeeming.set(autologinId, pending)
  }
  return pending
}

export function autologinHref(autologinId: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ al_token: autologinId, ...query })
  return `/?${params.toString()}`
}
