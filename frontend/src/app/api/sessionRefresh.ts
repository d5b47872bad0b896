// Session refresh (product.md, "Calls and sessions"): GET /api/refresh, shared while in flight; a non-OK answer is
// retried twice (100 ms, then 300 ms) unless its body says invalid_grant; after that, or on 401/511, the browser
// goes to the members login with the current path and query as uri.
import { signInUrl } from '../routing'
import { CORRELATION_HEADER, newCorrelationId } from './correlation'

export const REFRESH_PATH = '/api/refresh'
export const REFRESH_RETRY_DELAYS_MS = [100, 300] as const
/** product.md, "Calls and sessions" gives both 48 min and 480000 ms; 48 min is the one the session design names (decisions). */
export const PERIODIC_REFRESH_INTERVAL_MS = 48 * 60 * 1000

export interface SessionRefreshDeps {
  fetch: typeof fetch
  membersUrl: string
  /** This brand's origin: the login comes back here (signInUrl). */
  tourUrl: string
  /** The current path and query, e.g. '/videos?page=2'. */
  currentPathAndQuery: () => string
  /** Leaves the app for another document. */
  goTo: (url: string) => void
  sleep?: (ms: number) => Promise<void>
}

export interface SessionRefresher {
  /** Resolves true once the session is renewed; false after sending the browser to the login. */
  refresh(): Promise<boolean>
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

type Attempt = 'renewed' | 'retryable' | 'login'

async function errorCodeOf(response: Response): Promise<unknown> {
  try {
    return ((await response.json()) as { error?: unknown } | null)?.error
  } catch {
    return undefined
  }
}

export function createSessionRefresher(deps: SessionRefreshDeps): SessionRefresher {
  const sleep = deps.sleep ?? wait
  let inFlight: Promise<boolean> | null = null

  async function attempt(): Promise<Attempt> {
    let response: Response
    try {
      response = await deps.fetch(REFRESH_PATH, {
        method: 'GET',
        credentials: 'same-origin',
        headers: { [CORRELATION_HEADER]: newCorrelationId() },
      })
    } catch {
      return 'retryable'
    }
    if (response.ok) return 'renewed'
    if (response.status === 401 || response.status === 511) return 'login'
    return (await errorCodeOf(response)) === 'invalid_grant' ? 'login' : 'retryable'
  }

  async function run(): Promise<boolean> {
    let result = await attempt()
    for (const delay of REFRESH_RETRY_DELAYS_MS) {
      if (result !== 'retryable') break
      await sleep(delay)
      result = await attempt()
    }
    if (result === 'renewed') return true
    deps.goTo(signInUrl(deps, deps.currentPathAndQuery()))
    return false
  }

  return {
    refresh() {
      inFlight ??= run().finally(() => {
        inFlight = null
      })
      return inFlight
    },
  }
}

export const REFRESH_LOCK_KEY = 'paysite.sessionRefresh.lock'
export const LAST_REFRESH_KEY = 'paysite.sessionRefresh.last'
/** How long a tab may hold the lock before another tab may take it (a tab closed mid-refresh). */
export const REFRESH_LOCK_TTL_MS = 30_000
export const PERIODIC_CHECK_EVERY_MS = 60_000

/** The Web Locks lock every tab of this origin asks for before the 48-minute refresh. */
export const REFRESH_WEB_LOCK = 'paysite.sessionRefresh'

/** The part of the Web Locks API the timer uses (navigator.locks). */
export interface WebLocks {
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T>): Promise<T>
}

export interface PeriodicRefreshDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  /**
   * The browser's Web Locks (navigator.locks): the cross-tab lock when present. The browser releases it when its tab
   * closes or crashes, so no lease time is needed; without it (old browsers) the lock in local storage of product.md, "Calls and sessions" is
   * used.
   */
  locks?: WebLocks | null
  now: () => number
  /** This tab's id, unique among the open tabs. */
  tabId: string
  refresh: () => Promise<boolean>
  intervalMs?: number
}

interface Lock {
  owner: string
  until: number
}

function readLock(storage: PeriodicRefreshDeps['storage']): Lock | null {
  try {
    const lock = JSON.parse(storage.getItem(REFRESH_LOCK_KEY) ?? 'null') as Lock | null
    return lock && typeof lock.owner === 'string' && typeof lock.until === 'number' ? lock : null
  } catch {
    return null
  }
}

/**
 * One check of the 48-minute timer. The last refresh time is shared by all tabs in localStorage, so the browser
 * refreshes once per interval however many tabs are open; the lock keeps two tabs from refreshing at once.
 * Answers whether this tab refreshed.
 */
export async function periodicRefreshTick(deps: PeriodicRefreshDeps): Promise<boolean> {
  const { storage, now, tabId } = deps
  const intervalMs = deps.intervalMs ?? PERIODIC_REFRESH_INTERVAL_MS
  const due = () => {
    const stored = storage.getItem(LAST_REFRESH_KEY)
    const last = stored === null ? Number.NaN : Number(stored)
    return !(Number.isFinite(last) && now() - last < intervalMs)
  }
  if (!due()) return false
  if (deps.locks) {
    // Only the tab that gets the lock refreshes; the others skip this tick. Inside the lock the time is read again:
    // a tab that held it a moment ago has recorded its refresh.
    return deps.locks.request(REFRESH_WEB_LOCK, { ifAvailable: true }, async (held) => {
      if (!held || !due()) return false
      const renewed = await deps.refresh()
      if (renewed) storage.setItem(LAST_REFRESH_KEY, String(now()))
      return renewed
    })
  }
  const lock = readLock(storage)
  if (lock && lock.owner !== tabId && lock.until > now()) return false
  storage.setItem(REFRESH_LOCK_KEY, JSON.stringify({ owner: tabId, until: now() + REFRESH_LOCK_TTL_MS }))
  // Two tabs may write the lock in the same instant: the one whose write stayed goes on.
  if (readLock(storage)?.owner !== tabId) return false
  try {
    const renewed = await deps.refresh()
    if (renewed) storage.setItem(LAST_REFRESH_KEY, String(now()))
    return renewed
  } finally {
    if (readLock(storage)?.owner === tabId) storage.removeItem(REFRESH_LOCK_KEY)
  }
}

/** Starts the timer; the page load counts as a fresh session when no tab has refreshed yet. Answers a stop function. */
export function startPeriodicRefresh(deps: PeriodicRefreshDeps, checkEveryMs = PERIODIC_CHECK_EVERY_MS): () => void {
  if (deps.storage.getItem(LAST_REFRESH_KEY) === null) deps.storage.setItem(LAST_REFRESH_KEY, String(deps.now()))
  const timer = setInterval(() => {
    void periodicRefreshTick(deps).catch(() => undefined)
  }, checkEveryMs)
  return () => clearInterval(timer)
}
