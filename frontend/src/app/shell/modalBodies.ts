// Where each modal's body lives. Each body belongs to its feature and is loaded with it, lazily, when the modal first
// opens: the shell's first page carries none of them (docs/decisions/). The health warning is the exception: it
// covers the page before anything else may show. The table is typed by the registry (modalIds.ts): a body whose
// props are not its modal's, or a modal without a body, does not compile.
import { lazy, type ComponentType } from 'react'
import { HealthWarningBody } from './HealthWarning'
import type { ModalBodyProps, ModalId } from './modalIds'

type Body<Id extends ModalId> = ComponentType<ModalBodyProps<Id>>

/** A body loaded with its feature; `load` fetches the feature's module without rendering (tests, preloading). */
export type LazyBody<Id extends ModalId> = Body<Id> & { load: () => Promise<Body<Id>> }

// Made once, at module load: lazy() loads nothing until the body first renders, and a component made during
// render would lose its state on every render.
function lazyBody<Id extends ModalId>(load: () => Promise<Body<Id>>): LazyBody<Id> {
  return Object.assign(
    lazy(async () => ({ default: await load() })),
    { load },
  ) as unknown as LazyBody<Id>
}

const gems = () => import('../../features/gems/modals')
const unlocks = () => import('../../features/unlocks/modals')
const account = () => import('../../features/account/modals')
const deals = () => import('../../features/deals/modals')
const subscription = () => import('../../features/subscription/modals')
const reviews = () => import('../../features/reviews/modals')

export const LAZY_MODAL_BODIES: { readonly [Id in Exclude<ModalId, 'HealthWarning'>]: LazyBody<Id> } = {
  UnlockChannel: lazyBody(() => gems().then((module) => module.UnlockChannel)),
  UserGemsInfo: lazyBody(() => gems().then((module) => module.UserGemsInfo)),
  UnlockOrUpgradeMembership: lazyBody(() => unlocks().then((module) => module.UnlockOrUpgradeMembership)),
  EmailConsent: lazyBody(() => account().then((module) => module.EmailConsent)),
  ConvertVipUser: lazyBody(() => account().then((module) => module.ConvertVipUser)),
  TandemAccountCreation: lazyBody(() => account().then((module) => module.TandemAccountCreation)),
  CamsConsent: lazyBody(() => account().then((module) => module.CamsConsent)),
  OneClickConsent: lazyBody(() => deals().then((module) => module.OneClickConsent)),
  ConfirmOutgoingUpsell: lazyBody(() => deals().then((module) => module.ConfirmOutgoingUpsell)),
  PurchaseMembership: lazyBody(() => subscription().then((module) => module.PurchaseMembership)),
  ReactivateCancelledRebill: lazyBody(() => subscription().then((module) => module.ReactivateCancelledRebill)),
  SubscriptionStatus: lazyBody(() => subscription().then((module) => module.SubscriptionStatus)),
  UpgradeToYearlyMembership: lazyBody(() => subscription().then((module) => module.UpgradeToYearlyMembership)),
  PromotionalVideo: lazyBody(() => subscription().then((module) => module.PromotionalVideo)),
  ExpertReviewModal: lazyBody(() => reviews().then((module) => module.ExpertReviewModal)),
}

export const MODAL_BODIES: { readonly [Id in ModalId]: Body<Id> } = {
  ...LAZY_MODAL_BODIES,
  HealthWarning: HealthWarningBody,
}
