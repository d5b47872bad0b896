import { describe, expect, it } from 'vitest'
import { loginUrl, requireAbility, signInUrl, requireAuthentication, requireFeature } from './access'
import { member, routeInput, userView } from './testing'

describe('authentication', () => {
  it('sends a visitor in the members area to {members}/oidc/login with the brand URL of the path and query as uri', () => {
    const input = routeInput('/pictureset/some-set?a=1&b=2', { isMembersArea: true })
    expect(requireAuthentication(input)).toEqual({
      kind: 'redirect',
      status: 302,
      location: 'https://members.tushy.com/oidc/login?uri=https%3A%2F%2Fwww.tushy.com%2Fpictureset%2Fsome-set%3Fa%3D1%26b%3D2',
    })
  })

  it('shows not-found to a visitor outside the members area', () => {
    expect(requireAuthentication(routeInput('/pictureset/some-set'))).toEqual({ kind: 'notFound' })
  })

  it('lets an authenticated user through', () => {
    expect(requireAuthentication(routeInput('/pictureset/some-set', { user: member() }))).toBeUndefined()
  })

  it('builds the login URL without a doubled slash', () => {
    expect(loginUrl('https://members.tushy.com/', '/')).toBe('https://members.tushy.com/oidc/login?uri=%2F')
  })

  it("a brand's sign-in link comes back to the brand's own origin, same path and query", () => {
    const tenant = { membersUrl: 'http://members.localhost:8080', tourUrl: 'http://vixen.localhost:8080/' }
    const url = new URL(signInUrl(tenant, '/videos?page=2&sort=latest'))
    expect(url.origin + url.pathname).toBe('http://members.localhost:8080/oidc/login')
    expect(url.searchParams.get('uri')).toBe('http://vixen.localhost:8080/videos?page=2&sort=latest')
  })
})

describe('ability and feature gates', () => {
  it('a missing ability is not-found', () => {
    expect(requireAbility(routeInput('/channels'), ['see', 'Channels'])).toEqual({ kind: 'notFound' })
  })

  it('any one of the listed abilities is enough', () => {
    const user = userView({ abilities: ['see InternalChannelTrailers'] })
    expect(requireAbility(routeInput('/x', { user }), ['see', 'ChannelTrailers'], ['see', 'InternalChannelTrailers'])).toBeUndefined()
  })

  it('a disabled or missing tenant feature is not-found', () => {
    expect(requireFeature(false)).toEqual({ kind: 'notFound' })
    expect(requireFeature(undefined)).toEqual({ kind: 'notFound' })
    expect(requireFeature(true)).toBeUndefined()
  })
})
