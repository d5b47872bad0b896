import { cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { Pagination } from './Pagination'
import { maxPageLinks, pageCount, pageWindow } from './pagination'

afterEach(cleanup)

describe('pagination rules', () => {
  it('counts pages of 12 by default', () => {
    expect(pageCount(0)).toBe(1)
    expect(pageCount(12)).toBe(1)
    expect(pageCount(13)).toBe(2)
    expect(pageCount(240)).toBe(20)
    expect(pageCount(30, 15)).toBe(2)
  })

  it('shows at most 5 pages on mobile and 10 on desktop', () => {
    expect(maxPageLinks(true)).toBe(5)
    expect(maxPageLinks(false)).toBe(10)
  })

  it('centres the window on the current page', () => {
    expect(pageWindow(10, 20, 5)).toEqual([8, 9, 10, 11, 12])
    expect(pageWindow(10, 20, 10)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
  })

  it('clamps the window at both ends', () => {
    expect(pageWindow(1, 20, 5)).toEqual([1, 2, 3, 4, 5])
    expect(pageWindow(20, 20, 5)).toEqual([16, 17, 18, 19, 20])
    expect(pageWindow(2, 3, 5)).toEqual([1, 2, 3])
    expect(pageWindow(99, 3, 10)).toEqual([1, 2, 3])
  })
})

function renderAt(width: number, page: number, totalCount: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width })
  window.dispatchEvent(new Event('resize'))
  const router = createMemoryRouter([
    { path: '/', element: <Pagination page={page} totalCount={totalCount} hrefFor={(n) => `/videos?page=${n}`} /> },
  ])
  render(<RouterProvider router={router} />)
}

describe('the pagination component', () => {
  it('on a 360 px phone links 5 pages, marks the current one, with previous and next', () => {
    renderAt(360, 10, 240)
    const nav = screen.getByRole('navigation', { name: 'Pages' })
    expect(nav.querySelectorAll('ol a')).toHaveLength(5)
    expect(screen.getByRole('link', { name: 'Page 10' }).getAttribute('aria-current')).toBe('page')
    expect(screen.getByRole('link', { name: 'Previous page' }).getAttribute('href')).toBe('/videos?page=9')
    expect(screen.getByRole('link', { name: 'Next page' }).getAttribute('href')).toBe('/videos?page=11')
  })

  it('on a desktop links 10 pages', () => {
    renderAt(1440, 1, 240)
    expect(screen.getByRole('navigation').querySelectorAll('ol a')).toHaveLength(10)
    expect(screen.queryByRole('link', { name: 'Previous page' })).toBeNull()
  })

  it('shows nothing for a single page', () => {
    renderAt(1440, 1, 12)
    expect(screen.queryByRole('navigation')).toBeNull()
  })
})
