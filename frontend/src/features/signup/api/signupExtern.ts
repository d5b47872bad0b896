import type { WelcomeData } from '../../../app/routing'

/** GET /_signup-extern/{biller}, sending the welcome data; answers the status and the parsed body. */
export async function fetchSignupExtern(
  apiHost: string,
  biller: string,
  welcome: WelcomeData,
  signal?: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(welcome)) if (value !== undefined) query.set(key, String(value))
  const url = `${apiHost.replace(/\/+$/, '')}/_signup-extern/${encodeURIComponent(biller)}?${query}`
  const response = await fetch(url, { credentials: 'include', signal })
  const body: unknown = response.ok ? await response.json() : null
  return { status: response.status, body }
}
