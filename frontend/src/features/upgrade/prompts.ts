// The upgrade prompts of product.md, "Roles and abilities": the upgrade bar, the porn-portal bar and the upgrade overlay,
// each shown exactly to the users whose server-computed abilities hold it (trial, free limited trial, expired,
// porn-portal; a cancelled RGNATIVE member gets the upgrade bar and the reactivate-cancelled-rebill modal; the
// overlay never to admins or active members). Each bar's action opens the existing purchase or reactivate modal,
// carrying the bar's affiliate campaign for the join form it may lead to.
import { campaignFor, type CampaignPlacement, type ProfileRoutingView, type ScreenId } from '../../app/routing'
import { HEALTH_WARNING_EXCLUDED_SCREENS } from '../../app/shell/autoModals'
import type { ModalProps, ModalRequest } from '../../app/shell/modalIds'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/shared'
import './copy'
import { PROMPT_ABILITIES } from './abilities'

/**
 * No bar on the pages of a purchase or signup in progress (join, signup, upgrade, one-click upsell): they are
 * already the way in, as for the health warning (product.md, "Modals and flashes").
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
  /** A page the bar points to besides its action: the free trial's bar links to the trial's videos. */
  link?: { label: string; href: string }
}

/** The free trial's videos, "free for your trial" (the route row in features/videos/routes/rows.json). */
export const FREE_TRIAL_VIDEOS_PATH = '/free-trial-videos'

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
      message: t('upgrade.bars.cancelled'),
      action: { label: t('account.membership.reactivate'), modal: 'ReactivateCancelledRebill', modalProps: {} },
    }
  }
  if (facts.can(...PROMPT_ABILITIES.freeLimitedTrialVideos)) {
    return {
      kind: 'freeLimitedTrial',
      message: t('upgrade.bars.free_trial', { site }),
      action: purchase(t('purchase_membership_modal.upgrade_now'), 'upgrade-bar', campaign),
      link: { label: t('upgrade.actions.see_free_videos'), href: FREE_TRIAL_VIDEOS_PATH },
    }
  }
  if (hasExpired(facts.profile)) {
    return {
      kind: 'expired',
      message: t('upgrade.bars.expired', { site }),
      action: purchase(t('upgrade.actions.rejoin'), 'upgrade-bar', campaign, 'expired'),
    }
  }
  if (facts.profile?.subscriptionKind === 'trial') {
    return {
      kind: 'trial',
      message: t('upgrade.bars.trial', { site }),
      action: purchase(t('purchase_membership_modal.upgrade_now'), 'upgrade-bar', campaign),
    }
  }
  if (facts.profile?.subscriptionKind === 'porn-portal') {
    return {
      kind: 'pornPortal',
      message: t('upgrade.bars.porn_portal', { site }),
      action: purchase(t('upgrade.actions.get_membership'), 'upgrade-bar', campaign),
    }
  }
  return {
    kind: 'upgrade',
    message: t('upgrade.bars.upgrade', { site }),
    action: purchase(t('purchase_membership_modal.upgrade_now'), 'upgrade-bar', campaign),
  }
}

/**
 * The porn-portal bar (expired members, product.md, "Roles and abilities"): the way back in by the video or by membership. On the offers page it
 * is the interstitial's bar, whose campaign is -int-pp-bar.
 */
export function pornPortalBar(facts: PromptFacts, site: string): PromptBar | null {
  if (facts.screen === undefined || BARLESS_SCREENS.includes(facts.screen)) return null
  if (!facts.can(...PROMPT_ABILITIES.pornPortalBar)) return null
  const placement: CampaignPlacement = facts.screen === 'offers' ? 'interstitialPornPortalBar' : 'pornPortalBar'
  return {
    kind: 'pornPortal',
    message: t('upgrade.bars.miss_site', { site }),
    action: purchase(t('upgrade.actions.see_options'), 'pp-bar', campaignFor(facts.campaignSource, placement, facts.mobile), 'expired'),
  }
}

/** The upgrade overlay's button: the purchase modal (the rejoin wording for an expired member), campaign -upgrade. */
export function upgradeOverlayAction(profile: PromptFacts['profile'], source: string, mobile: boolean): PromptAction {
  const campaign = campaignFor(source, 'upgrade', mobile)
  return hasExpired(profile)
    ? purchase(t('upgrade.actions.rejoin'), 'upgrade-overlay', campaign, 'expired')
    : purchase(t('purchase_membership_modal.upgrade_now'), 'upgrade-overlay', campaign)
}
