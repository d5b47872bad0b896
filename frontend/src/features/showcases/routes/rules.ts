// Showcases routes, switched on by the showcasesPage feature (rows: ./rows.json); off means not-found.
import { guarded, page, type RouteOutcome } from '../../../app/routing'

/** /showcases (showcasesPage) */
export const showcasesRule = guarded('/showcases', (): RouteOutcome => page('showcases'))

/** /showcase/{slug} (showcasesPage) */
export const showcaseRule = guarded('/showcase/:slug', ({ params }): RouteOutcome<{ slug: string }> =>
  page('showcase', { slug: params.slug ?? '' }),
)
