import { describe, expect, it } from 'vitest'
import { dealAction, discountLine, DEALS_CAROUSEL_LIMIT, DEALS_GRID_SIZE } from './dealText'

describe('a deal card', () => {
  it('reads its discount line from the literal, or from prefix, discount and the text after', () => {
    expect(discountLine({ discountLiteral: 'FREE for 7 days', discount: '50%' })).toBe('FREE for 7 days')
    expect(discountLine({ discountPrefix: 'Save', discount: '50%', discountTextPostPrefix: 'off' })).toBe('Save 50% off')
    expect(discountLine({ discount: '70%' })).toBe('70%')
    expect(discountLine({ discountPrefix: 'Save' })).toBeNull()
  })

  it('opens the consent modal for one-click deals and links to the partner otherwise', () => {
    expect(dealAction({ url: 'https://partner.example/', oneClickEnabled: true, oneClickConsent: { oneClickUrl: 'https://pay.example/1' } })).toEqual({
      kind: 'oneClick',
      href: 'https://pay.example/1',
    })
    expect(dealAction({ url: 'https://partner.example/', oneClickEnabled: true, oneClickConsent: null })).toEqual({
      kind: 'link',
      href: 'https://partner.example/',
    })
  })

  it('uses the limits of product.md, "Business constants and limits"', () => {
    expect(DEALS_CAROUSEL_LIMIT).toBe(40)
    expect(DEALS_GRID_SIZE).toBe(15)
  })
})
