import { describe, expect, it } from 'vitest'
import { buildAbility, subject } from './ability'
import { canOnType, readableRules, type AbilityRule } from './abilityRules'

const abilityFromRules = (rules: unknown) => canOnType(readableRules(rules))

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

describe('the CASL ability from the raw rule list', () => {
  const video = (fields: Record<string, unknown>) => subject('Video', { site: 'tushy', channelPackId: null, ...fields })

  it('evaluates $in conditions against a subject instance', () => {
    const ability = buildAbility([{ action: 'play', subject: 'Video', conditions: { site: { $in: ['tushy', 'vixen'] } } }])
    expect(ability.can('play', video({}))).toBe(true)
    expect(ability.can('play', video({ site: 'blacked' }))).toBe(false)
  })

  it('evaluates $nin conditions: a video in a pack not yet unlocked is not playable', () => {
    const ability = buildAbility([
      { action: 'play', subject: 'Video', conditions: { site: { $in: ['tushy'] }, channelPackId: { $nin: [7, 9] } } },
    ])
    expect(ability.can('play', video({ channelPackId: 3 }))).toBe(true)
    expect(ability.can('play', video({ channelPackId: 7 }))).toBe(false)
  })

  it('an inverted rule with conditions forbids only the matching instances', () => {
    const ability = buildAbility([
      { action: 'play', subject: 'Video' },
      { action: 'play', subject: 'Video', inverted: true, conditions: { denied: true } },
    ])
    expect(ability.can('play', video({ denied: false }))).toBe(true)
    expect(ability.can('play', video({ denied: true }))).toBe(false)
    expect(ability.can('play', 'Video')).toBe(true)
  })

  it('accepts the rule list as JSON from the server, with arrays and fields', () => {
    const rules = JSON.parse(
      '[{"action":["see","play"],"subject":["Trailer"]},{"action":"comment","subject":"Video","fields":["body"]}]',
    )
    const ability = buildAbility(rules)
    expect(ability.can('play', 'Trailer')).toBe(true)
    expect(ability.can('comment', 'Video', 'body')).toBe(true)
  })

  it('drops rules it cannot read and keeps the rest', () => {
    const ability = buildAbility([
      { action: 'see', subject: 'Channels' },
      { action: 'see', subject: 'Wall', conditions: 'site = tushy' },
      { action: 7, subject: 'Deals' },
      null,
    ])
    expect(ability.can('see', 'Channels')).toBe(true)
    expect(ability.can('see', 'Wall')).toBe(false)
    expect(ability.can('see', 'Deals')).toBe(false)
  })

  it('treats a missing rule list as no abilities', () => {
    expect(buildAbility(undefined).can('see', 'Channels')).toBe(false)
  })
})

describe('the type-level predicate answers as CASL does', () => {
  const ruleLists: AbilityRule[][] = [
    [],
    [{ action: 'see', subject: 'Channels' }],
    [{ action: 'manage', subject: 'all' }],
    [{ action: 'manage', subject: 'all' }, { action: 'see', subject: 'Channels', inverted: true }],
    [{ action: 'see', subject: 'Channels', inverted: true }, { action: 'see', subject: 'Channels' }],
    [{ action: ['see', 'play'], subject: ['Channels', 'Video'] }, { action: 'play', subject: 'Video', inverted: true }],
    [{ action: 'play', subject: 'Video', conditions: { site: { $in: ['tushy'] } } }],
    [{ action: 'play', subject: 'Video' }, { action: 'play', subject: 'Video', inverted: true, conditions: { denied: true } }],
    [{ action: 'see', subject: 'Channels' }, { action: 'see', subject: 'Channels', inverted: true, fields: ['price'] }],
    [{ action: 'comment', subject: 'Video', fields: ['body'] }],
    [{ action: 'see', subject: 'all', conditions: { channelPackId: { $nin: [1] } } }, { action: 'manage', subject: 'Video', inverted: true }],
  ]
  const questions = [
    ['see', 'Channels'],
    ['play', 'Video'],
    ['comment', 'Video'],
    ['see', 'Video'],
    ['see', 'RecommendationShelf'],
  ] as const

  it.each(ruleLists.map((rules, index) => [index, rules] as const))('rule list %i', (_, rules) => {
    const casl = buildAbility(rules)
    const light = canOnType(readableRules(rules))
    for (const [action, subjectType] of questions) {
      expect([action, subjectType, light(action, subjectType)]).toEqual([action, subjectType, casl.can(action, subjectType)])
    }
  })
})
