// The modals of product.md, "Modals and flashes", opened and closed by id, each with its own props: one registry, typed by modal id, that the
// shell and every feature read. Several cannot be closed by the backdrop: the spec does not say which,
// so a modal that waits on an answer the user must give (consent, acknowledgement) or on a running process
// (subscription polling, account creation) is not (docs/decisions/).
// A leaf: it imports no feature and no shell component, so a feature can register its bodies against it (see
// modalBodies.ts) without a cycle through the modal host.
import type { HEALTH_WARNING_REGIONS } from '../routing/constants'

type HealthWarningRegion = (typeof HEALTH_WARNING_REGIONS)[number]

/** A partner's price as the deals and the outgoing upsell give it: one amount, or a first and a recurring one. */
export type UpsellPrice = string | number | { initial: string | null; recurring: string | null }

/** What each modal is opened with. Every entry is an object; `{}` when the modal takes nothing. */
export interface ModalPropsMap {
  UnlockChannel: { channelPackId: string; packName?: string; onUnlocked?: () => void }
  OneClickConsent: { partnerName?: string | null; price?: UpsellPrice | null; oneClickUrl?: string | null; src?: string | null }
  /** Absent: the members' text. */
  EmailConsent: { variant?: 'guest' | 'tandem' | 'member' }
  UnlockOrUpgradeMembership: {
    videoId: string
    videoNewId?: string
    videoTitle?: string
    payPerVideoCredits?: number | null
    /** One of the free limited trial's videos: how many are left (no credit is spent). */
    freeVideosLeft?: number | null
    onUnlocked?: () => void
  }
  ReactivateCancelledRebill: Record<string, never>
  /** intro: the gems introduction, which the member acknowledges. */
  UserGemsInfo: { intro?: boolean }
  SubscriptionStatus: { action?: 'reactivation' | 'fromJoinnow' }
  ConfirmOutgoingUpsell: {
    confirmationLink: string
    confirmationTitle?: string
    description?: string
    component?: string
    price?: UpsellPrice | null
  }
  ConvertVipUser: { onConverted?: () => void }
  HealthWarning: { region: HealthWarningRegion }
  PromotionalVideo: Record<string, never>
  PurchaseMembership: {
    /** expired: the rejoin wording; absent, an upgrade. */
    reason?: 'upgrade' | 'expired'
    /** A denied action: only the single-site options (product.md, "Access-denied routing"). */
    singleSiteOnly?: boolean
    /** The element and affiliate campaign of what opened the modal (an upgrade or porn-portal bar, the overlay). */
    elm?: string
    campaign?: string | null
  }
  TandemAccountCreation: { onCreated?: () => void }
  UpgradeToYearlyMembership: { elm?: string }
  /** next: where to go once consented, a /cams path. */
  CamsConsent: { next?: string }
  ExpertReviewModal: { videoId: string; recommId?: string | null }
}

export type ModalId = keyof ModalPropsMap

/** A modal's props, with the one the host reads itself: a title in place of the modal's translated one. */
export type ModalProps<Id extends ModalId> = Readonly<ModalPropsMap[Id] & { title?: string }>

/** What a modal's body receives. */
export interface ModalBodyProps<Id extends ModalId> {
  props: ModalProps<Id>
  close: () => void
}

/** An open modal: its id and the props of that id (a discriminated union on id). */
export type OpenModal = { [Id in ModalId]: { id: Id; props: ModalProps<Id> } }[ModalId]

/** open()'s arguments after the id: the props, optional when the modal needs none. */
export type OpenArgs<Id extends ModalId> =
  Record<string, never> extends ModalPropsMap[Id]
    ? [props?: ModalProps<Id>]
    : Partial<ModalPropsMap[Id]> extends ModalPropsMap[Id]
      ? [props?: ModalProps<Id>]
      : [props: ModalProps<Id>]

/** A modal to open, as a value (a rule's decision): its id, and its props when it needs some. */
export type ModalRequest = {
  [Id in ModalId]: OpenArgs<Id> extends [props: ModalProps<Id>] ? { id: Id; props: ModalProps<Id> } : { id: Id; props?: ModalProps<Id> }
}[ModalId]


export interface ModalBehaviour {
  /** A click on the backdrop closes it. */
  closableByBackdrop: boolean
  /** Escape and a close button close it; false for modals that end only by the user's answer. */
  dismissible: boolean
}

const DISMISSIBLE: ModalBehaviour = { closableByBackdrop: true, dismissible: true }
const NOT_BY_BACKDROP: ModalBehaviour = { closableByBackdrop: false, dismissible: true }
const ANSWER_ONLY: ModalBehaviour = { closableByBackdrop: false, dismissible: false }

export const MODAL_BEHAVIOUR: Readonly<Record<ModalId, ModalBehaviour>> = {
  UnlockChannel: DISMISSIBLE,
  OneClickConsent: NOT_BY_BACKDROP,
  EmailConsent: NOT_BY_BACKDROP,
  UnlockOrUpgradeMembership: DISMISSIBLE,
  ReactivateCancelledRebill: DISMISSIBLE,
  UserGemsInfo: DISMISSIBLE,
  SubscriptionStatus: ANSWER_ONLY,
  ConfirmOutgoingUpsell: NOT_BY_BACKDROP,
  ConvertVipUser: ANSWER_ONLY,
  HealthWarning: ANSWER_ONLY,
  PromotionalVideo: DISMISSIBLE,
  PurchaseMembership: DISMISSIBLE,
  TandemAccountCreation: NOT_BY_BACKDROP,
  UpgradeToYearlyMembership: DISMISSIBLE,
  CamsConsent: NOT_BY_BACKDROP,
  ExpertReviewModal: DISMISSIBLE,
}

/** Every modal id, in the registry's order (MODAL_BEHAVIOUR names each id exactly once). */
export const MODAL_IDS = Object.keys(MODAL_BEHAVIOUR) as readonly ModalId[]

/** The modal z-index of product.md, "Business constants and limits". */
export const MODAL_Z_INDEX = 9999

export function isModalId(value: unknown): value is ModalId {
  return typeof value === 'string' && Object.hasOwn(MODAL_BEHAVIOUR, value)
}
