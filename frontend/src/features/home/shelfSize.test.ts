import { describe, expect, it } from 'vitest'
import { RECOMMENDED_LIST_SIZES, type ViewportType } from '../../app/routing'
import { fullRows, homeShelfLimit, listShelfSize, shelfColumns, shelfSize } from './shelfSize'

const tenant = { paginationListSizes: { large: 6, medium: 4, small: 3 } }
const VIEWPORTS: ViewportType[] = ['xsmall', 'small', 'medium', 'large', 'xlarge', 'huge', 'boundary']

describe('a recommendation shelf’s size (product.md, "Business constants and limits": recommended lists 9, 6, 3)', () => {
  it('shows 3 on phones, 6 on tablets and small laptops, 9 on wide screens', () => {
    expect(VIEWPORTS.map(shelfSize)).toEqual([3, 3, 6, 6, 9, 9, 9])
  })
})

describe('a list shelf’s size (product.md, "Business constants and limits": list sizes 6, 4, 3, from the tenant)', () => {
  it('shows 3 on phones, 4 on tablets and small laptops, 6 on wide screens', () => {
    expect(VIEWPORTS.map((v) => listShelfSize(v, tenant))).toEqual([3, 3, 4, 4, 6, 6, 6])
  })
})

describe('every home shelf fills its rows (no orphan card)', () => {
  it.each(VIEWPORTS)('on %s, the spec’s sizes are whole rows of the shelf’s grid', (viewport) => {
    const videoColumns = shelfColumns(viewport, 'videos')
    const performerColumns = shelfColumns(viewport, 'performers')
    if (videoColumns === null || performerColumns === null) {
      // Phones: one row scrolling sideways, whatever the count.
      expect([videoColumns, performerColumns]).toEqual([null, null])
      return
    }
    expect(shelfSize(viewport) % videoColumns).toBe(0)
    expect(listShelfSize(viewport, tenant) % videoColumns).toBe(0)
    expect(listShelfSize(viewport, tenant) % performerColumns).toBe(0)
  })

  it('cuts a short answer or an odd configured size to whole rows, and keeps less than a row as it is', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    expect(fullRows(items, 9, 3)).toHaveLength(9)
    expect(fullRows(items.slice(0, 7), 9, 3)).toEqual([1, 2, 3, 4, 5, 6])
    expect(fullRows(items, 8, 3)).toEqual([1, 2, 3, 4, 5, 6])
    expect(fullRows(items, 5, 2)).toEqual([1, 2, 3, 4])
    expect(fullRows([1, 2], 9, 3)).toEqual([1, 2])
    expect(fullRows(items, 4, null)).toEqual([1, 2, 3, 4])
  })
})

describe('what the home query asks for per shelf', () => {
  it('is what the loaded viewport shows: 3 on phones, 6 on tablets, 9 on wide screens', () => {
    expect(VIEWPORTS.map((v) => homeShelfLimit(v, tenant))).toEqual([3, 3, 6, 6, 9, 9, 9])
    expect(homeShelfLimit('boundary', tenant)).toBe(RECOMMENDED_LIST_SIZES.large)
  })
})
