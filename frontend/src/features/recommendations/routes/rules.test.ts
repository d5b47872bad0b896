import { describe, expect, it } from 'vitest'
import { routeInput, userView } from '../../../app/routing/testing'
import { recommendedVideosRule } from './rules'

const notFound = { kind: 'notFound' }

describe('/recommended-videos', () => {
  it('is not-found without the ability to see the recommendation shelf', () => {
    expect(recommendedVideosRule(routeInput('/recommended-videos'))).toEqual(notFound)
  })

  it('shows recommended videos with the ability', () => {
    const user = userView({ abilities: ['see RecommendationShelf'] })
    expect(recommendedVideosRule(routeInput('/recommended-videos', { user }))).toMatchObject({
      kind: 'page',
      screen: 'recommendedVideos',
    })
  })
})
