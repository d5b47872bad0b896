// The modals that open by themselves on page load (product.md, "Modals and flashes"),
// and the one a denied action opens. Pure: the shell gathers the facts, these decide.
import { HEALTH_WARNING_REGIONS, type ScreenId, type TenantConfig } from '../routing'
import type { ModalRequest } from './modalIds'

export type HealthWarningRegion = (typeof HEALTH_WARNING_REGIONS)[number]
export type SubscriptionKind = 'member' | 'trial' | 'porn-portal' | 'expired'

export interface AutoModalFacts {
  screen: ScreenId
  isAuthenticated: boolean
  /** Scope guest (@paysites/guest-user). */
  isGuest: boolean
  /** Null for a visitor. */
  subscription: { kind: SubscriptionKind; active: boolean } | null
  /** The page was reached with a signup notification in its query. */
  signupNotification: boolean
  unlockedChannelPackCount: number
  gemsIntroSeen: boolean
  /** The gems modal showed within the last day (the gems service's mayShowGemsModal is false). */
  gemsModalShownWithinDay: boolean
  isTandemChild: boolean
  promotionalTeaserViewed: boolean
  /**
   * The profile's shouldRequestEmailConsent: the profile service owns the rule (guests and tandem users, never an
   * internal test domain, until answered); the shell only opens the prompt on it.
   */
  emailConsentRequested: boolean
  /** The visitor's region, e.g. 'US-TX'; null when unknown. */
  region: string | null
  healthWarningAcknowledged: Readonly<Partial<Record<HealthWarningRegion, boolean>>>
}

const SIGNUP_SCREENS: readonly ScreenId[] = ['signupSuccess', 'signupExternal', 'signupDenied']
const ONE_CLICK_RESULT_SCREENS: readonly ScreenId[] = ['oneClickUpsellSuccess', 'oneClickUpsellFailure', 'outgoingUpsellOneClick']
const UPGRADE_SCREENS: readonly ScreenId[] = ['upgradeMembership', 'upgradeSuccess', 'upgradeDenied']

/** Where the health warning never shows: join, signup, upgrade, signup denied and one-click upsell pages. */
export const HEALTH_WARNING_EXCLUDED_SCREENS: readonly ScreenId[] = [
  'joinNow',
  ...SIGNUP_SCREENS,
  ...UPGRADE_SCREENS,
  ...ONE_CLICK_RESULT_SCREENS,
]

/** Where the gems intro never opens: offers, join, signup and one-click result pages. */
export const GEMS_INTRO_EXCLUDED_SCREENS: readonly ScreenId[] = ['offers', 'joinNow', ...SIGNUP_SCREENS, ...ONE_CLICK_RESULT_SCREENS]

const isHealthWarningRegion = (region: string | null): region is HealthWarningRegion =>
  region !== null && (HEALTH_WARNING_REGIONS as readonly string[]).includes(region)

/** The region whose warning is due (enabled for the tenant, not acknowledged), regardless of the page. */
export function pendingHealthWarning(facts: AutoModalFacts, tenant: TenantConfig): HealthWarningRegion | null {
  const { region } = facts
  if (!isHealthWarningRegion(region)) return null
  if (tenant.features.healthWarning[region]?.enabled !== true) return null
  return facts.healthWarningAcknowledged[region] === true ? null : region
}

/** The health warning to show on this page, if any. */
export function healthWarningToShow(facts: AutoModalFacts, tenant: TenantConfig): HealthWarningRegion | null {
  if (HEALTH_WARNING_EXCLUDED_SCREENS.includes(facts.screen)) return null
  return pendingHealthWarning(facts, tenant)
}

/** The EmailConsent prompt to open on this page, if any: the guests' text or the tandem users' (product.md, "Account and profile"). */
export function emailConsentPrompt(facts: AutoModalFacts): { variant: 'guest' | 'tandem' } | null {
  if (!facts.isAuthenticated || !facts.emailConsentRequested) return null
  if (HEALTH_WARNING_EXCLUDED_SCREENS.includes(facts.screen)) return null
  return { variant: facts.isGuest ? 'guest' : 'tandem' }
}

