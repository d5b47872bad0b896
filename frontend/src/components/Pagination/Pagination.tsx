import { Link } from 'react-router'
import { useTranslation } from '../../app/i18n'
import '../../app/i18n/copy/shared'
import { isMobileViewport, useViewportType } from '../../app/theme/useViewport'
import { maxPageLinks, pageCount, pageWindow } from './pagination'
import './Pagination.css'

export interface PaginationProps {
  page: number
  totalCount: number
  pageSize?: number
  /** The address of a page, e.g. the current route with ?page=N. */
  hrefFor: (page: number) => string
}

export function Pagination({ page, totalCount, pageSize, hrefFor }: PaginationProps) {
  const { t } = useTranslation()
  const mobile = isMobileViewport(useViewportType())
  const total = pageCount(totalCount, pageSize)
  if (total <= 1) return null
  const pages = pageWindow(page, total, maxPageLinks(mobile))
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" aria-label={t('pagination.previous')}>
          ‹
        </Link>
      ) : null}
      <ol>
        {pages.map((number) => (
          <li key={number}>
            <Link
              to={hrefFor(number)}
              aria-label={t('pagination.page', { page: number })}
              aria-current={number === page ? 'page' : undefined}
            >
              {number}
            </Link>
          </li>
        ))}
      </ol>
      {page < total ? (
        <Link to={hrefFor(page + 1)} rel="next" aria-label={t('pagination.next')}>
          ›
        </Link>
      ) : null}
    </nav>
  )
}
