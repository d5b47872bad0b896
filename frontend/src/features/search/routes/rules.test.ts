import { describe, expect, it } from 'vitest'
import { member, routeInput, userView } from '../../../app/routing/testing'
import { searchRule } from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })

describe('/search', () => {
  it('a page below 1 or non-numeric redirects keeping only q and size', () => {
    expect(searchRule(routeInput('/search?q=abc&page=0&size=24&sort=new'))).toEqual(redirectTo('/search?q=abc&size=24'))
    expect(searchRule(routeInput('/search?page=x'))).toEqual(redirectTo('/search'))
  })

  it('the screen receives the authenticated flag, search text, page and size', () => {
    expect(searchRule(routeInput('/search?q=abc&page=3&size=24', { user: member() }))).toEqual({
      kind: 'page',
      screen: 'search',
      data: { isAuthenticated: true, search: 'abc', page: 3, size: 24 },
    })
    expect(searchRule(routeInput('/search', { user: userView() }))).toMatchObject({
      data: { isAuthenticated: false, search: '', page: 1, size: null },
    })
  })
})
