import { describe, expect, it } from 'vitest'
import { abilityFromRules } from './ability'

describe('abilities from the server rule list', () => {
  it('grants a listed action on a listed subject only', () => {
    const can = abilityFromRules([{ action: 'see', subject: 'Channels' }])
    expect(can('see', 'Channels')).toBe(true)
    expect(can('see', 'ChannelTrailers')).toBe(false)
    expect(can('play', 'Channels')).toBe(false)
  })

  it('manage and all are wildcards', () => {
    const can = abilityFromRules([{ action: 'manage', subject: 'all' }])
    expect(can('see', 'RecommendationShelf')).toBe(true)
  })

  it('a later inverted rule forbids', () => {
    const can = abilityFromRules([
      { action: 'see', subject: ['Channels', 'InternalChannels'] },
      { action: 'see', subject: 'Channels', inverted: true },
    ])
    expect(can('see', 'Channels')).toBe(false)
    expect(can('see', 'InternalChannels')).toBe(true)
  })

  it('an earlier inverted rule is overridden by a later grant', () => {
    const can = abilityFromRules([
      { action: 'see', subject: 'Channels', inverted: true },
      { action: 'see', subject: 'Channels' },
    ])
    expect(can('see', 'Channels')).toBe(true)
  })

  it('a conditional rule counts as a grant for the subject type', () => {
    const can = abilityFromRules([{ action: 'play', subject: 'Video', conditions: { siteAccess: true } }])
    expect(can('play', 'Video')).toBe(true)
  })

  it('nothing is granted by an empty list', () => {
    expect(abilityFromRules([])('see', 'Channels')).toBe(false)
  })
})
