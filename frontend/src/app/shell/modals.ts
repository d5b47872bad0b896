// The modal manager's state: open modals by id, the last opened on top. Opening an open id moves it to the top with
// its new props; closing an id closes only that one.
import type { ModalId } from './modalIds'

export interface OpenModal {
  id: ModalId
  props: Readonly<Record<string, unknown>>
}

export type ModalAction = { type: 'open'; id: ModalId; props?: Record<string, unknown> } | { type: 'close'; id: ModalId }

export function modalsReducer(state: readonly OpenModal[], action: ModalAction): readonly OpenModal[] {
  const others = state.filter((modal) => modal.id !== action.id)
  switch (action.type) {
    case 'open':
      return [...others, { id: action.id, props: action.props ?? {} }]
    case 'close':
      return others.length === state.length ? state : others
  }
}

export function topModal(state: readonly OpenModal[]): OpenModal | undefined {
  return state[state.length - 1]
}
