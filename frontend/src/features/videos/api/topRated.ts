import { HttpError } from '../../../app/routing'

/** GET /toprated with the current query parameters. */
export async function fetchTopRated(apiHost: string, query: string, signal?: AbortSignal): Promise<unknown> {
  const url = `${apiHost.replace(/\/+$/, '')}/toprated${query ? `?${query}` : ''}`
  const response = await fetch(url, { credentials: 'include', signal })
  if (!response.ok) throw new HttpError(response.status, `GET /toprated answered ${response.status}`)
  return response.json()
}
