import { describe, expect, it } from 'vitest'
import { pageHref } from './pageHref'

describe('the address of a list page', () => {
  it('sets the page and keeps the rest of the query', () => {
    expect(pageHref('/videos', '?filter=rating&categories=outdoor', 3)).toBe('/videos?filter=rating&categories=outdoor&page=3')
    expect(pageHref('/videos', '?page=2&filter=rating', 5)).toBe('/videos?page=5&filter=rating')
  })

  it('drops the page query for page 1', () => {
    expect(pageHref('/videos', '?page=4', 1)).toBe('/videos')
    expect(pageHref('/search', '?q=red&page=2', 1)).toBe('/search?q=red')
  })
})
