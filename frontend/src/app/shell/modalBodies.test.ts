import { describe, expect, it } from 'vitest'
import { LAZY_MODAL_BODIES, MODAL_BODIES } from './modalBodies'
import { MODAL_IDS } from './modalIds'

describe('the modal bodies', () => {
  it.each(MODAL_IDS.filter((id) => id !== 'HealthWarning'))('%s has a body in its feature module', async (id) => {
    const body = await LAZY_MODAL_BODIES[id as Exclude<typeof id, 'HealthWarning'>].load()
    expect(typeof body).toBe('function')
  })

  it('every modal id has a body', () => {
    expect(Object.keys(MODAL_BODIES).sort()).toEqual([...MODAL_IDS].sort())
  })
})
