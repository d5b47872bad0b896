// Angels routes, switched on by the showAngels feature (rows: ./rows.json); off means not-found.
import { guarded, page, pageIds, type RouteOutcome } from '../../../app/routing'

/** /angels (showAngels) */
export const angelsRule = guarded('/angels', (): RouteOutcome => page('angels'))

/** /angels/:slug (showAngels) */
export const angelRule = guarded('/angels/:slug', ({ params }): RouteOutcome<{ slug: string }> => {
  const slug = params.slug ?? ''
  return page('angel', { slug }, pageIds.angel(slug))
})
