import type { CamsResponse } from '../routes/rules'

/** POST {payments host}/v1/outgoing-upsells-oneclick/cams */
export async function requestCamsUrl(
  paymentsHost: string,
  body: Record<string, string | null>,
  signal?: AbortSignal,
): Promise<CamsResponse> {
  const response = await fetch(`${paymentsHost.replace(/\/+$/, '')}/v1/outgoing-upsells-oneclick/cams`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  return { ok: response.ok, statusText: response.statusText, body: response.ok ? await response.json() : null }
}
