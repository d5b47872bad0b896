import { cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CampaignPlacement } from '../app/routing'
import { member, tenantConfig, userView } from '../app/routing/testing'
import { SessionProvider } from '../app/session/SessionContext'
import { VisitorJoin } from './VisitorJoin'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.dispatchEvent(new Event('resize'))
})

function renderAt(placement: CampaignPlacement, elm: string, signedIn = false) {
  const user = signedIn ? member() : userView()
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <SessionProvider session={{ tenant: tenantConfig(), user, isMembersArea: false }}>
            <VisitorJoin elm={elm} campaign={placement} lead="Watch them in full.">
              Join now
            </VisitorJoin>
          </SessionProvider>
        ),
      },
    ],
    { initialEntries: ['/'] },
  )
  render(<RouterProvider router={router} />)
}

const campaignOf = () => new URL(screen.getByRole('link', { name: 'Join now' }).getAttribute('href')!).searchParams

describe("a visitor's join call to action", () => {
  it.each([
    ['grid', 'grid', 'tsh-grid'],
    ['shelf1', 'shelf1', 'tsh-shelf1'],
    ['shelf2', 'shelf2', 'tsh-shelf2'],
    ['model', 'model', 'tsh-model'],
    ['modelName', 'model-name', 'tsh-model-name'],
    ['topBanner', 'top-banner', 'tsh-top-banner'],
  ] as const)('in the %s placement carries its campaign and element', (placement, elm, campaign) => {
    renderAt(placement, elm)
    const params = campaignOf()
    expect(params.get('campaign')).toBe(campaign)
    expect(params.get('elm')).toBe(elm)
    expect(screen.getByText('Watch them in full.')).toBeTruthy()
  })

  it('uses the mobile shelf suffixes on a phone', () => {
    vi.stubGlobal('innerWidth', 375)
    window.dispatchEvent(new Event('resize'))
    renderAt('shelf1', 'shelf1')
    expect(campaignOf().get('campaign')).toBe('tsh-mbshelf1')
    cleanup()
    renderAt('shelf2', 'shelf2')
    expect(campaignOf().get('campaign')).toBe('tsh-mbshelf2')
  })

  it('shows a member nothing', () => {
    renderAt('grid', 'grid', true)
    expect(screen.queryByRole('link')).toBeNull()
    expect(screen.queryByText('Watch them in full.')).toBeNull()
  })
})
