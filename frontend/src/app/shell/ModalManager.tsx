// The modal manager: open and close by id from anywhere in the shell; the top modal shows in an accessible dialog.
import { createContext, useCallback, useContext, useMemo, useReducer, type ReactNode } from 'react'
import type { ModalId } from './modalIds'
import { modalsReducer, topModal, type OpenModal } from './modals'

export interface Modals {
  open(id: ModalId, props?: Record<string, unknown>): void
  close(id: ModalId): void
  isOpen(id: ModalId): boolean
  /** The modal on top, if any. */
  current: OpenModal | undefined
}

const ModalsContext = createContext<Modals | null>(null)

export function ModalProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(modalsReducer, [])
  const open = useCallback((id: ModalId, props?: Record<string, unknown>) => dispatch({ type: 'open', id, props }), [])
  const close = useCallback((id: ModalId) => dispatch({ type: 'close', id }), [])
  const value = useMemo<Modals>(
    () => ({ open, close, isOpen: (id) => state.some((modal) => modal.id === id), current: topModal(state) }),
    [open, close, state],
  )
  return <ModalsContext.Provider value={value}>{children}</ModalsContext.Provider>
}

export function useModals(): Modals {
  const modals = useContext(ModalsContext)
  if (!modals) throw new Error('useModals outside ModalProvider')
  return modals
}
