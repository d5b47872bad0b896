import { describe, expect, it } from 'vitest'
import { MODAL_BEHAVIOUR, MODAL_IDS, isModalId } from './modalIds'
import { modalsReducer, topModal } from './modals'
import type { Modals } from './ModalManager'

describe('the modal manager state', () => {
  it('opens by id with props, the last on top', () => {
    let state = modalsReducer([], { type: 'open', modal: { id: 'UserGemsInfo', props: {} } })
    state = modalsReducer(state, { type: 'open', modal: { id: 'UnlockChannel', props: { channelPackId: 'x' } } })
    expect(topModal(state)).toEqual({ id: 'UnlockChannel', props: { channelPackId: 'x' } })
  })

  it('reopening an id moves it to the top once', () => {
    let state = modalsReducer([], { type: 'open', modal: { id: 'UserGemsInfo', props: {} } })
    state = modalsReducer(state, { type: 'open', modal: { id: 'UnlockChannel', props: { channelPackId: 'x' } } })
    state = modalsReducer(state, { type: 'open', modal: { id: 'UserGemsInfo', props: { intro: true } } })
    expect(state.map((modal) => modal.id)).toEqual(['UnlockChannel', 'UserGemsInfo'])
  })

  it('closes by id only that one', () => {
    let state = modalsReducer([], { type: 'open', modal: { id: 'UserGemsInfo', props: {} } })
    state = modalsReducer(state, { type: 'open', modal: { id: 'UnlockChannel', props: { channelPackId: 'x' } } })
    state = modalsReducer(state, { type: 'close', id: 'UserGemsInfo' })
    expect(state.map((modal) => modal.id)).toEqual(['UnlockChannel'])
    expect(modalsReducer(state, { type: 'close', id: 'CamsConsent' })).toBe(state)
  })

  it('knows the sixteen modal ids of the spec, each with its backdrop rule', () => {
    expect(MODAL_IDS).toHaveLength(16)
    expect(Object.keys(MODAL_BEHAVIOUR).sort()).toEqual([...MODAL_IDS].sort())
    expect(MODAL_BEHAVIOUR.HealthWarning).toEqual({ closableByBackdrop: false, dismissible: false })
    expect(MODAL_BEHAVIOUR.UserGemsInfo.closableByBackdrop).toBe(true)
    expect(isModalId('PurchaseMembership')).toBe(true)
    expect(isModalId('Nope')).toBe(false)
  })
})

describe('the modal registry’s types', () => {
  // Checked by the type checker (npm run build, npm run typecheck): each line below must fail to compile.
  it('refuses a modal opened without the props it needs, or with props of another modal', () => {
    const misuses = (modals: Modals) => {
      // @ts-expect-error UnlockChannel needs its channel pack
      modals.open('UnlockChannel')
      // @ts-expect-error a prop PurchaseMembership does not take
      modals.open('PurchaseMembership', { channelPackId: 'x' })
      // @ts-expect-error the health warning's region is one of the spec's regions
      modals.open('HealthWarning', { region: 'US-CA' })
      // @ts-expect-error not a modal id
      modals.open('Nope')
      modals.open('PurchaseMembership')
      modals.open('UnlockChannel', { channelPackId: 'x' })
    }
    expect(misuses).toBeTypeOf('function')
  })
})