export function isPromotionalTeaserPending(facts: AutoModalFacts, tenant: TenantConfig): boolean {
  return (
    tenant.features.promotionalVideoTeaserModal.enabled &&
    facts.isAuthenticated &&
    !facts.isGuest &&
    !facts.promotionalTeaserViewed
  )
}

/** Expired: not active and not porn-portal (product.md, "Kinds of user"). */
export function isExpired(facts: Pick<AutoModalFacts, 'subscription'>): boolean {
  const { subscription } = facts
  if (subscription === null) return false
  return subscription.kind === 'expired' || (!subscription.active && subscription.kind !== 'porn-portal')
}

/** Every reason the gems intro stays shut; it opens only when the list is empty. */
export function gemsIntroBlockers(facts: AutoModalFacts, tenant: TenantConfig): string[] {
  const blockers: string[] = []
  if (!facts.isAuthenticated) blockers.push('visitor')
  if (GEMS_INTRO_EXCLUDED_SCREENS.includes(facts.screen)) blockers.push('page')
  if (facts.subscription === null || !facts.subscription.active || facts.subscription.kind === 'trial') {
    blockers.push('subscription inactive or trial')
  }
  if (facts.signupNotification) blockers.push('signup notification')
  if (facts.unlockedChannelPackCount > 0) blockers.push('channel packs unlocked')
  if (facts.gemsIntroSeen) blockers.push('intro seen')
  if (facts.gemsModalShownWithinDay) blockers.push('shown within a day')
  if (isPromotionalTeaserPending(facts, tenant)) blockers.push('teaser pending')
  if (pendingHealthWarning(facts, tenant) !== null) blockers.push('health warning unacknowledged')
  if (facts.isTandemChild) blockers.push('tandem child')
  return blockers
}

export function shouldOpenGemsIntro(facts: AutoModalFacts, tenant: TenantConfig): boolean {
  return gemsIntroBlockers(facts, tenant).length === 0
}

/**
 * The one modal to open on this page load, most urgent first: the health warning (it covers everything), the
 * e-mail consent prompt, the promotional teaser, the upgrade modal for expired users, then the gems intro.
 */
export type AutomaticModal = ModalRequest

export function automaticModal(facts: AutoModalFacts, tenant: TenantConfig): AutomaticModal | null {
  const region = healthWarningToShow(facts, tenant)
  if (region !== null) return { id: 'HealthWarning', props: { region } }
  // The signup result pages sign the new member in and keep the welcome in front: the prompts and offers
  // wait for the next page.
  if (SIGNUP_SCREENS.includes(facts.screen)) return null
  const consent = emailConsentPrompt(facts)
  if (consent !== null) return { id: 'EmailConsent', props: consent }
  if (isPromotionalTeaserPending(facts, tenant)) return { id: 'PromotionalVideo' }
  if (isExpired(facts)) return { id: 'PurchaseMembership', props: { reason: 'expired' } }
  if (shouldOpenGemsIntro(facts, tenant)) return { id: 'UserGemsInfo', props: { intro: true } }
  return null
}

export interface DeniedActionFacts {
  /** The denied action is on a channel video. */
  channelVideo: boolean
  isMultisiteWithAccess: boolean
  isActiveTrial: boolean
  payPerVideoCredits: number
  isThirdPartyChannel: boolean
  isFreeLimitedTrial: boolean
}

/** Which modal a denied action opens; the caller adds what the pack or video modal is about. */
export type DeniedActionModal =
  | { id: 'UnlockChannel' }
  | { id: 'UnlockOrUpgradeMembership' }
  | { id: 'PurchaseMembership'; props: { singleSiteOnly: true } }

/** product.md, "Access-denied routing". */
export function modalForDeniedAction(facts: DeniedActionFacts): DeniedActionModal {
  if (facts.channelVideo && facts.isMultisiteWithAccess) return { id: 'UnlockChannel' }
  if (facts.isActiveTrial && facts.payPerVideoCredits > 0 && !facts.isThirdPartyChannel && !facts.isFreeLimitedTrial) {
    return { id: 'UnlockOrUpgradeMembership' }
  }
  return { id: 'PurchaseMembership', props: { singleSiteOnly: true } }
}
