// Subscription status polling (product.md, "Subscriptions and their states"): after a purchase, ask whether the membership is
// active every 15 s, at most 40 times, refreshing the session between tries; the combined brand (the one whose site
// id counts as multisite) reloads after 10 s.

export const POLL_INTERVAL_MS = 15_000
export const POLL_MAX_TRIES = 40
export const COMBINED_BRAND_RELOAD_DELAY_MS = 10_000
/** product.md, "Subscriptions and their states": the membership-update screen tells the user to wait this long before contacting support. */
export const MEMBERSHIP_UPDATE_WAIT_MINUTES = 10
export const POLLING_MAX_RETRY = 'POLLING_MAX_RETRY'

export type PollStep =
  /** Reload the page (with fatr=true) after `afterMs`. */
  | { kind: 'reload'; afterMs: number }
  /** Refresh the session and ask again after `afterMs`; `counter` is the tries so far. */
  | { kind: 'retry'; afterMs: number; counter: number }
  /** Give up: the polling-failed error, close the modal and go home. */
  | { kind: 'failed'; error: typeof POLLING_MAX_RETRY }

/** combinedBrand: the tenant is the combined brand (routing's isMultisiteSiteId of its own site id). */
export function nextPollStep(facts: { combinedBrand: boolean; active: boolean; counter: number }): PollStep {
  if (facts.combinedBrand) return { kind: 'reload', afterMs: COMBINED_BRAND_RELOAD_DELAY_MS }
  if (facts.active) return { kind: 'reload', afterMs: 0 }
  const counter = facts.counter + 1
  if (counter < POLL_MAX_TRIES) return { kind: 'retry', afterMs: POLL_INTERVAL_MS, counter }
  return { kind: 'failed', error: POLLING_MAX_RETRY }
}

/** The query keys whose value opens the home page's subscription-status actions (routing `homeRule`). */
export const SUBSCRIPTION_STATUS_TRIGGERS = ['from', 'reactivation'] as const

/**
 * The address to reload: the same page with fatr=true, without the query that opened the status actions (from=joinnow,
 * reactivation=success), so the reloaded page does not run them again: they run once, and the page loads once more.
 */
export function withFatr(href: string): string {
  const url = new URL(href)
  for (const trigger of SUBSCRIPTION_STATUS_TRIGGERS) url.searchParams.delete(trigger)
  url.searchParams.set('fatr', 'true')
  return url.toString()
}
