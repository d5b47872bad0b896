// The modal manager's state: open modals by id, the last opened on top. Opening an open id moves it to the top with
// its new props; closing an id closes only that one.
import type { ModalId, OpenModal } from './modalIds'

export type { OpenModal } from './modalIds'

export type ModalAction = { type: 'open'; modal: OpenModal } | { type: 'close'; id: ModalId }

export function modalsReducer(state: readonly OpenModal[], action: ModalAction): readonly OpenModal[] {
  switch (action.type) {
    case 'open':
      return [...state.filter((modal) => modal.id !== action.modal.id), action.modal]
    case 'close': {
      const others = state.filter((modal) => modal.id !== action.id)
      return others.length === state.length ? state : others
    }
  }
}

export function topModal(state: readonly OpenModal[]): OpenModal | undefined {
  return state[state.length - 1]
}
