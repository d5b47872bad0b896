// The upgrade prompts of screens-routes-access.md §6: the upgrade bar, the porn-portal bar and the upgrade overlay,
// each shown exactly to the users whose server-computed abilities hold it (trial, free limited trial, expired,
// porn-portal; a cancelled RGNATIVE member gets the upgrade bar and the reactivate-cancelled-rebill modal; the
// overlay never to admins or active members). Each bar's action opens the existing purchase or reactivate modal,
// carrying the bar's affiliate campaign for the join form it may lead to.
import { campaignFor, type CampaignPlacement, type ProfileRoutingView, type ScreenId } from '../../app/routing'
import { HEALTH_WARNING_EXCLUDED_SCREENS } from '../../app/shell/autoModals'
import type { ModalProps, ModalRequest } from '../../app/shell/modalIds'

export const PROMPT_ABILITIES = {
  upgradeBar: ['see', 'UpgradeBar'],
  pornPortalBar: ['see', 'PornPortalBar'],
  upgradeOverlay: ['see', 'UpgradeOverlay'],
  reactivateCancelledRebill: ['see', 'ReactivateCancelledRebillModal'],
  freeLimitedTrialVideos: ['see', 'FreeLimitedTrialVideos'],
} as const satisfies Record<string, readonly [string, string]>

/**
 * No bar on the pages of a purchase or signup in progress (join, signup, upgrade, one-click upsell): they are
 * already the way in, as for the health warning (§2.2).
 */
export const BARLESS_SCREENS: readonly ScreenId[] = HEALTH_WARNING_EXCLUDED_SCREENS

export interface PromptFacts {
  can(action: string, subject: string): boolean
  profile: Pick<ProfileRoutingView, 'subscriptionKind' | 'isActive'> | null
  screen: ScreenId | undefined
  /** The campaign source, {src} (campaign.ts). */
  campaignSource: string
  mobile: boolean
}

export type PromptAction = { label: string } & (
  | { modal: 'PurchaseMembership'; modalProps: ModalProps<'PurchaseMembership'> }
  | { modal: 'ReactivateCancelledRebill'; modalProps: ModalProps<'ReactivateCancelledRebill'> }
)

/** The modal a prompt's button opens. */
export function promptModal(action: PromptAction): ModalRequest {
  return action.modal === 'PurchaseMembership'
    ? { id: action.modal, props: action.modalProps }
    : { id: action.modal, props: action.modalProps }
}

export interface PromptBar {
  kind: 'reactivate' | 'freeLimitedTrial' | 'trial' | 'expired' | 'pornPortal' | 'upgrade'
  message: string
  action: PromptAction
}

const purchase = (label: string, elm: string, campaign: string, reason?: 'expired'): PromptAction => ({
  label,
  modal: 'PurchaseMembership',
  modalProps: { elm, campaign, ...(reason ? { reason } : {}) },
})

/** Whose subscription has lapsed: the kind says expired, or a member or trial that is no longer active. */
function hasExpired(profile: PromptFacts['profile']): boolean {
  if (!profile) return false
  const { subscriptionKind, isActive } = profile
  return subscriptionKind === 'expired' || ((subscriptionKind === 'member' || subscriptionKind === 'trial') && !isActive)
}

/** The upgrade bar, worded for the user's kind; null without the ability or on a barless page. */
export function upgradeBar(facts: PromptFacts, site: string): PromptBar | null {
  if (facts.screen === undefined || BARLESS_SCREENS.includes(facts.screen)) return null
  if (!facts.can(...PROMPT_ABILITIES.upgradeBar)) return null
  const campaign = campaignFor(facts.campaignSource, 'upgrade', facts.mobile)
  if (facts.can(...PROMPT_ABILITIES.reactivateCancelledRebill)) {
    return {
      kind: 'reactivate',
      message: 'Your membership is cancelled and ends with the period you paid for.',
      action: { label: 'Reactivate my membership', modal: 'ReactivateCancelledRebill', modalProps: {} },
    }
  }
  if (facts.can(...PROMPT_ABILITIES.freeLimitedTrialVideos)) {
    return {
      kind: 'freeLimitedTrial',
      message: `Your free trial includes 3 full videos. Upgrade to watch every video on ${site}.`,
      action: purchase('Upgrade now', 'upgrade-bar', campaign),
    }
  }
  if (hasExpired(facts.profile)) {
    return {
      kind: 'expired',
      message: `Your membership has expired. Rejoin to watch every video on ${site} again.`,
      action: purchase('Rejoin now', 'upgrade-bar', campaign, 'expired'),
    }
  }
  if (facts.profile?.subscriptionKind === 'trial') {
    return {
      kind: 'trial',
      message: `You are on a trial. Upgrade to a full membership to watch every video on ${site}.`,
      action: purchase('Upgrade now', 'upgrade-bar', campaign),
    }
  }
  if (facts.profile?.subscriptionKind === 'porn-portal') {
    return {
      kind: 'pornPortal',
      message: `You pay per video. A membership opens every video on ${site}.`,
      action: purchase('Get a membership', 'upgrade-bar', campaign),
    }
  }
  return { kind: 'upgrade', message: `Upgrade to watch every video on ${site}.`, action: purchase('Upgrade now', 'upgrade-bar', campaign) }
}

/**
 * The porn-portal bar (expired members, §6): the way back in by the video or by membership. On the offers page it
 * is the interstitial's bar, whose campaign is -int-pp-bar.
 */
export function pornPortalBar(facts: PromptFacts, site: string): PromptBar | null {
  if (facts.screen === undefined || BARLESS_SCREENS.includes(facts.screen)) return null
  if (!facts.can(...PROMPT_ABILITIES.pornPortalBar)) return null
  const placement: CampaignPlacement = facts.screen === 'offers' ? 'interstitialPornPortalBar' : 'pornPortalBar'
  return {
    kind: 'pornPortal',
    message: `Miss ${site}? Come back for every video, or pick single videos with pay-per-video credits.`,
    action: purchase('See your options', 'pp-bar', campaignFor(facts.campaignSource, placement, facts.mobile), 'expired'),
  }
}

/** The upgrade overlay's button: the purchase modal (the rejoin wording for an expired member), campaign -upgrade. */
export function upgradeOverlayAction(profile: PromptFacts['profile'], source: string, mobile: boolean): PromptAction {
  const campaign = campaignFor(source, 'upgrade', mobile)
  return hasExpired(profile)
    ? purchase('Rejoin now', 'upgrade-overlay', campaign, 'expired')
    : purchase('Upgrade now', 'upgrade-overlay', campaign)
}
