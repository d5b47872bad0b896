// Shows the top modal, with the body its id registers (modalBodies.ts).
import { Suspense, type ComponentType } from 'react'
import { useTranslation } from '../i18n'
import { Dialog } from './Dialog'
import { MODAL_BODIES } from './modalBodies'
import { MODAL_BEHAVIOUR, type ModalBodyProps, type ModalId, type ModalProps } from './modalIds'
import { useModals } from './ModalManager'

function ModalBody<Id extends ModalId>({ id, props, close }: { id: Id; props: ModalProps<Id>; close: () => void }) {
  const Body: ComponentType<ModalBodyProps<Id>> = MODAL_BODIES[id]
  return <Body props={props} close={close} />
}

export function ModalHost() {
  const { t } = useTranslation()
  const { current, close } = useModals()
  if (!current) return null
  const { id, props } = current
  const onClose = () => close(id)
  return (
    <Dialog
      key={id}
      title={props.title ?? t(`modal.${id}`)}
      behaviour={MODAL_BEHAVIOUR[id]}
      onClose={onClose}
      variant={id === 'HealthWarning' ? 'fullScreen' : 'centred'}
      role={id === 'HealthWarning' ? 'alertdialog' : 'dialog'}
    >
      <Suspense fallback={<p className="muted" aria-busy="true">{t('common.loading')}</p>}>
        <ModalBody id={id} props={props} close={onClose} />
      </Suspense>
    </Dialog>
  )
}
