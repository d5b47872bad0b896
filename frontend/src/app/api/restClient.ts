// The generic REST client (product.md, "Calls and sessions"): base /api, GET/POST/PUT/DELETE, query params with null
// skipped, optional JSON body, credentials, 60 s timeout, JSON body (null when unparsable), redirects answered as
// 301 with a location, any status outside 200-299 thrown with an errors list of title and details, and a 419
// answered by one session refresh and one retry.
import { HttpError } from '../routing'
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from './correlation'
import type { SessionRefresher } from './sessionRefresh'

export const API_BASE = '/api'
export const API_TIMEOUT_MS = 60_000
export const SESSION_EXPIRED_STATUS = 419

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type QueryValue = string | number | boolean | null | undefined

export interface ApiRequest {
  method?: ApiMethod
  params?: Readonly<Record<string, QueryValue>>
  body?: unknown
  headers?: Readonly<Record<string, string>>
  signal?: AbortSignal
}

export interface ApiResponse<T> {
  status: number
  data: T | null
}

export interface ApiErrorEntry {
  title: string
  details: string
}

export class ApiError extends HttpError {
  readonly errors: readonly ApiErrorEntry[]

  constructor(status: number, errors: readonly ApiErrorEntry[], location?: string) {
    super(status, errors[0]?.title ?? `HTTP ${status}`, location)
    this.name = 'ApiError'
    this.errors = errors
  }
}

export interface RestClient {
  request<T = unknown>(path: string, request?: ApiRequest): Promise<ApiResponse<T>>
}

export interface RestClientDeps {
  refresher: SessionRefresher
  fetch?: typeof fetch
  base?: string
  timeoutMs?: number
  /** Whether the browser decodes WebP; the Accept header prefers it then. */
  acceptsWebp?: boolean
}

export function apiUrl(base: string, path: string, params: ApiRequest['params'] = {}): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined) query.set(key, String(value))
  const search = query.toString()
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}${search ? `?${search}` : ''}`
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** The errors list of a failed answer: its own `errors`, a service refusal's {code, message}, or the status text. */
export function errorEntries(status: number, statusText: string, body: unknown): ApiErrorEntry[] {
  if (isObject(body) && Array.isArray(body.errors)) {
    const entries = body.errors.filter(isObject).map((entry) => ({
      title: String(entry.title ?? entry.code ?? entry.message ?? `HTTP ${status}`),
      details: String(entry.details ?? entry.detail ?? entry.message ?? ''),
    }))
    if (entries.length > 0) return entries
  }
  if (isObject(body) && (typeof body.code === 'string' || typeof body.message === 'string')) {
    return [{ title: String(body.code ?? body.message), details: String(body.message ?? '') }]
  }
  return [{ title: statusText || `HTTP ${status}`, details: '' }]
}

async function parseJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text()
    return text === '' ? null : (JSON.parse(text) as unknown)
  } catch {
    return null
  }
}

export function detectWebp(doc: Document = document): boolean {
  try {
    return doc.createElement('canvas').toDataURL('image/webp').startsWith('data:image/webp')
  } catch {
    return false
  }
}

export function createRestClient(deps: RestClientDeps): RestClient {
  const fetchImpl = deps.fetch ?? ((input, init) => fetch(input, init))
  const base = deps.base ?? API_BASE
  const timeoutMs = deps.timeoutMs ?? API_TIMEOUT_MS
  const accept = deps.acceptsWebp ? 'application/json, image/webp;q=0.9, */*;q=0.8' : 'application/json, */*;q=0.8'

  async function send(path: string, request: ApiRequest): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
    const headers: Record<string, string> = {
      accept,
      [CSRF_HEADER]: '1',
      [CORRELATION_HEADER]: newCorrelationId(),
      ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    }
    try {
      return await fetchImpl(apiUrl(base, path, request.params), {
        method: request.method ?? 'GET',
        credentials: 'same-origin',
        headers,
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
        signal,
      })
    } catch (error) {
      if (timeout.aborted && !request.signal?.aborted) {
        throw new ApiError(504, [{ title: 'Timeout', details: `No answer within ${timeoutMs} ms` }])
      }
      throw error
    }
  }

  return {
    async request<T>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
      let response = await send(path, request)
      if (response.status === SESSION_EXPIRED_STATUS && (await deps.refresher.refresh())) {
        response = await send(path, request)
      }
      if (response.redirected) {
        throw new ApiError(301, [{ title: 'Moved', details: response.url }], response.url)
      }
      const body = await parseJson(response)
      if (response.status < 200 || response.status > 299) {
        const location = response.headers.get('location') ?? undefined
        throw new ApiError(response.status, errorEntries(response.status, response.statusText, body), location)
      }
      return { status: response.status, data: body as T | null }
    },
  }
}
