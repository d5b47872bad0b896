// The recommended-videos route, behind the ability to see the recommendation shelf (rows: ./rows.json).
import { guarded, page, type RouteOutcome } from '../../../app/routing'

/** /recommended-videos: the ability to see the recommendation shelf. */
export const recommendedVideosRule = guarded('/recommended-videos', (): RouteOutcome => page('recommendedVideos'))
