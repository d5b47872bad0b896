// Member routes: join, offers, account, cross-site, cams, favourites, deals.
import { requireAuthentication } from '../access'
import { BRANDS, DEFAULT_REDIRECT_TARGET, HIDDEN_BRANDS, MESSAGES } from '../constants'
import type { RouteInput, TenantConfig } from '../context'
import { failure, notFound, page, redirect, type RouteOutcome } from '../outcome'
import { parsePage, sameSitePath, withQuery } from '../query'

/** Any path containing /joinnow counts as the join route. */
export function isJoinRoute(pathname: string): boolean {
  return pathname.includes('/joinnow')
}

/** /joinnow: visitors only; an authenticated user goes home with from=joinnow. */
export function joinNowRule({ user }: RouteInput): RouteOutcome {
  if (user.isAuthenticated) return redirect(withQuery('/', { from: 'joinnow' }))
  return page('joinNow')
}

/** /offers: a pending promotional teaser sends the user to `next` (default /) first. */
export function offersRule(input: RouteInput): RouteOutcome {
  const denied = requireAuthentication(input)
  if (denied) return denied
  const teaserPending =
    input.tenant.features.promotionalVideoTeaserModal.enabled && input.user.profile?.teaserViewed !== true
  if (teaserPending) return redirect(sameSitePath(input.query.get('next')) ?? DEFAULT_REDIRECT_TARGET)
  return page('offers')
}

/** Visible brands as upper-case ".COM" names joined with commas and "&": "A.COM, B.COM & C.COM". */
export function formatBrandNames(brands: readonly string[]): string {
  const names = brands.map((brand) => `${brand.toUpperCase()}.COM`)
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`
}

export const VISIBLE_BRANDS: readonly string[] = BRANDS.filter((brand) => !HIDDEN_BRANDS.includes(brand))

/** /account: password_changed names the brands the changed password works on. */
export function accountRule(input: RouteInput): RouteOutcome<{ passwordChangedBrands: string | null }> {
  const denied = requireAuthentication(input)
  if (denied) return denied
  return page('account', {
    passwordChangedBrands: input.query.has('password_changed') ? formatBrandNames(VISIBLE_BRANDS) : null,
  })
}

/** The members URL with the current brand's host label replaced by `site`, plus an optional same-site deeplink. */
export function crossSiteUrl(membersUrl: string, currentBrand: string, site: string, deeplink?: string): string {
  const url = new URL(membersUrl)
  url.hostname = url.hostname
    .split('.')
    .map((label) => (label === currentBrand ? site : label))
    .join('.')
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  return deeplink ? `${base}${deeplink}` : base
}

/** /xsite/{site} */
export function xsiteRule(input: RouteInput): RouteOutcome {
  const denied = requireAuthentication(input)
  if (denied) return denied
  const { site } = input.params
  if (site === undefined || !(BRANDS as readonly string[]).includes(site)) return notFound
  const deeplink = sameSitePath(input.query.get('deeplink'))
  try {
    return redirect(crossSiteUrl(input.tenant.membersUrl, input.tenant.tenant, site, deeplink))
  } catch {
    return failure(MESSAGES.unexpectedHost)
  }
}

/** /cams: authenticated; the redirect target comes from the one-click upsell call. */
export const camsGuard = requireAuthentication

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
export function favoritesRule(input: RouteInput): RouteOutcome {
  return requireAuthentication(input) ?? page('favorite')
}

/** Favourite lists: a page below 1 or non-numeric redirects with the query cleared. */
function favoriteList(
  input: RouteInput,
  screen: 'favoriteVideos' | 'favoriteModels' | 'favoriteChannels',
): RouteOutcome<{ page: number }> {
  const pageParam = parsePage(input.query.get('page'))
  if (!pageParam.valid) return redirect(input.pathname)
  return page(screen, { page: pageParam.page })
}

/** /favorites/videos (authenticated) */
export function favoriteVideosRule(input: RouteInput): RouteOutcome<{ page: number }> {
  return requireAuthentication(input) ?? favoriteList(input, 'favoriteVideos')
}

/** /favorites/performers (authenticated) */
export function favoritePerformersRule(input: RouteInput): RouteOutcome<{ page: number }> {
  return requireAuthentication(input) ?? favoriteList(input, 'favoriteModels')
}

/** /favorites/channels: the table requires authentication only of the first two favourites lists. */
export function favoriteChannelsRule(input: RouteInput): RouteOutcome<{ page: number }> {
  return favoriteList(input, 'favoriteChannels')
}

export interface DealConfirmation {
  title: string
  confirmationLink: string
  component: string
  price: unknown
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
      price: fields.price,
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
export function dealsRule({ query }: RouteInput): RouteOutcome<DealsData> {
  const encoded = query.get('confirmation')
  if (encoded === null) return page('deals', { confirmation: null, openModal: null })
  const confirmation = decodeDealConfirmation(encoded)
  if (confirmation === null || !isUsableLink(confirmation.confirmationLink.trim())) {
    return failure(MESSAGES.confirmationLinkMissing)
  }
  return page('deals', { confirmation, openModal: 'ConfirmOutgoingUpsell' })
}
