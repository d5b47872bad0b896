import { describe, expect, it } from 'vitest'
import { optionPrice, singleSiteOptions } from './prices'

const option = (extra: Record<string, unknown> = {}) => ({
  price: '29.95',
  currency: 'USD',
  rebillPrice: '29.95',
  rebillPeriodDays: 30,
  trialDays: null,
  ...extra,
})

describe('join prices', () => {
  it('read as the visitor pays them', () => {
    expect(optionPrice(option())).toBe('$29.95 / 30 days')
    expect(optionPrice(option({ price: '1.00', trialDays: 2 }))).toBe('$1.00 for 2 days, then $29.95 / 30 days')
    expect(optionPrice(option({ price: '9.95', currency: 'EUR', rebillPrice: '19.95' }))).toBe(
      '9.95 EUR now, then 19.95 EUR / 30 days',
    )
  })

  it('reactivate a brand with its own member options only', () => {
    const options = [
      { id: 1, site: 'vixen', kind: 'member' },
      { id: 2, site: 'vixen', kind: 'trial' },
      { id: 3, site: 'multisiteVP', kind: 'member' },
      { id: 4, site: 'tushy', kind: 'member' },
      { id: 5, site: 'vixen', kind: 'member' },
    ]
    expect(singleSiteOptions(options, 'vixen').map((o) => o.id)).toEqual([1, 5])
  })
})
