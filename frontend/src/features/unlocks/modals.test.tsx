import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import { cleanup, render, screen } from '@testing-library/react'
import { Observable } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { member, tenantConfig } from '../../app/routing/testing'
import { FlashProvider } from '../../app/shell/Flash'
import { ModalProvider } from '../../app/shell/ModalManager'
import { SessionProvider } from '../../app/session/SessionContext'
import { UnlockOrUpgradeMembership } from './modals/UnlockOrUpgradeMembership'

afterEach(cleanup)

/** The gateway's answer to VideoUnlockTerms: the unlocks service's settings, as it is configured. */
function client(videoUnlockCostCredits: number, freeLimitedTrialVideos: number) {
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        observer.next(
          operation.operationName === 'VideoUnlockTerms'
            ? { data: { unlockState: { __typename: 'UnlockState', videoUnlockCostCredits, freeLimitedTrialVideos } } }
            : { data: null, errors: [{ message: 'unscripted' }] },
        )
        observer.complete()
      }),
  )
  return new ApolloClient({ link, cache: new InMemoryCache() })
}

function renderModal(apollo: ApolloClient, props: { payPerVideoCredits?: number; freeVideosLeft?: number }) {
  render(
    <ApolloProvider client={apollo}>
      <SessionProvider session={{ tenant: tenantConfig(), user: member(), isMembersArea: false }}>
        <FlashProvider>
          <ModalProvider>
            <UnlockOrUpgradeMembership props={{ videoId: 'v-1', videoTitle: 'Easy Glow', ...props }} close={() => undefined} />
          </ModalProvider>
        </FlashProvider>
      </SessionProvider>
    </ApolloProvider>,
  )
}

describe('the unlock-or-upgrade modal', () => {
  it("asks the video's price the server gives", async () => {
    renderModal(client(1, 3), { payPerVideoCredits: 4 })
    expect(await screen.findByRole('button', { name: 'Unlock for 1 credit' })).toBeTruthy()
    cleanup()
    renderModal(client(2, 3), { payPerVideoCredits: 4 })
    expect(await screen.findByRole('button', { name: 'Unlock for 2 credits' })).toBeTruthy()
    expect(screen.getByText(/for good with 2 credits/)).toBeTruthy()
  })

  it("tells the free limited trial's size the server gives", async () => {
    renderModal(client(1, 5), { freeVideosLeft: 2 })
    expect((await screen.findByText(/free videos\.$/)).textContent).toBe('Watch Easy Glow in full as one of your 5 free videos.')
  })
})
