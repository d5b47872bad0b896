// Quickies (reels feature), and the 301 from /reels (rows: ./rows.json); off means not-found.
import { guarded, page, type RouteOutcome, tableOnly } from '../../../app/routing'

/** /quickies/{uuid?} (reels) */
export const quickiesRule = guarded('/quickies/:uuid?', ({ params }): RouteOutcome<{ uuid: string | null }> =>
  page('quickies', { uuid: params.uuid ?? null }),
)

/** /reels/{uuid?}: 301 to /quickies/{uuid?}. */
export const reelsMove = tableOnly('/reels/:uuid?')
