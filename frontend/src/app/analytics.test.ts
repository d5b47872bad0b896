import { afterEach, describe, expect, it, vi } from 'vitest'
import { ANALYTICS_PATH, leaveFor, sendAnalytics } from './analytics'

afterEach(() => {
  vi.useRealTimers()
})

describe('analytics', () => {
  it('posts the event as JSON with the CSRF header, kept alive past the page', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(new Response(null, { status: 204 }))
    await sendAnalytics({ event: 'page_view', label: 'Homepage' }, fetchImpl)
    const [path, init] = fetchImpl.mock.calls[0] as [string, RequestInit]
    expect(path).toBe(ANALYTICS_PATH)
    expect(init.method).toBe('POST')
    expect(init.keepalive).toBe(true)
    expect((init.headers as Record<string, string>)['x-paysite-csrf']).toBe('1')
    expect(JSON.parse(init.body as string)).toEqual({ event: 'page_view', label: 'Homepage' })
  })

  it('never throws when the event cannot be sent', async () => {
    await expect(sendAnalytics({ event: 'page_view', label: 'Homepage' }, vi.fn().mockRejectedValue(new Error('offline')))).resolves.toBeUndefined()
  })

  it('leaves as soon as the leave event is sent', async () => {
    const go = vi.fn()
    await leaveFor('/joinnow', { event: 'leave', label: 'Homepage', to: 'join' }, go, () => Promise.resolve())
    expect(go).toHaveBeenCalledWith('/joinnow')
  })

  it('waits at most 300 ms for a slow leave event', async () => {
    vi.useFakeTimers()
    const go = vi.fn()
    const leaving = leaveFor('/joinnow', { event: 'leave', label: 'Homepage', to: 'join' }, go, () => new Promise(() => {}))
    await vi.advanceTimersByTimeAsync(299)
    expect(go).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await leaving
    expect(go).toHaveBeenCalledWith('/joinnow')
  })
})
