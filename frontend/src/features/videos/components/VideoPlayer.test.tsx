import { cleanup, render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { member, tenantConfig, userView, type UserFixture } from '../../../app/routing/testing'
import { SessionProvider } from '../../../app/session/SessionContext'
import { ModalProvider } from '../../../app/shell/ModalManager'
import { scriptedGraphql, WithGraphql, type GraphqlAnswer } from '../../../testing/graphql'
import { Trailer, VideoPlayer } from './VideoPlayer'

afterEach(cleanup)

// The way in of a refused video is a chunk of its own (unlocks' LockedVideoSlot): counted here when it is loaded.
const wayInCode = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../unlocks/components/LockedVideo', async (importOriginal) => {
  wayInCode.loads += 1
  return importOriginal()
})

const video = (src: string) => ({
  uuid: 'v-1',
  title: 'Golden Hour',
  trailer: { src, poster: '/media/placeholder/video/golden-hour.svg?w=1280&h=720' },
})

describe('the trailer', () => {
  it('plays its clip (product.md, "Roles and abilities": a visitor plays the trailer when it is not denied)', () => {
    const { container } = render(<Trailer video={video('/media/trailers/golden-hour.mp4')} autoPlay />)
    const player = container.querySelector('video')
    expect(player?.getAttribute('src')).toBe('/media/trailers/golden-hour.mp4')
    expect(player?.hasAttribute('controls')).toBe(true)
    expect(player?.getAttribute('poster')).toContain('/media/placeholder/video/golden-hour.svg')
  })

  it('shows the poster and says so when the trailer is denied (no src)', () => {
    const { container } = render(<Trailer video={video('')} />)
    expect(container.querySelector('video')).toBeNull()
    expect(screen.getByRole('img', { name: 'Golden Hour' }).getAttribute('src')).toContain('golden-hour.svg')
    expect(screen.getByText('The trailer is not available here.')).toBeTruthy()
  })
})

const refusedTokens: GraphqlAnswer = { getToken: null }
const playableTokens: GraphqlAnswer = {
  getToken: {
    __typename: 'VideoTokens',
    ...Object.fromEntries(['p270', 'p360', 'p480', 'p480l', 'p1080', 'p2160', 'hls'].map((quality) => [quality, null])),
    p720: { __typename: 'VideoToken', url: '/media/videos/golden-hour-720.mp4?token=t' },
  },
}
/** The video access answer for a refused video (the server's reason) and the user's credits. */
const access = (credits: number): GraphqlAnswer => ({
  videoAccess: [
    {
      __typename: 'VideoAccess',
      videoId: 'v-1',
      denied: true,
      access: null,
      deniedReason: 'no_access',
      unlocked: false,
      channelPackId: null,
      isFreeLimitedTrial: false,
    },
  ],
  getGemsBalance: { __typename: 'GemsBalance', payPerVideoCredits: credits },
  unlockState: { __typename: 'UnlockState', freeLimitedTrialVideosLeft: 0, freeLimitedTrialVideos: 3 },
})

function renderPlayer(user: ReturnType<typeof userView>, answers: Record<string, GraphqlAnswer>) {
  const graphql = scriptedGraphql(answers)
  render(
    <WithGraphql client={graphql.client}>
      <SessionProvider session={{ tenant: tenantConfig(), user, isMembersArea: false }}>
        <ModalProvider>
          <RouterProvider
            router={createMemoryRouter([{ path: '/', element: <VideoPlayer video={video('/media/trailers/golden-hour.svg')} /> }])}
          />
        </ModalProvider>
      </SessionProvider>
    </WithGraphql>,
  )
  return graphql
}

const trial: UserFixture['profile'] = { subscriptionKind: 'trial', isActive: true }

// In this order: the visitor's test counts the way in's code before any other test has loaded it.
describe('the player', () => {
  it("a visitor's: the trailer and the join link, without loading the way in's code", async () => {
    const { calls } = renderPlayer(userView(), {})
    expect(screen.getByTestId('trailer')).toBeTruthy()
    expect(screen.getByRole('link', { name: /Join/ })).toBeTruthy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(calls).toEqual([])
    expect(wayInCode.loads).toBe(0)
    expect(document.querySelector('.player__locked')).toBeNull()
  })

  it('a member refused the video: the player waits, then the trailer and the way in (a credit) once its code is in', async () => {
    const { calls } = renderPlayer(member({ profile: trial }), { VideoTokens: refusedTokens, VideoAccessOne: access(3) })
    // What renders first: the player's place, busy; the trailer comes with the way in.
    expect(document.querySelector('.player--loading[aria-busy="true"]')).toBeTruthy()
    expect(screen.queryByTestId('trailer')).toBeNull()
    const wayIn = await screen.findByRole('status')
    expect(screen.getByTestId('trailer')).toBeTruthy()
    expect(document.querySelector('.player--loading')).toBeNull()
    expect(await within(wayIn).findByRole('button', { name: 'Unlock this video' })).toBeTruthy()
    expect(wayIn.getAttribute('data-step')).toBe('modal')
    expect(wayInCode.loads).toBe(1)
    expect(calls.map((call) => call.operationName)).toEqual(['VideoTokens', 'VideoAccessOne'])
  })

  it('a member whose tokens play: the video with its quality, and no way in', async () => {
    renderPlayer(member({ profile: { subscriptionKind: 'member' } }), { VideoTokens: playableTokens })
    const quality = await screen.findByRole('combobox')
    expect((quality as HTMLSelectElement).value).toBe('p720')
    expect(document.querySelector('video')?.getAttribute('src')).toBe('/media/videos/golden-hour-720.mp4?token=t')
    expect(screen.queryByRole('status')).toBeNull()
    expect(screen.queryByTestId('trailer')).toBeNull()
  })
})
