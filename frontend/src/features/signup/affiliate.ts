// Affiliate and analytics values the join links carry (product.md, "Analytics and affiliates", account-payments-gems
// product.md, "Analytics and affiliates"): the affiliate code of a `ujc` landing kept 30 days in aff_code_single / aff_code_multi (the sales tracking
// cookie), the stored nats value put on every join link, the join-form image A/B test (cookie-driven, off by
// default, variants a and b, one-year cookie), and the analytics leave-event wait of up to 300 ms.

export const SALES_TRACKING_DAYS = 30
export const AFF_CODE_SINGLE = 'aff_code_single'
export const AFF_CODE_MULTI = 'aff_code_multi'
export const NATS_COOKIE = 'nats'
export const JOIN_FORM_IMAGE_COOKIE = 'ab_join_form_image'
export const JOIN_FORM_IMAGE_VARIANTS = ['a', 'b'] as const
export type JoinFormImageVariant = (typeof JOIN_FORM_IMAGE_VARIANTS)[number]
export const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60
export const LEAVE_EVENT_WAIT_MS = 300

const DAY_SECONDS = 24 * 60 * 60
/** Affiliate codes and nats values are short plain text; anything else is not stored. */
const TRACKING_VALUE = /^[A-Za-z0-9_.:=-]{1,128}$/

export interface CookieJar {
  get(name: string): string | null
  set(name: string, value: string, maxAgeSeconds: number): void
}

export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at <= 0) continue
    const name = part.slice(0, at).trim()
    try {
      cookies.set(name, decodeURIComponent(part.slice(at + 1).trim()))
    } catch {
      // A value that is not percent-encoding is someone else's cookie; skip it.
    }
  }
  return cookies
}

/** The document's cookies (first-party, Path=/, SameSite=Lax). */
export function documentCookies(doc: Document = document): CookieJar {
  return {
    get: (name) => parseCookies(doc.cookie).get(name) ?? null,
    set: (name, value, maxAgeSeconds) => {
      const secure = doc.location?.protocol === 'https:' ? '; Secure' : ''
      doc.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`
    },
  }
}

/**
 * On landing: `ujc` (the affiliate's join code) is kept 30 days for both kinds of sale, single-site and multisite;
 * `nats` (the affiliate tracking value) is kept as long, for the join links. Answers what it stored.
 */
export function captureAffiliate(query: URLSearchParams, cookies: CookieJar): { ujc: string | null; nats: string | null } {
  const ujc = query.get('ujc')
  const nats = query.get('nats')
  const stored = { ujc: null as string | null, nats: null as string | null }
  if (ujc !== null && TRACKING_VALUE.test(ujc)) {
    cookies.set(AFF_CODE_SINGLE, ujc, SALES_TRACKING_DAYS * DAY_SECONDS)
    cookies.set(AFF_CODE_MULTI, ujc, SALES_TRACKING_DAYS * DAY_SECONDS)
    stored.ujc = ujc
  }
  if (nats !== null && TRACKING_VALUE.test(nats)) {
    cookies.set(NATS_COOKIE, nats, SALES_TRACKING_DAYS * DAY_SECONDS)
    stored.nats = nats
  }
  return stored
}

/** The affiliate codes a `ujc` landing kept, for the join links and the join form; null where none is kept. */
export function storedAffiliateCodes(cookies: Pick<CookieJar, 'get'>): { affCodeSingle: string | null; affCodeMulti: string | null } {
  const read = (name: string) => {
    const value = cookies.get(name)
    return value !== null && TRACKING_VALUE.test(value) ? value : null
  }
  return { affCodeSingle: read(AFF_CODE_SINGLE), affCodeMulti: read(AFF_CODE_MULTI) }
}

/** The stored nats value for the join links; null without one. */
export function storedNats(cookies: Pick<CookieJar, 'get'>): string | null {
  const value = cookies.get(NATS_COOKIE)
  return value !== null && TRACKING_VALUE.test(value) ? value : null
}

/**
 * The join form's image variant: null while the test is off (the default); when on, the cookie's variant, or a new
 * one drawn and kept a year.
 */
export function joinFormImageVariant(cookies: CookieJar, enabled: boolean, random: () => number = Math.random): JoinFormImageVariant | null {
  if (!enabled) return null
  const kept = cookies.get(JOIN_FORM_IMAGE_COOKIE)
  if (kept === 'a' || kept === 'b') return kept
  const drawn: JoinFormImageVariant = random() < 0.5 ? 'a' : 'b'
  cookies.set(JOIN_FORM_IMAGE_COOKIE, drawn, ONE_YEAR_SECONDS)
  return drawn
}

/** Before leaving the page, give the analytics event up to 300 ms to go, never longer. */
export function waitForLeaveEvent(send: () => Promise<unknown>, waitMs = LEAVE_EVENT_WAIT_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs)
    send()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer)
        resolve()
      })
  })
}
