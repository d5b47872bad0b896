// The account's REST calls (product.md, "Account and profile"), same-origin with the CSRF and correlation headers.
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from '../../../app/api/correlation'

async function postJson(path: string, body: unknown): Promise<{ ok: boolean; status: number; body: Record<string, unknown> | null }> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1', [CORRELATION_HEADER]: newCorrelationId() },
    body: JSON.stringify(body),
  })
  let parsed: Record<string, unknown> | null = null
  try {
    parsed = (await response.json()) as Record<string, unknown>
  } catch {
    parsed = null
  }
  return { ok: response.ok, status: response.status, body: parsed }
}

/** POST /subscriptions/vip-user-credentials; on non-OK the answer's message is the error code. */
export async function sendVipCredentials(newEmail: string, newPassword: string): Promise<{ ok: true } | { ok: false; code: string | null }> {
  try {
    const answer = await postJson('/subscriptions/vip-user-credentials', { newEmail, newPassword })
    if (answer.ok) return { ok: true }
    const code = answer.body?.message
    return { ok: false, code: typeof code === 'string' ? code : null }
  } catch {
    return { ok: false, code: null }
  }
}

/** POST /v2/user/email-consent with emailConsent and the consent text shown. */
export async function sendEmailConsent(emailConsent: boolean, consentHtmlSnippet: string): Promise<boolean> {
  try {
    return (await postJson('/v2/user/email-consent', { emailConsent, consentHtmlSnippet })).ok
  } catch {
    return false
  }
}
