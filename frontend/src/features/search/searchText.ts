import type { SearchData } from './routes/rules'

/**
 * What to search for: the q query, or — for the address /categories/{slug} moved to (search={slug}) — the category
 * slug as words.
 */
export function searchText(data: SearchData, location: { search: string }): string {
  if (data.search) return data.search
  const moved = new URLSearchParams(location.search).get('search')
  return moved ? moved.replace(/-/g, ' ') : ''
}
