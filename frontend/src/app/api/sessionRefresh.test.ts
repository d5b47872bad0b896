import { describe, expect, it, vi } from 'vitest'
import {
  LAST_REFRESH_KEY,
  REFRESH_LOCK_KEY,
  REFRESH_WEB_LOCK,
  type WebLocks,
  createSessionRefresher,
  periodicRefreshTick,
  startPeriodicRefresh,
} from './sessionRefresh'
import { fakeFetch, json, noSleep, type Answer } from './testing'

// The return target is this brand's own URL: the shared members host sends a bare path to its default brand.
const LOGIN = `https://members.tushy.test/oidc/login?uri=${encodeURIComponent('https://www.tushy.test/videos?page=2')}`

function refresher(...answers: Answer[]) {
  const fake = fakeFetch(...answers)
  const goTo = vi.fn()
  const sleep = vi.fn(noSleep)
  const session = createSessionRefresher({
    fetch: fake.fetch,
    membersUrl: 'https://members.tushy.test',
    tourUrl: 'https://www.tushy.test',
    currentPathAndQuery: () => '/videos?page=2',
    goTo,
    sleep,
  })
  return { session, goTo, sleep, calls: fake.calls }
}

describe('session refresh', () => {
  it('renews with GET /api/refresh, same-origin, with a correlation id', async () => {
    const { session, calls, goTo } = refresher(new Response(null, { status: 204 }))
    await expect(session.refresh()).resolves.toBe(true)
    expect(calls).toHaveLength(1)
    expect(new URL(calls[0]!.url).pathname).toBe('/api/refresh')
    expect(calls[0]!.method).toBe('GET')
    expect(calls[0]!.credentials).toBe('same-origin')
    expect(calls[0]!.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(goTo).not.toHaveBeenCalled()
  })

  it('is made once while in flight, however many callers ask', async () => {
    const { session, calls } = refresher(new Response(null, { status: 204 }))
    const answers = await Promise.all([session.refresh(), session.refresh(), session.refresh()])
    expect(answers).toEqual([true, true, true])
    expect(calls).toHaveLength(1)
  })

  it('asks again after a finished refresh', async () => {
    const { session, calls } = refresher(new Response(null, { status: 204 }), new Response(null, { status: 204 }))
    await session.refresh()
    await session.refresh()
    expect(calls).toHaveLength(2)
  })

  it('retries a non-OK answer twice, 100 ms then 300 ms, and succeeds', async () => {
    const { session, sleep, calls } = refresher(
      json({ error: 'temporarily_unavailable' }, { status: 503 }),
      new Response('oops', { status: 500 }),
      new Response(null, { status: 204 }),
    )
    await expect(session.refresh()).resolves.toBe(true)
    expect(calls).toHaveLength(3)
    expect(sleep.mock.calls).toEqual([[100], [300]])
  })

  it('goes to the members login with the current path and query after three failures', async () => {
    const { session, goTo, calls } = refresher(
      new Response(null, { status: 500 }),
      new Error('network down'),
      new Response(null, { status: 502 }),
    )
    await expect(session.refresh()).resolves.toBe(false)
    expect(calls).toHaveLength(3)
    expect(goTo).toHaveBeenCalledWith(LOGIN)
  })

  it('does not retry when the body error is invalid_grant', async () => {
    const { session, goTo, calls, sleep } = refresher(json({ error: 'invalid_grant' }, { status: 400 }))
    await expect(session.refresh()).resolves.toBe(false)
    expect(calls).toHaveLength(1)
    expect(sleep).not.toHaveBeenCalled()
    expect(goTo).toHaveBeenCalledWith(LOGIN)
  })

  it.each([401, 511])('goes to the login at once on %i', async (status) => {
    const { session, goTo, calls } = refresher(new Response(null, { status }))
    await expect(session.refresh()).resolves.toBe(false)
    expect(calls).toHaveLength(1)
    expect(goTo).toHaveBeenCalledWith(LOGIN)
  })
})

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

const MINUTE = 60_000

describe('the 48-minute refresh with a cross-tab lock', () => {
  it('does nothing before 48 minutes since the last refresh of any tab', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: String(0) })
    const refresh = vi.fn(async () => true)
    await expect(periodicRefreshTick({ storage, now: () => 47 * MINUTE, tabId: 'a', refresh })).resolves.toBe(false)
    expect(refresh).not.toHaveBeenCalled()
  })

  it('refreshes after 48 minutes, records the time and releases the lock', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: String(1) })
    const refresh = vi.fn(async () => true)
    await expect(periodicRefreshTick({ storage, now: () => 48 * MINUTE + 1, tabId: 'a', refresh })).resolves.toBe(true)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(storage.items.get(LAST_REFRESH_KEY)).toBe(String(48 * MINUTE + 1))
    expect(storage.items.has(REFRESH_LOCK_KEY)).toBe(false)
  })

  it('leaves the refresh to the tab that holds the lock', async () => {
    const storage = memoryStorage({
      [LAST_REFRESH_KEY]: '1',
      [REFRESH_LOCK_KEY]: JSON.stringify({ owner: 'b', until: 60 * MINUTE }),
    })
    const refresh = vi.fn(async () => true)
    await expect(periodicRefreshTick({ storage, now: () => 50 * MINUTE, tabId: 'a', refresh })).resolves.toBe(false)
    expect(refresh).not.toHaveBeenCalled()
  })

  it('takes over a lock whose holder went away', async () => {
    const storage = memoryStorage({
      [LAST_REFRESH_KEY]: '1',
      [REFRESH_LOCK_KEY]: JSON.stringify({ owner: 'b', until: 49 * MINUTE }),
    })
    const refresh = vi.fn(async () => true)
    await expect(periodicRefreshTick({ storage, now: () => 50 * MINUTE, tabId: 'a', refresh })).resolves.toBe(true)
  })

  it('a second tab right after the first finds the fresh time and does nothing', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: '1' })
    const refresh = vi.fn(async () => true)
    const now = () => 49 * MINUTE
    await periodicRefreshTick({ storage, now, tabId: 'a', refresh })
    await periodicRefreshTick({ storage, now, tabId: 'b', refresh })
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it('keeps the old time when the refresh failed', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: '1' })
    await periodicRefreshTick({ storage, now: () => 49 * MINUTE, tabId: 'a', refresh: async () => false })
    expect(storage.items.get(LAST_REFRESH_KEY)).toBe('1')
    expect(storage.items.has(REFRESH_LOCK_KEY)).toBe(false)
  })

  it('counts the page load as fresh and checks on a timer', async () => {
    vi.useFakeTimers()
    try {
      const storage = memoryStorage()
      let now = 0
      const refresh = vi.fn(async () => true)
      const stop = startPeriodicRefresh({ storage, now: () => now, tabId: 'a', refresh }, MINUTE)
      expect(storage.items.get(LAST_REFRESH_KEY)).toBe('0')
      now = 47 * MINUTE
      await vi.advanceTimersByTimeAsync(MINUTE)
      expect(refresh).not.toHaveBeenCalled()
      now = 48 * MINUTE
      await vi.advanceTimersByTimeAsync(MINUTE)
      expect(refresh).toHaveBeenCalledTimes(1)
      stop()
    } finally {
      vi.useRealTimers()
    }
  })
})

