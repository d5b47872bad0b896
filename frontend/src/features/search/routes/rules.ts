// The search route (rows: ./rows.json).
import { guarded, page, parsePage, type RouteOutcome } from '../../../app/routing'

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
