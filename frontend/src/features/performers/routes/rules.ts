// Performer routes, and the 301 moves from the old /models paths (rows: ./rows.json).
import {
  DEFAULT_PERFORMERS_GENDER,
  DEFAULT_PERFORMERS_ORDER,
  guarded,
  page,
  pageIds,
  type RouteOutcome,
  tableOnly,
} from '../../../app/routing'

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

/** /models: 301 to the performers list, keeping the query. */
export const modelsMove = tableOnly('/models')

/** /models/{slug}: 301 to /performers/{slug}. */
export const modelMove = tableOnly('/models/:slug')
