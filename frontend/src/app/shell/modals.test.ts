import { describe, expect, it } from 'vitest'
import { MODAL_BEHAVIOUR, MODAL_IDS, isModalId } from './modalIds'
import { modalsReducer, topModal } from './modals'

describe('the modal manager state', () => {
  it('opens by id with props, the last on top', () => {
    let state = modalsReducer([], { type: 'open', id: 'UserGemsInfo' })
    state = modalsReducer(state, { type: 'open', id: 'UnlockChannel', props: { channel: 'x' } })
    expect(topModal(state)).toEqual({ id: 'UnlockChannel', props: { channel: 'x' } })
  })

  it('reopening an id moves it to the top once', () => {
    let state = modalsReducer([], { type: 'open', id: 'UserGemsInfo' })
    state = modalsReducer(state, { type: 'open', id: 'UnlockChannel' })
    state = modalsReducer(state, { type: 'open', id: 'UserGemsInfo', props: { intro: true } })
    expect(state.map((modal) => modal.id)).toEqual(['UnlockChannel', 'UserGemsInfo'])
  })

  it('closes by id only that one', () => {
    let state = modalsReducer([], { type: 'open', id: 'UserGemsInfo' })
    state = modalsReducer(state, { type: 'open', id: 'UnlockChannel' })
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
