import { describe, expect, it } from 'vitest'
import { homeShelfLimit, modelsShown, shelfSize } from './shelfSize'

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

describe('what the home query asks for per shelf', () => {
  it('is what the loaded viewport shows: 4 on phones (4 models), 6 on tablets, 9 on wide screens', () => {
    expect(modelsShown('small')).toBe(4)
    expect(modelsShown('medium')).toBe(4)
    expect(modelsShown('large')).toBe(6)
    expect(homeShelfLimit('xsmall')).toBe(4)
    expect(homeShelfLimit('small')).toBe(4)
    expect(homeShelfLimit('medium')).toBe(6)
    expect(homeShelfLimit('large')).toBe(6)
    expect(homeShelfLimit('xlarge')).toBe(9)
    expect(homeShelfLimit('boundary')).toBe(9)
  })
})
