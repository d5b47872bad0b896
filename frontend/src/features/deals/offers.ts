// The offers page (product.md, "Deals, offers and upsells"): its grid of at most 15
// offers, the interstitial that can be hidden for one month (interstitial_snooze) or continued
// (interstitial_continue), and where continuing goes.
import { DEFAULT_REDIRECT_TARGET, OFFERS_GRID_SIZE, sameSitePath } from '../../app/routing'

export { OFFERS_GRID_SIZE }

/** The ability that shows the "Hide for one month" button (product.md, "Roles and abilities": active subscribers with tenant access). */
export const HIDE_MONTH_INTERSTITIAL_BUTTON = ['see', 'HideMonthInterstitialButton'] as const

/** The offers grid: the first 15 offers, in the order the deals service ranked them. */
export function offersGrid<T>(deals: readonly T[]): readonly T[] {
  return deals.slice(0, OFFERS_GRID_SIZE)
}

export interface InterstitialFacts {
  /** The user's interstitial on this brand; null when the answer has none. */
  interstitial: { snoozed: boolean } | null
  /** The user may hide it for a month (HideMonthInterstitialButton). */
  mayHide: boolean
  /** The page's `next` query value, where continuing goes. */
  next: string | null
}

export type InterstitialView =
  /** The interstitial shows, with Continue and, for those who may, "Hide for one month". */
  | { kind: 'shown'; mayHide: boolean; continueTo: string }
  /** Hidden for the month, and the page was only a stop on the way to `next`: go straight there. */
  | { kind: 'skip'; to: string }
  /** Hidden for the month: the offers grid alone. */
  | { kind: 'hidden' }

export function interstitialView({ interstitial, mayHide, next }: InterstitialFacts): InterstitialView {
  const target = sameSitePath(next)
  if (interstitial?.snoozed === true) return target ? { kind: 'skip', to: target } : { kind: 'hidden' }
  return { kind: 'shown', mayHide, continueTo: target ?? DEFAULT_REDIRECT_TARGET }
}

/** "December 25, 2026": the day a snooze ends, in the words of the flash. */
export function snoozedUntilText(snoozedUntil: string | null | undefined): string | null {
  if (!snoozedUntil) return null
  const date = new Date(snoozedUntil)
  if (Number.isNaN(date.getTime())) return null
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date)
}
