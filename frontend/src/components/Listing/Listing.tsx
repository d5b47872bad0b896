// A paginated list page's body: the count, the items and the page links (page size 12; 5 page links on phones,
// 10 on desktops).
import type { ReactNode } from 'react'
import { useLocation } from 'react-router'
import { PAGE_SIZE } from '../../app/routing'
import { Pagination } from '../Pagination/Pagination'
import { pageHref } from './pageHref'

export interface ListingProps {
  page: number
  totalCount: number
  pageSize?: number
  /** 'videos', 'models': the count reads "24 videos". */
  noun?: string
  children: ReactNode
}

export function Listing({ page, totalCount, pageSize = PAGE_SIZE, noun, children }: ListingProps) {
  const { pathname, search } = useLocation()
  return (
    <>
      {noun ? (
        <p className="muted" aria-live="polite">
          {totalCount} {noun}
        </p>
      ) : null}
      {children}
      <Pagination page={page} totalCount={totalCount} pageSize={pageSize} hrefFor={(n) => pageHref(pathname, search, n)} />
    </>
  )
}
