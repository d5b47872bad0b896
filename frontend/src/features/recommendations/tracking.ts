// The recommender's signals (product.md, "Recommendations"): which element of a recommendation shelf was clicked
// (POST /recommendations-tracking with email, userId, elementClicked, recommId) and the reels' events (POST
// /rest/reel/{view|rating|delete-rating|add-bookmark|delete-bookmark|purchase} with email, userId, timestamp, item
// id, recommId and, for a rating, the rating). The gateway acts for the session's user and the catalog records each.
// The recommId of the shelf clicked last is kept for the tab and read once per page load (product.md, "Recommendations": "read once from
// storage or from the query string").
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from '../../app/api/correlation'

export const RECOMMENDATIONS_TRACKING_PATH = '/recommendations-tracking'
export const REEL_TRACKING_BASE = '/rest/reel'
export const REEL_ACTIONS = ['view', 'rating', 'delete-rating', 'add-bookmark', 'delete-bookmark', 'purchase'] as const
export type ReelAction = (typeof REEL_ACTIONS)[number]

/** Where the last shelf's recommId is kept for the tab. */
export const RECOMM_ID_STORAGE_KEY = 'paysite.recommId'

export interface Tracker {
  userId: string
  email: string
}

export interface RecommendationClick {
  email: string
  userId: string
  elementClicked: string
  recommId: string
}

export interface ReelEvent {
  email: string
  userId: string
  timestamp: string
  itemId: string
  recommId: string | null
  rating?: number
}

export function recommendationClick(who: Tracker, elementClicked: string, recommId: string): RecommendationClick {
  return { email: who.email, userId: who.userId, elementClicked, recommId }
}

export function reelEvent(who: Tracker, itemId: string, recommId: string | null, now: Date, rating?: number): ReelEvent {
  return {
    email: who.email,
    userId: who.userId,
    timestamp: now.toISOString(),
    itemId,
    recommId,
    ...(rating === undefined ? {} : { rating }),
  }
}

/** The signed-in user as the tracking calls name them; null for a visitor (nothing is sent then). */
export function trackerOf(profile: { userId?: string; email: string | null } | null | undefined): Tracker | null {
  if (!profile?.userId || !profile.email) return null
  return { userId: profile.userId, email: profile.email }
}

/** The recommId this page was opened with: the query's, else the one kept from the last shelf clicked. */
export function recommIdOf(search: string, storage: Pick<Storage, 'getItem'> | null): string | null {
  const fromQuery = new URLSearchParams(search).get('recommId')
  if (fromQuery) return fromQuery
  try {
    return storage?.getItem(RECOMM_ID_STORAGE_KEY) ?? null
  } catch {
    return null
  }
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

let pageRecommId: string | null | undefined

/** Read once per page load (product.md, "Recommendations"). */
export function currentRecommId(): string | null {
  if (pageRecommId === undefined) pageRecommId = recommIdOf(window.location.search, sessionStore())
  return pageRecommId
}

async function post(path: string, body: unknown): Promise<boolean> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1', [CORRELATION_HEADER]: newCorrelationId() },
      body: JSON.stringify(body),
      // A click that leaves the page still reaches the server.
      keepalive: true,
    })
    return response.ok
  } catch {
    return false
  }
}

/** A click on a shelf's element: sent, and its recommId kept for the reel events that follow. */
export function trackRecommendationClick(who: Tracker | null, elementClicked: string, recommId: string): Promise<boolean> {
  pageRecommId = recommId
  try {
    sessionStore()?.setItem(RECOMM_ID_STORAGE_KEY, recommId)
  } catch {
    // Storage may be off; the click is still sent.
  }
  if (!who) return Promise.resolve(false)
  return post(RECOMMENDATIONS_TRACKING_PATH, recommendationClick(who, elementClicked, recommId))
}

export function trackReel(who: Tracker | null, action: ReelAction, itemId: string, rating?: number): Promise<boolean> {
  if (!who) return Promise.resolve(false)
  return post(`${REEL_TRACKING_BASE}/${action}`, reelEvent(who, itemId, currentRecommId(), new Date(), rating))
}
