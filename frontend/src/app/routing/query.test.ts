import { describe, expect, it } from 'vitest'
import { MAX_INT32 } from './constants'
import { onlyKeys, parsePage, sameSitePath, withoutKeys, withQuery } from './query'

describe('page query', () => {
  it('defaults to page 1 when absent', () => {
    expect(parsePage(null)).toEqual({ valid: true, page: 1 })
  })

  it.each([
    ['1', 1],
    ['2', 2],
    ['01', 1],
    [String(MAX_INT32), MAX_INT32],
  ])('accepts %s as page %i', (raw, page) => {
    expect(parsePage(raw)).toEqual({ valid: true, page })
  })

  it.each([
    ['0', 'below 1'],
    ['-1', 'negative'],
    ['abc', 'non-numeric'],
    ['1.5', 'not a whole number'],
    ['', 'empty'],
    [' 2', 'padded'],
    ['1e3', 'exponent notation'],
    ['0x10', 'hexadecimal'],
    [String(MAX_INT32 + 1), 'beyond the max 32-bit integer'],
    ['99999999999999999999999', 'huge'],
  ])('rejects %s (%s)', (raw) => {
    expect(parsePage(raw)).toEqual({ valid: false })
  })

  it('honours a lower upper bound', () => {
    expect(parsePage('10', 10)).toEqual({ valid: true, page: 10 })
    expect(parsePage('11', 10)).toEqual({ valid: false })
  })
})

describe('query helpers', () => {
  it('withQuery leaves off an empty query', () => {
    expect(withQuery('/videos', new URLSearchParams())).toBe('/videos')
    expect(withQuery('/videos', { a: '1', b: 'x y' })).toBe('/videos?a=1&b=x+y')
  })

  it('withoutKeys drops every value of the keys and keeps the rest', () => {
    const query = new URLSearchParams('page=0&page=2&filter=new&q=a')
    expect(withoutKeys(query, ['page']).toString()).toBe('filter=new&q=a')
    expect(query.toString()).toBe('page=0&page=2&filter=new&q=a')
  })

  it('onlyKeys keeps the given keys in the given order', () => {
    expect(onlyKeys(new URLSearchParams('size=24&page=x&q=abc&z=1'), ['q', 'size']).toString()).toBe('q=abc&size=24')
  })

  it.each([
    ['/offers', '/offers'],
    ['/videos?page=2', '/videos?page=2'],
  ])('sameSitePath keeps %s', (value, expected) => {
    expect(sameSitePath(value)).toBe(expected)
  })

  it.each([null, '', 'https://evil.test', '//evil.test', '/\\evil.test', '/\t/evil.test', 'javascript:alert(1)', 'offers'])(
    'sameSitePath refuses %s',
    (value) => {
      expect(sameSitePath(value)).toBeUndefined()
    },
  )
})
