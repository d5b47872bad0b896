// Open browsing routes: home, video and performer listings, content pages, search, legal pages.
import { ABILITIES, DEFAULT_PERFORMERS_GENDER, DEFAULT_PERFORMERS_ORDER, LIST_SIZES, MAX_INT32 } from '../../../app/routing/constants'
import type { RouteInput, ViewportType } from '../../../app/routing/context'
import { page, type RouteOutcome } from '../../../app/routing/outcome'
import { pageIds } from '../../../app/routing/pageIds'
import { parsePage } from '../../../app/routing/query'
import { guarded } from '../../../app/routing/table'

export interface Flash {
  type: 'success' | 'error'
  /** Translation key of the message. */
  message: string
}

export interface HomeData {
  flash: Flash | null
  openModal: 'PurchaseMembership' | null
  /** Which subscription-status action the visit triggers, if any. */
  subscriptionStatusAction: 'reactivation' | 'fromJoinnow' | null
  /** The viewport the page was loaded for: the home query asks for that viewport's share of each shelf (§9). */
  viewportType: ViewportType
}

function homeFlash(query: URLSearchParams): Flash | null {
  const deviceChallenge = query.get('dc')
  if (deviceChallenge === 'approved' || deviceChallenge === 'blocked') {
    return { type: 'success', message: `deviceChallenge.${deviceChallenge}` }
  }
  const notification = query.get('notification')
  if (notification === 'upgradesuccess') return { type: 'success', message: 'notification.upgradesuccess' }
  if (notification === 'upgradedenial') return { type: 'error', message: 'notification.upgradedenial' }
  return null
}

/** / : flashes, the upgrade modal and subscription-status actions come from the query. */
export function homeRule({ query, user, viewportType }: RouteInput): RouteOutcome<HomeData> {
  const [action, subject] = ABILITIES.seePurchaseMembershipModal
  const openModal =
    query.get('modal') === 'upgrade' && user.profile?.isSubscribed === true && user.can(action, subject)
      ? 'PurchaseMembership'
      : null
  const subscriptionStatusAction =
    query.get('reactivation') === 'success' && user.isAuthenticated && user.profile?.isActive !== true
      ? 'reactivation'
      : query.get('from') === 'joinnow'
        ? 'fromJoinnow'
        : null
  return page('home', { flash: homeFlash(query), openModal, subscriptionStatusAction, viewportType })
}

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

/** The last awards page: max 32-bit integer / the small list page size. */
export function awardsMaxPage(smallListSize: number): number {
  return Math.floor(MAX_INT32 / (smallListSize > 0 ? smallListSize : LIST_SIZES.small))
}

/** /awards */
export const awardsRule = guarded('/awards', (_input, pass): RouteOutcome<{ page: number }> => page('awards', { page: pass.page }))

export interface PerformersData {
  order: string
  page: number
  gender: string
  sex: string | null
}

/** /performers */
export const performersRule = guarded('/performers', ({ query }, pass): RouteOutcome<PerformersData> => {
  const order = query.get('order') || DEFAULT_PERFORMERS_ORDER
  const gender = query.get('gender') || DEFAULT_PERFORMERS_GENDER
  return page('models', { order, page: pass.page, gender, sex: query.get('sex') })
})

/** /performers/{slug} */
export const performerRule = guarded('/performers/:slug', ({ params }, pass): RouteOutcome<{ slug: string; page: number }> => {
  const slug = params.slug ?? ''
  return page('model', { slug, page: pass.page }, pageIds.performer(slug))
})

/**
 * /categories: renders when the tenant's category list is loaded; otherwise the fallback loads it, then renders
 * (spec README).
 */
export function categoriesRule(
  _input: RouteInput,
  isCategoryListLoaded: boolean,
): RouteOutcome<{ fallback: 'loadCategoryList' | null }> {
  return page('categories', { fallback: isCategoryListLoaded ? null : 'loadCategoryList' })
}

export type LegalContent = 'casting' | 'terms' | 'privacy' | 'compliance' | 'support'

/** /casting, /terms, /privacy: plain page loads. */
export const castingRule = (): RouteOutcome<{ content: LegalContent }> => page('casting', { content: 'casting' })
export const termsRule = (): RouteOutcome<{ content: LegalContent }> => page('terms', { content: 'terms' })
export const privacyRule = (): RouteOutcome<{ content: LegalContent }> => page('privacy', { content: 'privacy' })
/** /safety loads the same content as privacy. */
export const safetyRule = (): RouteOutcome<{ content: LegalContent }> => page('safety', { content: 'privacy' })
/** /removal preloads the privacy page. */
export const removalRule = (): RouteOutcome<{ content: LegalContent }> => page('removal', { content: 'privacy' })
/** /support (linked from the footer on the members host, and from payment and signup failures): a plain page load. */
export const supportRule = (): RouteOutcome<{ content: LegalContent }> => page('support', { content: 'support' })
/** /2257 preloads the compliance page. */
export const complianceRule = (): RouteOutcome<{ content: LegalContent }> =>
  page('compliance', { content: 'compliance' })

export interface SearchData {
  isAuthenticated: boolean
  search: string
  page: number
  size: number | null
}

/** /search */
export const searchRule = guarded('/search', ({ query, user }, pass): RouteOutcome<SearchData> => {
  const size = parsePage(query.get('size'))
  return page('search', {
    isAuthenticated: user.isAuthenticated,
    search: query.get('q') ?? '',
    page: pass.page,
    size: query.has('size') && size.valid ? size.page : null,
  })
})
