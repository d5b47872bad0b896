// Shows the top modal. Modal bodies belong to their features and register here as they arrive; until then a modal
// shows its title and closes as its behaviour allows.
import type { ComponentType } from 'react'
import { useTranslation } from '../i18n'
import { Dialog } from './Dialog'
import { HealthWarningBody } from './HealthWarning'
import { MODAL_BEHAVIOUR, type ModalId } from './modalIds'
import { useModals } from './ModalManager'

export interface ModalBodyProps {
  props: Readonly<Record<string, unknown>>
  close: () => void
}

const BODIES: Partial<Record<ModalId, ComponentType<ModalBodyProps>>> = {
  HealthWarning: HealthWarningBody,
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
      title={t(`modal.${id}`)}
      behaviour={MODAL_BEHAVIOUR[id]}
      onClose={onClose}
      variant={id === 'HealthWarning' ? 'fullScreen' : 'centred'}
    >
      {Body ? <Body props={props} close={onClose} /> : null}
    </Dialog>
  )
}
