import { describe, expect, it } from 'vitest'
import { member, routeInput } from '../../../app/routing/testing'
import { accountRule, formatBrandNames } from './rules'

const redirectTo = (location: string, status = 302) => ({ kind: 'redirect', status, location })

describe('/account', () => {
  it('requires authentication', () => {
    expect(accountRule(routeInput('/account', { isMembersArea: true }))).toEqual(
      redirectTo('https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Faccount'),
    )
  })

  it('password_changed names the visible brands as upper-case ".COM" names joined with commas and "&"', () => {
    expect(accountRule(routeInput('/account?password_changed=1', { user: member() }))).toEqual({
      kind: 'page',
      screen: 'account',
      data: {
        passwordChangedBrands:
          'BLACKED.COM, BLACKEDRAW.COM, TUSHY.COM, TUSHYRAW.COM, VIXEN.COM, DEEPER.COM, SLAYED.COM, MILFY.COM & WIFEY.COM',
      },
    })
  })

  it('without password_changed there is no notice', () => {
    expect(accountRule(routeInput('/account', { user: member() }))).toMatchObject({ data: { passwordChangedBrands: null } })
  })

  it('formats one, two and three brands', () => {
    expect(formatBrandNames(['vixen'])).toBe('VIXEN.COM')
    expect(formatBrandNames(['vixen', 'tushy'])).toBe('VIXEN.COM & TUSHY.COM')
    expect(formatBrandNames(['a', 'b', 'c'])).toBe('A.COM, B.COM & C.COM')
  })
})
