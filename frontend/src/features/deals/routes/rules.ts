// Member routes: join, offers, account, cross-site, cams, favourites, deals.
import type { UpsellPrice } from '../../../app/shell/modalIds'
import { MESSAGES, VISIBLE_BRANDS } from '../../../app/routing/constants'
import type { TenantConfig } from '../../../app/routing/context'
import { failure, page, redirect, type RouteOutcome } from '../../../app/routing/outcome'
import { guarded } from '../../../app/routing/table'

/** Any path containing /joinnow counts as the join route. */
export function isJoinRoute(pathname: string): boolean {
  return pathname.includes('/joinnow')
}

/** /joinnow: visitors only; an authenticated user goes home with from=joinnow. */
export const joinNowRule = guarded('/joinnow', (): RouteOutcome => page('joinNow'))

/** /offers: a pending promotional teaser sends the user to `next` (default /) first. */
export const offersRule = guarded('/offers', (): RouteOutcome => page('offers'))

/** Visible brands as upper-case ".COM" names joined with commas and "&": "A.COM, B.COM & C.COM". */
export function formatBrandNames(brands: readonly string[]): string {
  const names = brands.map((brand) => `${brand.toUpperCase()}.COM`)
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`
}

/** /account: password_changed names the brands the changed password works on. */
export const accountRule = guarded(
  '/account',
  ({ query }): RouteOutcome<{ passwordChangedBrands: string | null }> =>
    page('account', { passwordChangedBrands: query.has('password_changed') ? formatBrandNames(VISIBLE_BRANDS) : null }),
)

export { crossSiteUrl } from '../../../app/routing/table'

/** /xsite/{site}: the table sends the user to the site's members host (or answers not-found). */
// The crossSite step always answers (a members URL that does not parse throws to the loader error handler).
export const xsiteRule = guarded('/xsite/:site', (): RouteOutcome => failure(MESSAGES.unexpectedHost))

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

/** /favorites */
export const favoritesRule = guarded('/favorites', (): RouteOutcome => page('favorite'))

/** /favorites/videos (authenticated) */
export const favoriteVideosRule = guarded('/favorites/videos', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteVideos', { page: pass.page }),
)

/** /favorites/performers (authenticated) */
export const favoritePerformersRule = guarded('/favorites/performers', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteModels', { page: pass.page }),
)

/** /favorites/channels: the table requires authentication only of the first two favourites lists. */
export const favoriteChannelsRule = guarded('/favorites/channels', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteChannels', { page: pass.page }),
)

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
