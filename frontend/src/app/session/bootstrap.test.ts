import { describe, expect, it } from 'vitest'
import { tenantConfig } from '../routing/testing'
import { BootstrapError, parseBootstrap } from './bootstrap'

const payload = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    tenant: tenantConfig(),
    user: {
      isAuthenticated: true,
      abilities: [{ action: 'see', subject: 'Channels' }],
      profile: { email: 'm@example.test', teaserViewed: false, isSubscribed: true, isActive: true },
      welcome: { siteId: 2 },
    },
    isMembersArea: true,
    ...overrides,
  })

describe('routing session from the bootstrap script', () => {
  it('reads tenant, user and isMembersArea, with abilities as a predicate', () => {
    const session = parseBootstrap(payload())
    expect(session.tenant.tenant).toBe('tushy')
    expect(session.isMembersArea).toBe(true)
    expect(session.user.isAuthenticated).toBe(true)
    expect(session.user.can('see', 'Channels')).toBe(true)
    expect(session.user.can('see', 'ChannelTrailers')).toBe(false)
    expect(session.user.profile?.teaserViewed).toBe(false)
    expect(session.user.welcome).toEqual({ siteId: 2 })
  })

  it.each([
    ['missing', null],
    ['not JSON', '{'],
    ['without tenant', JSON.stringify({ user: {} })],
    ['without membersUrl', payload({ tenant: { ...tenantConfig(), membersUrl: undefined } })],
  ])('refuses a bootstrap that is %s', (_, json) => {
    expect(() => parseBootstrap(json)).toThrow(BootstrapError)
  })
})
