import { describe, expect, it } from 'vitest'
import { shelfSize } from './shelfSize'

describe('a recommendation shelf’s size (§9: recommended lists 9, 6, 3)', () => {
  it('shows 3 on phones, 6 on tablets and small laptops, 9 on wide screens', () => {
    expect(shelfSize('xsmall')).toBe(3)
    expect(shelfSize('small')).toBe(3)
    expect(shelfSize('medium')).toBe(6)
    expect(shelfSize('large')).toBe(6)
    expect(shelfSize('xlarge')).toBe(9)
    expect(shelfSize('huge')).toBe(9)
    expect(shelfSize('boundary')).toBe(9)
  })
})
