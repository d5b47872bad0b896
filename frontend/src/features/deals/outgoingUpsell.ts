// The outgoing one-click upsell (product.md, "Deals, offers and upsells"): the query of
// /oneclick/outgoing-upsell as outgoingUpsellOneclick's input, the confirmation step (the ConfirmOutgoingUpsell
// modal, whose link comes back with confirmed=1), and the result pages' tracking cookie.
import type { ModalProps } from '../../app/shell/modalIds'
import { ONE_DAY_MS, UPSELL_TRACKING_COOKIES, sameSitePath } from '../../app/routing'
import type { OutgoingUpsellData } from './routes/rules'

/** The cookie the result pages set to the tracking call's redirectUrl, kept one day (the final argument of 1 in product.md, "Deals, offers and upsells"). */
export const UPSELL_COOKIE_MAX_AGE_SECONDS = ONE_DAY_MS / 1000

export { UPSELL_TRACKING_COOKIES }

/** `confirmed` present as 1 or true: the member already confirmed in the modal. */
export function isConfirmed(confirmed: string | null): boolean {
  return confirmed !== null && ['1', 'true'].includes(confirmed.trim().toLowerCase())
}

/** A link the answer may send the browser to: a path on this site or an http(s) address. */
function asLink(value: string | null): string | null {
  const trimmed = value?.trim() ?? ''
  if (!trimmed) return null
  if (sameSitePath(trimmed)) return trimmed
  try {
    const { protocol } = new URL(trimmed)
    return protocol === 'https:' || protocol === 'http:' ? trimmed : null
  } catch {
    return null
  }
}

export interface OutgoingUpsellVariables {
  epochUpsellId: string | null
  segpayUpsellId: string | null
  rgUpsellId: string | null
  fallbackUrl: string | null
  memberLink: string | null
  clickId: string | null
  confirmationRequired: boolean
}

/**
 * The route's query as the mutation's input: the upsell id at each biller, member_link, gas_cid as the click id, the
 * tour link (when it is a link) as the fallback, and the confirmation step until the member has confirmed.
 */
export function outgoingUpsellVariables(data: OutgoingUpsellData): OutgoingUpsellVariables {
  return {
    epochUpsellId: data.epochUpsellId,
    segpayUpsellId: data.segpayUpsellId,
    rgUpsellId: data.rgUpsellId,
    fallbackUrl: asLink(data.tourLinkCode),
    memberLink: data.memberLink,
    clickId: data.gasCid,
    confirmationRequired: !isConfirmed(data.confirmed),
  }
}

/** The same page with confirmed=1: where the confirmation modal's button goes. */
export function confirmationLinkFor(pathname: string, search: string): string {
  const query = new URLSearchParams(search)
  query.set('confirmed', '1')
  return `${pathname}?${query.toString()}`
}

export interface OutgoingUpsellAnswer {
  success: boolean
  redirectUrl: string | null
  redirectToConfirmationStep: boolean
  confirmationModal: {
    title: string
    description: string
    component: string
    price: { initial: string; recurring: string }
  } | null
}

export type OutgoingUpsellStep =
  /** Open ConfirmOutgoingUpsell with these props (product.md, "Deals, offers and upsells": component, confirmationLink, confirmationTitle, description, price). */
  | { kind: 'confirm'; modalProps: ModalProps<'ConfirmOutgoingUpsell'> }
  /** Charged (to the member link) or not possible (to the fallback). */
  | { kind: 'leave'; url: string; success: boolean }
  /** Not possible, and nowhere to go. */
  | { kind: 'denied' }

export function outgoingUpsellStep(answer: OutgoingUpsellAnswer, confirmationLink: string): OutgoingUpsellStep {
  if (answer.redirectToConfirmationStep && answer.confirmationModal) {
    const { title, description, component, price } = answer.confirmationModal
    return {
      kind: 'confirm',
      modalProps: { title, confirmationTitle: title, description, component, price, confirmationLink },
    }
  }
  const url = asLink(answer.redirectUrl)
  if (url) return { kind: 'leave', url, success: answer.success }
  return { kind: 'denied' }
}

/** The result pages: where the tracking answer sends the browser, and the cookie it sets on the way. */
export function upsellResultStep(
  cookieName: string,
  answer: { redirectUrl: string | null } | null,
): { cookie: { name: string; value: string; maxAgeSeconds: number }; url: string } | null {
  const url = asLink(answer?.redirectUrl ?? null)
  if (!url) return null
  return { cookie: { name: cookieName, value: url, maxAgeSeconds: UPSELL_COOKIE_MAX_AGE_SECONDS }, url }
}
