import { describe, expect, it } from 'vitest'
import { pageIds } from './pageIds'
import { analyticsLabel, ANALYTICS_LABELS } from './screens'

describe('analytics labels', () => {
  it.each([
    ['home', 'Homepage'],
    ['joinNow', 'Join Now'],
    ['videos', 'Video Listing'],
    ['topRated', 'Top rated'],
    ['terms', 'Footer Link'],
    ['privacy', 'Footer Link'],
    ['safety', 'Footer Link'],
    ['removal', 'Footer Link'],
    ['compliance', 'Footer Link'],
    ['favoriteChannels', 'Favorite Channel Videos'],
    ['quickies', 'Quickies'],
  ] as const)('%s is labelled %s', (screen, label) => {
    expect(analyticsLabel(screen)).toBe(label)
  })

  it('every screen has a label', () => {
    for (const label of Object.values(ANALYTICS_LABELS)) expect(label).not.toBe('')
  })
})

describe('page ids', () => {
  it.each([
    [pageIds.video('a-b'), 'video:a-b'],
    [pageIds.trailer('a-b'), 'trailer:video:a-b'],
    [pageIds.pictureSet('a-b'), 'pictureSet:a-b'],
    [pageIds.performer('a-b'), 'performer:a-b'],
    [pageIds.category('a-b'), 'category:a-b'],
    [pageIds.angel('a-b'), 'angel:a-b'],
    [pageIds.channel('c'), 'channel:c'],
    [pageIds.channelPack('c', 'p'), 'channel:c:p'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})
