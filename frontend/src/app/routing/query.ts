import { DEFAULT_PAGE, MAX_INT32, MIN_PAGE } from './constants'

export type PageParam = { valid: true; page: number } | { valid: false }

/**
 * The page query: absent means page 1; otherwise it must be a whole decimal number from 1 up to `max`.
 * Anything else ("0", "-1", "abc", "1.5", "", beyond max) is invalid and the route redirects.
 */
export function parsePage(raw: string | null, max: number = MAX_INT32): PageParam {
  if (raw === null) return { valid: true, page: DEFAULT_PAGE }
  if (!/^[0-9]+$/.test(raw)) return { valid: false }
  const page = Number(raw)
  if (!Number.isSafeInteger(page) || page < MIN_PAGE || page > max) return { valid: false }
  return { valid: true, page }
}

/** path + '?' + query, or just path when the query is empty. */
export function withQuery(path: string, query?: URLSearchParams | Record<string, string>): string {
  if (query === undefined) return path
  const search = (query instanceof URLSearchParams ? query : new URLSearchParams(query)).toString()
  return search === '' ? path : `${path}?${search}`
}

/** A copy of the query without the given keys. */
export function withoutKeys(query: URLSearchParams, keys: readonly string[]): URLSearchParams {
  const copy = new URLSearchParams(query)
  for (const key of keys) copy.delete(key)
  return copy
}

/** A copy of the query with only the given keys, in the given order. */
export function onlyKeys(query: URLSearchParams, keys: readonly string[]): URLSearchParams {
  const kept = new URLSearchParams()
  for (const key of keys) for (const value of query.getAll(key)) kept.append(key, value)
  return kept
}

/** A same-site path to redirect to, or undefined when the value could leave the site. */
export function sameSitePath(value: string | null): string | undefined {
  if (value === null || !value.startsWith('/') || value.startsWith('//')) return undefined
  // Browsers drop tabs and newlines and read '\' as '/', so '/\t/host' or '/\host' would leave the site.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u0020\\]/.test(value)) return undefined
  return value
}
