import { describe, expect, it } from 'vitest'
import { castingRule, complianceRule, privacyRule, removalRule, safetyRule, supportRule, termsRule } from './rules'

describe('legal pages', () => {
  it('/casting, /terms, /privacy are plain page loads', () => {
    expect(castingRule()).toEqual({ kind: 'page', screen: 'casting', data: { content: 'casting' } })
    expect(termsRule()).toEqual({ kind: 'page', screen: 'terms', data: { content: 'terms' } })
    expect(privacyRule()).toEqual({ kind: 'page', screen: 'privacy', data: { content: 'privacy' } })
  })

  it('/safety loads the same content as privacy', () => {
    expect(safetyRule()).toEqual({ kind: 'page', screen: 'safety', data: { content: 'privacy' } })
  })

  it('/removal preloads the privacy page', () => {
    expect(removalRule()).toEqual({ kind: 'page', screen: 'removal', data: { content: 'privacy' } })
  })

  it('/support is a plain page load of the support content', () => {
    expect(supportRule()).toEqual({ kind: 'page', screen: 'support', data: { content: 'support' } })
  })

  it('/2257 preloads the compliance page', () => {
    expect(complianceRule()).toEqual({ kind: 'page', screen: 'compliance', data: { content: 'compliance' } })
  })
})
