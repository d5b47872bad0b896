// Deals, offers, cams and the one-click upsell result routes (rows: ./rows.json).
import type { UpsellPrice } from '../../../app/shell/modalIds'
import {
  failure,
  guarded,
  MESSAGES,
  page,
  redirect,
  type RouteInput,
  type RouteOutcome,
  type TenantConfig,
  UPSELL_TRACKING_COOKIES,
} from '../../../app/routing'

/** /offers: a pending promotional teaser sends the user to `next` (default /) first. */
export const offersRule = guarded('/offers', (): RouteOutcome => page('offers'))

/** /cams: authenticated (the table); the redirect target comes from the one-click upsell call. */

/** JSON body of POST {payments host}/v1/outgoing-upsells-oneclick/cams: the query plus email and siteName. */
export function camsRequestBody(
  query: URLSearchParams,
  email: string | null,
  tenant: Pick<TenantConfig, 'tenant'>,
): Record<string, string | null> {
  return { ...Object.fromEntries(query), email, siteName: tenant.tenant }
}

export interface CamsResponse {
  ok: boolean
  statusText: string
  body: unknown
}

export function camsOutcome(response: CamsResponse): RouteOutcome<never> {
  if (!response.ok) return failure(`${MESSAGES.camsUrlFailed}: ${response.statusText}`)
  const url = (response.body as { url?: unknown } | null)?.url
  if (typeof url !== 'string' || url === '') return failure(`${MESSAGES.camsUrlFailed}: no url`)
  return redirect(url)
}

export interface DealConfirmation {
  title: string
  confirmationLink: string
  component: string
  price: UpsellPrice | null
  description: string
}

function base64ToText(encoded: string): string {
  // A '+' that was not percent-encoded arrives as a space; accept the URL-safe alphabet too.
  const standard = encoded.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/')
  const padded = standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), '=')
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const part = (value: unknown): string | null => (value === undefined || value === null ? null : String(value))

/** The price as the query gives it: an amount, or an object with a first and a recurring amount. */
function upsellPrice(value: unknown): UpsellPrice | null {
  if (typeof value === 'string' || typeof value === 'number') return value
  if (value && typeof value === 'object') {
    const { initial, recurring } = value as { initial?: unknown; recurring?: unknown }
    return { initial: part(initial), recurring: part(recurring) }
  }
  return null
}

/** Decodes the base64 JSON of the deals `confirmation` query; null when it is not base64 JSON of an object. */
export function decodeDealConfirmation(encoded: string): DealConfirmation | null {
  try {
    const json: unknown = JSON.parse(base64ToText(encoded))
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return null
    const fields = json as Record<string, unknown>
    return {
      title: text(fields.title),
      confirmationLink: text(fields.confirmationLink),
      component: text(fields.component),
      price: upsellPrice(fields.price),
      description: text(fields.description),
    }
  } catch {
    return null
  }
}

/** Only an http(s) address counts as a confirmation link: anything else could run script from the modal. */
function isUsableLink(link: string): boolean {
  try {
    const { protocol } = new URL(link)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

export interface DealsData {
  confirmation: DealConfirmation | null
  openModal: 'ConfirmOutgoingUpsell' | null
}

/** /deals: a confirmation query opens the outgoing-upsell confirmation modal; an empty link is an error. */
export const dealsRule = guarded('/deals', ({ query }): RouteOutcome<DealsData> => {
  const encoded = query.get('confirmation')
  if (encoded === null) return page('deals', { confirmation: null, openModal: null })
  const confirmation = decodeDealConfirmation(encoded)
  if (confirmation === null || !isUsableLink(confirmation.confirmationLink.trim())) {
    return failure(MESSAGES.confirmationLinkMissing)
  }
  return page('deals', { confirmation, openModal: 'ConfirmOutgoingUpsell' })
})

export interface UpsellResultData {
  /** outgoingUpsellOneclickTracking's status: true on the success route, false on the failure route. */
  status: boolean
  /** Cookie set when the tracking call returns a redirectUrl. */
  cookieName: string
}

/** /_upsell_signupsuccess */
export function upsellSignupSuccessRule(): RouteOutcome<UpsellResultData> {
  return page('oneClickUpsellSuccess', { status: true, cookieName: UPSELL_TRACKING_COOKIES.success })
}

/** /_upsell_signupdenial */
export function upsellSignupDenialRule(): RouteOutcome<UpsellResultData> {
  return page('oneClickUpsellFailure', { status: false, cookieName: UPSELL_TRACKING_COOKIES.failure })
}

export interface OutgoingUpsellData {
  epochUpsellId: string | null
  segpayUpsellId: string | null
  rgUpsellId: string | null
  tourLinkCode: string | null
  memberLink: string | null
  gasCid: string | null
  confirmed: string | null
}

/** /oneclick/outgoing-upsell */
export function outgoingUpsellRule({ query }: RouteInput): RouteOutcome<OutgoingUpsellData> {
  return page('outgoingUpsellOneClick', {
    epochUpsellId: query.get('epoch_upsellid'),
    segpayUpsellId: query.get('segpay_upsellid'),
    rgUpsellId: query.get('rg_upsellid'),
    tourLinkCode: query.get('tour_link_code'),
    memberLink: query.get('member_link'),
    gasCid: query.get('gas_cid'),
    confirmed: query.get('confirmed'),
  })
}
