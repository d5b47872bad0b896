/** The address of page `page` of the list at `pathname`, keeping the rest of the query; page 1 has no page query. */
export function pageHref(pathname: string, search: string, page: number): string {
  const query = new URLSearchParams(search)
  if (page <= 1) query.delete('page')
  else query.set('page', String(page))
  const rest = query.toString()
  return rest ? `${pathname}?${rest}` : pathname
}