/** Web Locks as a browser grants them: one holder per name; `ifAvailable` answers null while it is held. */
function webLocks() {
  const held = new Set<string>()
  const requests: string[] = []
  const locks: WebLocks = {
    async request(name, _options, callback) {
      requests.push(name)
      if (held.has(name)) return callback(null)
      held.add(name)
      try {
        return await callback({ name })
      } finally {
        held.delete(name)
      }
    },
  }
  return { locks, requests }
}

describe('the 48-minute refresh under a Web Lock', () => {
  it('refreshes under the lock and records the time, writing no lock to storage', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: '1' })
    const { locks, requests } = webLocks()
    const refresh = vi.fn(async () => true)
    await expect(periodicRefreshTick({ storage, locks, now: () => 49 * MINUTE, tabId: 'a', refresh })).resolves.toBe(true)
    expect(requests).toEqual([REFRESH_WEB_LOCK])
    expect(storage.items.get(LAST_REFRESH_KEY)).toBe(String(49 * MINUTE))
    expect(storage.items.has(REFRESH_LOCK_KEY)).toBe(false)
  })

  it('two tabs at the same moment: one refreshes, the other skips while the lock is held', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: '1' })
    const { locks } = webLocks()
    let finish: (renewed: boolean) => void = () => undefined
    const slow = vi.fn(() => new Promise<boolean>((resolve) => (finish = resolve)))
    const now = () => 49 * MINUTE
    const first = periodicRefreshTick({ storage, locks, now, tabId: 'a', refresh: slow })
    const second = periodicRefreshTick({ storage, locks, now, tabId: 'b', refresh: slow })
    await expect(second).resolves.toBe(false)
    finish(true)
    await expect(first).resolves.toBe(true)
    expect(slow).toHaveBeenCalledTimes(1)
    // A tab whose turn comes after the holder finds the fresh time inside the lock.
    await expect(periodicRefreshTick({ storage, locks, now, tabId: 'b', refresh: slow })).resolves.toBe(false)
    expect(slow).toHaveBeenCalledTimes(1)
  })

  it('does not ask for the lock before 48 minutes', async () => {
    const storage = memoryStorage({ [LAST_REFRESH_KEY]: '0' })
    const { locks, requests } = webLocks()
    await periodicRefreshTick({ storage, locks, now: () => 47 * MINUTE, tabId: 'a', refresh: async () => true })
    expect(requests).toEqual([])
  })
})
