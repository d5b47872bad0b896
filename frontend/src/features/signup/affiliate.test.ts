import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  captureAffiliate,
  joinFormImageVariant,
  parseCookies,
  storedAffiliateCodes,
  storedNats,
  waitForLeaveEvent,
  type CookieJar,
} from './affiliate'

function jar(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial))
  const ages = new Map<string, number>()
  const cookies: CookieJar = {
    get: (name) => values.get(name) ?? null,
    set: (name, value, maxAge) => {
      values.set(name, value)
      ages.set(name, maxAge)
    },
  }
  return { cookies, values, ages }
}

afterEach(() => vi.useRealTimers())

describe('the affiliate values', () => {
  it('keeps a ujc landing 30 days as the single and multisite sales codes', () => {
    const { cookies, values, ages } = jar()
    expect(captureAffiliate(new URLSearchParams('ujc=AFF123&nats=MC4xLjE'), cookies)).toEqual({ ujc: 'AFF123', nats: 'MC4xLjE' })
    expect(values.get('aff_code_single')).toBe('AFF123')
    expect(values.get('aff_code_multi')).toBe('AFF123')
    expect(ages.get('aff_code_single')).toBe(30 * 86_400)
    expect(storedNats(cookies)).toBe('MC4xLjE')
    // The join links carry both codes to the members host.
    expect(storedAffiliateCodes(cookies)).toEqual({ affCodeSingle: 'AFF123', affCodeMulti: 'AFF123' })
    expect(storedAffiliateCodes(jar({ aff_code_multi: 'a b' }).cookies)).toEqual({ affCodeSingle: null, affCodeMulti: null })
  })

  it('stores nothing that is not short plain text', () => {
    const { cookies, values } = jar()
    captureAffiliate(new URLSearchParams(`ujc=<script>&nats=${'x'.repeat(200)}`), cookies)
    expect(values.size).toBe(0)
    expect(storedNats(jar({ nats: 'a b' }).cookies)).toBeNull()
  })

  it('reads document cookies', () => {
    expect(parseCookies('a=1; nats=MC4x%3D; bad=%E0%A4%A')).toEqual(new Map([['a', '1'], ['nats', 'MC4x=']]))
  })
})

describe('the join-form image test', () => {
  it('is off by default', () => {
    const { cookies, values } = jar()
    expect(joinFormImageVariant(cookies, false)).toBeNull()
    expect(values.size).toBe(0)
  })

  it('when on, keeps the cookie’s variant, or draws one and keeps it a year', () => {
    expect(joinFormImageVariant(jar({ ab_join_form_image: 'b' }).cookies, true)).toBe('b')
    const { cookies, ages } = jar()
    expect(joinFormImageVariant(cookies, true, () => 0.2)).toBe('a')
    expect(ages.get('ab_join_form_image')).toBe(365 * 86_400)
    expect(joinFormImageVariant(cookies, true, () => 0.9)).toBe('a')
  })
})

describe('the leave event', () => {
  it('waits for the event, but never more than 300 ms', async () => {
    vi.useFakeTimers()
    let done = false
    const waiting = waitForLeaveEvent(() => new Promise(() => undefined)).then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(299)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await waiting
    expect(done).toBe(true)
  })

  it('goes as soon as the event is sent', async () => {
    const start = Date.now()
    await waitForLeaveEvent(() => Promise.resolve())
    expect(Date.now() - start).toBeLessThan(100)
  })
})
