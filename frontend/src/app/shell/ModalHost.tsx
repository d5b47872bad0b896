// Shows the top modal. Each body belongs to its feature and is loaded with it, lazily, when the modal first opens:
// the shell's first page carries none of them (docs/decisions.md). The health warning is the exception: it covers
// the page before anything else may show.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { useTranslation } from '../i18n'
import { Dialog } from './Dialog'
import { HealthWarningBody } from './HealthWarning'
import { MODAL_BEHAVIOUR, type ModalId } from './modalIds'
import { useModals } from './ModalManager'

export interface ModalBodyProps {
  props: Readonly<Record<string, unknown>>
  close: () => void
}

type Body = ComponentType<ModalBodyProps>
type BodyModule = Partial<Record<ModalId, Body>>

const gems = () => import('../../features/gems/modals')
const unlocks = () => import('../../features/unlocks/modals')
const account = () => import('../../features/account/modals')
const deals = () => import('../../features/deals/modals')
const subscription = () => import('../../features/subscription/modals')
const reviews = () => import('../../features/reviews/modals')

/** Where each modal's body lives: the feature module exporting a component named after the modal id. */
export const MODAL_BODY_MODULES: Readonly<Record<Exclude<ModalId, 'HealthWarning'>, () => Promise<BodyModule>>> = {
  UnlockChannel: gems,
  UserGemsInfo: gems,
  UnlockOrUpgradeMembership: unlocks,
  EmailConsent: account,
  ConvertVipUser: account,
  TandemAccountCreation: account,
  CamsConsent: account,
  OneClickConsent: deals,
  ConfirmOutgoingUpsell: deals,
  PurchaseMembership: subscription,
  ReactivateCancelledRebill: subscription,
  SubscriptionStatus: subscription,
  UpgradeToYearlyMembership: subscription,
  PromotionalVideo: subscription,
  ExpertReviewModal: reviews,
}

// Made once, at module load: lazy() loads nothing until a body first renders, and a component made during render
// would lose its state on every render.
const BODIES: Readonly<Record<ModalId, Body | LazyExoticComponent<Body>>> = {
  HealthWarning: HealthWarningBody,
  ...(Object.fromEntries(
    Object.entries(MODAL_BODY_MODULES).map(([id, load]) => [
      id,
      lazy(async () => {
        const module = await load()
        const component = module[id as ModalId]
        if (!component) throw new Error(`modal body ${id} missing from its module`)
        return { default: component }
      }),
    ]),
  ) as Record<Exclude<ModalId, 'HealthWarning'>, LazyExoticComponent<Body>>),
}

export function ModalHost() {
  const { t } = useTranslation()
  const { current, close } = useModals()
  if (!current) return null
  const { id, props } = current
  const Body = BODIES[id]
  const onClose = () => close(id)
  return (
    <Dialog
      key={id}
      title={typeof props.title === 'string' ? props.title : t(`modal.${id}`)}
      behaviour={MODAL_BEHAVIOUR[id]}
      onClose={onClose}
      variant={id === 'HealthWarning' ? 'fullScreen' : 'centred'}
    >
      <Suspense fallback={<p className="muted" aria-busy="true">{t('common.loading')}</p>}>
        <Body props={props} close={onClose} />
      </Suspense>
    </Dialog>
  )
}
