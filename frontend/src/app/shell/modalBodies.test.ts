import { describe, expect, it } from 'vitest'
import { MODAL_IDS } from './modalIds'
import { MODAL_BODY_MODULES } from './ModalHost'

describe('the modal bodies', () => {
  it.each(MODAL_IDS.filter((id) => id !== 'HealthWarning'))('%s has a body in its feature module', async (id) => {
    const module = (await MODAL_BODY_MODULES[id as Exclude<typeof id, 'HealthWarning'>]()) as Record<string, unknown>
    expect(typeof module[id]).toBe('function')
  })
})
