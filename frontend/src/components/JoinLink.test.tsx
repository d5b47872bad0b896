import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { member, tenantConfig } from '../app/routing/testing'
import { SessionProvider } from '../app/session/SessionContext'
import { JoinLink } from './JoinLink'

let assign: ReturnType<typeof vi.fn>
let fetchMock: ReturnType<typeof vi.fn>
beforeEach(() => {
  assign = vi.fn()
  fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }))
  vi.stubGlobal('location', { ...window.location, assign })
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderLink() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <SessionProvider session={{ tenant: tenantConfig(), user: member(), isMembersArea: false }}>
            <JoinLink elm="header">Join now</JoinLink>
          </SessionProvider>
        ),
      },
    ],
    { initialEntries: ['/'] },
  )
  render(<RouterProvider router={router} />)
  return screen.getByRole('link', { name: 'Join now' })
}

describe('a join link', () => {
  it('sends the leave event, then goes to the join form', async () => {
    const link = renderLink()
    const href = link.getAttribute('href')
    expect(href).toContain('/joinnow?')
    fireEvent.click(link)
    await waitFor(() => expect(assign).toHaveBeenCalledWith(href))
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(path).toBe('/api/analytics/events')
    expect(JSON.parse(init.body as string)).toMatchObject({ event: 'leave', to: 'join', elm: 'header', ref: 'home' })
  })

  it("carries the affiliate codes of this brand's ujc landing to the members host", () => {
    document.cookie = 'aff_code_single=AFF123; Path=/'
    document.cookie = 'aff_code_multi=AFF123; Path=/'
    try {
      const url = new URL(renderLink().getAttribute('href')!)
      expect(url.searchParams.get('aff_code_single')).toBe('AFF123')
      expect(url.searchParams.get('aff_code_multi')).toBe('AFF123')
    } finally {
      document.cookie = 'aff_code_single=; Max-Age=0; Path=/'
      document.cookie = 'aff_code_multi=; Max-Age=0; Path=/'
    }
  })

  it('leaves a click for a new tab to the browser', () => {
    const link = renderLink()
    fireEvent.click(link, { ctrlKey: true })
    expect(fetchMock).not.toHaveBeenCalled()
    expect(assign).not.toHaveBeenCalled()
  })
})
