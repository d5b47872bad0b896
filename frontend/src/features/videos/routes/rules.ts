// Video routes: the lists, a video, its comment, trailer and picture set, top-rated and awards (rows: ./rows.json).
import { guarded, LIST_SIZES, MAX_INT32, page, pageIds, type RouteInput, type RouteOutcome } from '../../../app/routing'

export interface VideosData {
  page: number
  search: string | null
  filter: string | null
  categories: string | null
}

/** /videos */
export const videosRule = guarded('/videos', ({ query }, pass): RouteOutcome<VideosData> => {
  const search = query.get('search') || null
  const filter = query.get('filter')
  return page('videos', {
    page: pass.page,
    search: search !== null && filter === null ? search.toLowerCase() : search,
    filter,
    categories: query.get('categories'),
  })
})

/** /videos/{slug} */
export const videoRule = guarded('/videos/:slug', ({ params }): RouteOutcome<{ slug: string }> => {
  const slug = params.slug ?? ''
  return page('video', { slug }, pageIds.video(slug))
})

/** /videos/{slug}/comment/{commentId} */
export const videoCommentRule = guarded(
  '/videos/:slug/comment/:commentId',
  ({ params }): RouteOutcome<{ slug: string; commentId: string }> => {
    const { slug = '', commentId = '' } = params
    return page('videoWithComment', { slug, commentId }, pageIds.video(slug))
  },
)

/** /trailer/{slug} */
export const trailerRule = guarded('/trailer/:slug', ({ params }): RouteOutcome<{ slug: string }> => {
  const slug = params.slug ?? ''
  return page('trailer', { slug }, pageIds.trailer(slug))
})

/** /pictureset/{slug} */
export const pictureSetRule = guarded('/pictureset/:slug', ({ params }): RouteOutcome<{ slug: string }> => {
  const slug = params.slug ?? ''
  return page('pictureSet', { slug }, pageIds.pictureSet(slug))
})

/** /toprated: the screen fetches top-rated videos with the current query string. */
export function topRatedRule({ query }: RouteInput): RouteOutcome<{ query: string }> {
  return page('topRated', { query: query.toString() })
}

export interface TopRatedResult<V> {
  videos: V[]
  rest: Record<string, unknown>
}

/** Reads GET /toprated's answer: data.data.videos (default empty) and the rest of data.data. */
export function readTopRated<V = unknown>(body: unknown): TopRatedResult<V> {
  const inner = (body as { data?: unknown } | null)?.data
  if (inner === null || typeof inner !== 'object') return { videos: [], rest: {} }
  const { videos, ...rest } = inner as { videos?: unknown } & Record<string, unknown>
  return { videos: Array.isArray(videos) ? (videos as V[]) : [], rest }
}

/** /free-trial-videos: signed in, with the ability to see the free trial's videos (the row's steps). */
export const freeTrialVideosRule = guarded(
  '/free-trial-videos',
  (_input, pass): RouteOutcome<{ page: number }> => page('freeTrialVideos', { page: pass.page }),
)

/** The last awards page: max 32-bit integer / the small list page size. */
export function awardsMaxPage(smallListSize: number): number {
  return Math.floor(MAX_INT32 / (smallListSize > 0 ? smallListSize : LIST_SIZES.small))
}

/** /awards */
export const awardsRule = guarded('/awards', (_input, pass): RouteOutcome<{ page: number }> => page('awards', { page: pass.page }))
