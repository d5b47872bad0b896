// Which page links a list shows (product.md, "Business constants and limits"): page size 12; at most 5 page links on mobile, 10 on desktop.
import { PAGE_SIZE, VARIABLE_PAGINATION_MAX_PAGES } from '../../app/routing'

export function pageCount(totalCount: number, pageSize: number = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, totalCount) / pageSize))
}

export function maxPageLinks(mobile: boolean): number {
  return mobile ? VARIABLE_PAGINATION_MAX_PAGES.mobile : VARIABLE_PAGINATION_MAX_PAGES.desktop
}

/** A window of at most maxPages consecutive pages around the current one, clamped to 1..totalPages. */
export function pageWindow(current: number, totalPages: number, maxPages: number): number[] {
  const size = Math.min(maxPages, totalPages)
  const page = Math.min(Math.max(1, current), totalPages)
  const start = Math.min(Math.max(1, page - Math.floor((size - 1) / 2)), totalPages - size + 1)
  return Array.from({ length: size }, (_, index) => start + index)
}
