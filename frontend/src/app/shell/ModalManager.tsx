// The modal manager: open and close by id from anywhere in the shell; the top modal shows in an accessible dialog.
import { createContext, useCallback, useContext, useMemo, useReducer, type ReactNode } from 'react'
import type { ModalId, ModalRequest, OpenArgs, OpenModal } from './modalIds'
import { modalsReducer, topModal } from './modals'

export interface Modals {
  /** Opens a modal with the props its id takes (modalIds.ts); the props may be left out when all are optional. */
  open<Id extends ModalId>(id: Id, ...props: OpenArgs<Id>): void
  /** Opens the modal a rule decided on. */
  show(request: ModalRequest): void
  close(id: ModalId): void
  isOpen(id: ModalId): boolean
  /** The modal on top, if any. */
  current: OpenModal | undefined
}

const ModalsContext = createContext<Modals | null>(null)

export function ModalProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(modalsReducer, [])
  const show = useCallback((request: ModalRequest) => dispatch({ type: 'open', modal: { ...request, props: request.props ?? {} } as OpenModal }), [])
  const open = useCallback(
    // OpenArgs ties the props to the id; TypeScript cannot follow that through a generic id, so the pair is
    // handed on as the request it is.
    <Id extends ModalId>(id: Id, ...[props]: OpenArgs<Id>) => show({ id, props } as ModalRequest),
    [show],
  )
  const close = useCallback((id: ModalId) => dispatch({ type: 'close', id }), [])
  const value = useMemo<Modals>(
    () => ({ open, show, close, isOpen: (id) => state.some((modal) => modal.id === id), current: topModal(state) }),
    [open, show, close, state],
  )
  return <ModalsContext.Provider value={value}>{children}</ModalsContext.Provider>
}

export function useModals(): Modals {
  const modals = useContext(ModalsContext)
  if (!modals) throw new Error('useModals outside ModalProvider')
  return modals
}
