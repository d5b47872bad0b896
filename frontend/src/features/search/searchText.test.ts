import { describe, expect, it } from 'vitest'
import { searchText } from './searchText'

const data = (search: string) => ({ isAuthenticated: false, search, page: 1, size: null })

describe('the search text', () => {
  it('is the q query', () => {
    expect(searchText(data('Red Dress'), { search: '?q=Red+Dress' })).toBe('Red Dress')
  })

  it('reads a moved category address, its slug as words', () => {
    expect(searchText(data(''), { search: '?search=red-dress' })).toBe('red dress')
  })

  it('is empty without either', () => {
    expect(searchText(data(''), { search: '' })).toBe('')
  })
})
