// Routes that only send the visitor elsewhere: the 301 permanent moves and /tube2.
import type { RouteInput } from '../context'
import { movedPermanently, notFound, redirect, type RouteOutcome } from '../outcome'
import { withQuery } from '../query'
import { isValidSlug } from '../slug'

type Move = RouteOutcome<never>

/** /models: 301 to the performers list, keeping the query. */
export function modelsMove({ query }: RouteInput): Move {
  return movedPermanently(withQuery('/performers', query))
}

/** /models/{slug}: 301 to /performers/{slug}. */
export function modelMove({ params }: RouteInput): Move {
  const { slug } = params
  if (!isValidSlug(slug)) return notFound
  return movedPermanently(`/performers/${slug}`)
}

/** /categories/{slug}: 301 to the search screen with search={slug}. */
export function categoryMove({ params }: RouteInput): Move {
  const { slug } = params
  if (!isValidSlug(slug)) return notFound
  return movedPermanently(withQuery('/search', { search: slug }))
}

/** /reels/{uuid?}: 301 to /quickies/{uuid?}. */
export function reelsMove({ params }: RouteInput): Move {
  const { uuid } = params
  return movedPermanently(uuid ? `/quickies/${encodeURIComponent(uuid)}` : '/quickies')
}

/** /favorites/models: 301 to /favorites/performers (spec README). */
export function favoriteModelsMove(): Move {
  return movedPermanently('/favorites/performers')
}

/** /tube2: home, keeping the query. */
export function tube2Rule({ query }: RouteInput): Move {
  return redirect(withQuery('/', query))
}
