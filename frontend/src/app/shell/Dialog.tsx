// An accessible modal dialog: labelled by its title, focus moved in on open, kept inside while open and given back
// on close; Escape and a close button when the modal is dismissible, a backdrop click when it is closable by it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from '../i18n'
import { MODAL_Z_INDEX, type ModalBehaviour } from './modalIds'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

function focusables(root: HTMLElement | null): HTMLElement[] {
  return root ? Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)) : []
}

export interface DialogProps {
  title: string
  behaviour: ModalBehaviour
  onClose: () => void
  /** 'fullScreen' covers the page in black (the health warning). */
  variant?: 'centred' | 'fullScreen'
  children?: ReactNode
}

export function Dialog({ title, behaviour, onClose, variant = 'centred', children }: DialogProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const dialog = dialogRef.current
    ;(focusables(dialog)[0] ?? dialog)?.focus()
    return () => {
      if (previous?.isConnected) previous.focus()
    }
  }, [])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      if (behaviour.dismissible) onClose()
      return
    }
    if (event.key !== 'Tab') return
    const items = focusables(dialogRef.current)
    if (items.length === 0) {
      event.preventDefault()
      return
    }
    const first = items[0]!
    const last = items[items.length - 1]!
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialogRef.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    // The backdrop is presentation only: a click on it closes a closable dialog, and the keys the dialog handles
    // (Escape, the focus trap's Tab) bubble to it from inside the dialog.
    <div
      className={`modal-backdrop modal-backdrop--${variant}`}
      style={{ zIndex: MODAL_Z_INDEX }}
      data-testid="modal-backdrop"
      role="presentation"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && behaviour.closableByBackdrop) onClose()
      }}
      onKeyDown={onKeyDown}
    >
      <div
        ref={dialogRef}
        className={`modal modal--${variant}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children}
        {behaviour.dismissible ? (
          <button type="button" className="modal__close" aria-label={t('common.close')} onClick={onClose}>
            ×
          </button>
        ) : null}
      </div>
    </div>
  )
}
