// The modals of §2.2, opened and closed by id. Several cannot be closed by the backdrop: the spec does not say which,
// so a modal that waits on an answer the user must give (consent, acknowledgement) or on a running process
// (subscription polling, account creation) is not (docs/decisions.md).

export const MODAL_IDS = [
  'UnlockChannel',
  'OneClickConsent',
  'EmailConsent',
  'UnlockOrUpgradeMembership',
  'ReactivateCancelledRebill',
  'UserGemsInfo',
  'SubscriptionStatus',
  'ConfirmOutgoingUpsell',
  'ConvertVipUser',
  'HealthWarning',
  'PromotionalVideo',
  'PurchaseMembership',
  'TandemAccountCreation',
  'UpgradeToYearlyMembership',
  'CamsConsent',
  'ExpertReviewModal',
] as const

export type ModalId = (typeof MODAL_IDS)[number]

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

/** The modal z-index of §9. */
export const MODAL_Z_INDEX = 9999

export function isModalId(value: unknown): value is ModalId {
  return typeof value === 'string' && (MODAL_IDS as readonly string[]).includes(value)
}
