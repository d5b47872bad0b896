// The category list, and the 301 from a category to the search (rows: ./rows.json).
import { page, type RouteInput, type RouteOutcome, tableOnly } from '../../../app/routing'

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

/** /categories/{slug}: 301 to the search screen with search={slug}. */
export const categoryMove = tableOnly('/categories/:slug')
