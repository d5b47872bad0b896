import { describe, expect, it, vi } from 'vitest'
import { loaderErrorOutcome } from '../routing'
import { tenantConfig } from '../routing/testing'
import { ApiError, apiUrl, createRestClient, errorEntries } from './restClient'
import { fakeFetch, json, type Answer } from './testing'

function rest(refreshAnswers: boolean[], ...answers: Answer[]) {
  const fake = fakeFetch(...answers)
  const refresh = vi.fn(async () => refreshAnswers.shift() ?? false)
  return { api: createRestClient({ refresher: { refresh }, fetch: fake.fetch, acceptsWebp: true }), calls: fake.calls, refresh }
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected an ApiError')
}

describe('the REST client', () => {
  it('builds /api URLs with query params, skipping null and undefined', () => {
    expect(apiUrl('/api', '/toprated', { page: 2, q: 'a b', size: null, x: undefined, on: true })).toBe(
      '/api/toprated?page=2&q=a+b&on=true',
    )
    expect(apiUrl('/api/', 'refresh')).toBe('/api/refresh')
  })

  it('GETs with credentials, an Accept preferring WebP, the CSRF header and a correlation id', async () => {
    const { api, calls } = rest([], json({ data: { videos: [] } }))
    await expect(api.request('/toprated', { params: { page: 1 } })).resolves.toEqual({
      status: 200,
      data: { data: { videos: [] } },
    })
    const [request] = calls
    expect(request!.method).toBe('GET')
    expect(new URL(request!.url).pathname + new URL(request!.url).search).toBe('/api/toprated?page=1')
    expect(request!.credentials).toBe('same-origin')
    expect(request!.headers.get('accept')).toContain('image/webp')
    expect(request!.headers.get('x-paysite-csrf')).toBe('1')
    expect(request!.headers.get('x-correlation-id')).toBeTruthy()
    expect(request!.headers.get('content-type')).toBeNull()
  })

  it.each(['POST', 'PUT', 'DELETE'] as const)('%s sends a JSON body and extra headers', async (method) => {
    const { api, calls } = rest([], json({ ok: true }))
    await api.request('/v2/user/email-consent', { method, body: { emailConsent: true }, headers: { 'x-extra': 'y' } })
    expect(calls[0]!.method).toBe(method)
    expect(calls[0]!.headers.get('content-type')).toBe('application/json')
    expect(calls[0]!.headers.get('x-extra')).toBe('y')
    expect(await calls[0]!.json()).toEqual({ emailConsent: true })
  })

  it('answers null data for a body that is not JSON', async () => {
    const { api } = rest([], new Response('<html>', { status: 200 }))
    await expect(api.request('/x')).resolves.toEqual({ status: 200, data: null })
  })

  it('throws a status outside 200-299 with an errors list of title and details', async () => {
    const { api } = rest([], json({ errors: [{ title: 'Bad input', details: 'page must be a number' }] }, { status: 400 }))
    const error = await caught(api.request('/x'))
    expect(error.status).toBe(400)
    expect(error.errors).toEqual([{ title: 'Bad input', details: 'page must be a number' }])
  })

  it('reads a service refusal {code, message} and falls back to the status text', () => {
    expect(errorEntries(409, 'Conflict', { code: 'ALREADY_UNLOCKED', message: 'Already unlocked' })).toEqual([
      { title: 'ALREADY_UNLOCKED', details: 'Already unlocked' },
    ])
    expect(errorEntries(500, 'Internal Server Error', null)).toEqual([{ title: 'Internal Server Error', details: '' }])
    expect(errorEntries(500, '', 'text')).toEqual([{ title: 'HTTP 500', details: '' }])
  })

  it('maps a followed redirect to 301 with its location, which loaders follow', async () => {
    const moved = json({})
    Object.defineProperty(moved, 'redirected', { value: true })
    Object.defineProperty(moved, 'url', { value: 'http://tushy.localhost/api/performers' })
    const { api } = rest([], moved)
    const error = await caught(api.request('/models'))
    expect(error.status).toBe(301)
    expect(error.location).toBe('http://tushy.localhost/api/performers')
    const input = { pathname: '/models', query: new URLSearchParams(), tenant: tenantConfig() }
    expect(loaderErrorOutcome(input, error)).toEqual({ kind: 'redirect', status: 301, location: error.location })
  })

  it('answers a 419 with one session refresh and one retry', async () => {
    const { api, calls, refresh } = rest([true], new Response(null, { status: 419 }), json({ fine: 1 }))
    await expect(api.request('/x')).resolves.toEqual({ status: 200, data: { fine: 1 } })
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(2)
  })

  it('retries a 419 only once', async () => {
    const { api, calls } = rest([true, true], new Response(null, { status: 419 }), new Response(null, { status: 419 }))
    expect((await caught(api.request('/x'))).status).toBe(419)
    expect(calls).toHaveLength(2)
  })

  it('does not retry when the refresh failed', async () => {
    const { api, calls } = rest([false], new Response(null, { status: 419 }))
    expect((await caught(api.request('/x'))).status).toBe(419)
    expect(calls).toHaveLength(1)
  })

  it('times out after the timeout', async () => {
    const fake = fakeFetch(
      (request) =>
        new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
    )
    const api = createRestClient({ refresher: { refresh: async () => false }, fetch: fake.fetch, timeoutMs: 20 })
    const error = await caught(api.request('/slow'))
    expect(error.status).toBe(504)
    expect(error.errors[0]!.title).toBe('Timeout')
  })

  it('passes the caller’s abort on as it is', async () => {
    const controller = new AbortController()
    const fake = fakeFetch(
      (request) =>
        new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(new DOMException('x', 'AbortError')))),
    )
    const api = createRestClient({ refresher: { refresh: async () => false }, fetch: fake.fetch })
    const pending = api.request('/slow', { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
