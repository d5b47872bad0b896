import { describe, expect, it } from 'vitest'
import { BRANDS, VISIBLE_BRANDS } from './brands'

describe('the brands from config/tenants', () => {
  it('are the ten brand keys, the combined brand among them', () => {
    expect([...BRANDS].sort()).toEqual(
      ['blacked', 'blackedraw', 'deeper', 'milfy', 'slayed', 'tushy', 'tushyraw', 'vixen', 'vixenplus', 'wifey'],
    )
  })

  it('show every brand but the combined one, in the order the tenants list them', () => {
    expect(VISIBLE_BRANDS).toEqual(['blacked', 'blackedraw', 'tushy', 'tushyraw', 'vixen', 'deeper', 'slayed', 'milfy', 'wifey'])
  })
})
