import { describe, expect, it } from 'vitest'
import { interstitialView, offersGrid, OFFERS_GRID_SIZE, snoozedUntilText } from './offers'

describe('the offers grid', () => {
  it('holds at most 15 offers, in the ranked order', () => {
    const deals = Array.from({ length: 20 }, (_, index) => index)
    expect(OFFERS_GRID_SIZE).toBe(15)
    expect(offersGrid(deals)).toEqual(deals.slice(0, 15))
    expect(offersGrid([3, 1])).toEqual([3, 1])
  })
})

describe('the offers interstitial', () => {
  it('shows until hidden, continuing to next (home by default)', () => {
    expect(interstitialView({ interstitial: { snoozed: false }, mayHide: true, next: '/videos?page=2' })).toEqual({
      kind: 'shown',
      mayHide: true,
      continueTo: '/videos?page=2',
    })
    expect(interstitialView({ interstitial: null, mayHide: false, next: null })).toEqual({ kind: 'shown', mayHide: false, continueTo: '/' })
  })

  it('never continues off the site', () => {
    for (const next of ['https://evil.test', '//evil.test', '/\\evil.test', 'javascript:alert(1)']) {
      expect(interstitialView({ interstitial: { snoozed: false }, mayHide: false, next })).toEqual({
        kind: 'shown',
        mayHide: false,
        continueTo: '/',
      })
    }
  })

  it('once hidden for the month, goes straight on to next, or leaves the grid alone', () => {
    expect(interstitialView({ interstitial: { snoozed: true }, mayHide: true, next: '/videos' })).toEqual({ kind: 'skip', to: '/videos' })
    expect(interstitialView({ interstitial: { snoozed: true }, mayHide: true, next: null })).toEqual({ kind: 'hidden' })
    expect(interstitialView({ interstitial: { snoozed: true }, mayHide: true, next: '//evil.test' })).toEqual({ kind: 'hidden' })
  })

  it('names the day the snooze ends', () => {
    expect(snoozedUntilText('2026-12-25T10:00:00Z')).toBe('December 25, 2026')
    expect(snoozedUntilText(null)).toBeNull()
    expect(snoozedUntilText('not a date')).toBeNull()
  })
})
