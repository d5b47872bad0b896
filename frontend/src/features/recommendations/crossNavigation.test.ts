import { describe, expect, it } from 'vitest'
import { crossNavigationHref, hasSisterSites } from './crossNavigation'

describe('the cross-navigation shelf', () => {
  it('shows where the tenant has sister sites', () => {
    expect(hasSisterSites({ tenant: 'vixen', standaloneSites: ['vixen', 'tushy'] })).toBe(true)
    expect(hasSisterSites({ tenant: 'vixen', standaloneSites: ['vixen'] })).toBe(false)
    expect(hasSisterSites({ tenant: 'vixen', standaloneSites: [] })).toBe(false)
  })

  it('opens this brand’s videos here and a sister’s in its listing', () => {
    expect(crossNavigationHref({ slug: 'a-b', site: 'vixen' }, 'vixen')).toBe('/videos/a-b')
    expect(crossNavigationHref({ slug: 'a-b', site: 'tushy' }, 'vixen')).toBe('/sites/tushy/videos')
  })
})
