import { describe, expect, it } from 'vitest'
import { recommendationClick, recommIdOf, reelEvent, RECOMM_ID_STORAGE_KEY, trackerOf } from './tracking'

const who = { userId: '0190-user', email: 'fan@example.com' }

describe('the recommender signals (product.md, "Recommendations")', () => {
  it('a shelf click carries email, userId, elementClicked and recommId', () => {
    expect(recommendationClick(who, 'video-slug', 'rc-1')).toEqual({
      email: 'fan@example.com',
      userId: '0190-user',
      elementClicked: 'video-slug',
      recommId: 'rc-1',
    })
  })

  it('a reel event carries email, userId, timestamp, item id and recommId, and a rating only when rated', () => {
    const now = new Date('2026-01-02T03:04:05Z')
    expect(reelEvent(who, 'reel-1', 'rc-1', now)).toEqual({
      email: 'fan@example.com',
      userId: '0190-user',
      timestamp: '2026-01-02T03:04:05.000Z',
      itemId: 'reel-1',
      recommId: 'rc-1',
    })
    expect(reelEvent(who, 'reel-1', null, now, 7)).toMatchObject({ rating: 7, recommId: null })
  })

  it('reads the recommId from the query first, then from storage', () => {
    const storage = { getItem: (key: string) => (key === RECOMM_ID_STORAGE_KEY ? 'rc-stored' : null) }
    expect(recommIdOf('?recommId=rc-query', storage)).toBe('rc-query')
    expect(recommIdOf('', storage)).toBe('rc-stored')
    expect(recommIdOf('', null)).toBeNull()
  })

  it('sends nothing for a visitor', () => {
    expect(trackerOf(null)).toBeNull()
    expect(trackerOf({ email: 'a@example.com' })).toBeNull()
    expect(trackerOf({ userId: 'u', email: 'a@example.com' })).toEqual({ userId: 'u', email: 'a@example.com' })
  })
})
