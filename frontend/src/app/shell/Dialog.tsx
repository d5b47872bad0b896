// An accessible modal dialog: labelled by its title, focus moved in on open, kept inside while open and given back
// on close; Escape and a close button when the modal is dismissible, a backdrop click when it is closable by it.
// An alert dialog (the health warning: it interrupts and waits for an answer) is also described by its body, so a
// screen reader reads the warning itself when focus moves in.
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
  /** 'alertdialog' for a message that must be answered before anything else (WAI-ARIA's alert dialog pattern). */
  role?: 'dialog' | 'alertdialog'
  children?: ReactNode
}

export function Dialog({ title, behaviour, onClose, variant = 'centred', role = 'dialog', children }: DialogProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const bodyId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const dialog = dialogRef.current
    ;(focusables(dialog)[0] ?? dialog)?.focus()
    // The page behind is inert, but focus can still be sent out by a script (a late autofocus, a flash): it comes
    // back to the dialog while the dialog is open.
    const keepFocus = (event: FocusEvent) => {
      if (dialog && event.target instanceof Node && !dialog.contains(event.target)) (focusables(dialog)[0] ?? dialog).focus()
    }
    document.addEventListener('focusin', keepFocus)
    return () => {
      document.removeEventListener('focusin', keepFocus)
      // Back to what opened it; when that is gone (a menu item of a closed menu), to the page's content rather than
      // the document's body, where a keyboard user would start again from the top.
      if (previous?.isConnected && previous !== document.body) previous.focus()
      else document.getElementById('content')?.focus()
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
        if (event.target !== event.currentTarget) return
        // A press on the backdrop must not take focus out of the dialog (to the body) when it does not close it.
        event.preventDefault()
        if (behaviour.closableByBackdrop) onClose()
      }}
      onKeyDown={onKeyDown}
    >
      <div
        ref={dialogRef}
        className={`modal modal--${variant}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={role === 'alertdialog' ? bodyId : undefined}
        tabIndex={-1}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {role === 'alertdialog' ? <div id={bodyId}>{children}</div> : children}
        {behaviour.dismissible ? (
          <button type="button" className="modal__close" aria-label={t('common.close')} onClick={onClose}>
            ×
          </button>
        ) : null}
      </div>
    </div>
  )
}
