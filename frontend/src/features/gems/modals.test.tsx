import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Observable } from 'rxjs'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { member, tenantConfig } from '../../app/routing/testing'
import { FlashProvider } from '../../app/shell/Flash'
import { ModalProvider } from '../../app/shell/ModalManager'
import { SessionProvider } from '../../app/session/SessionContext'
import { PackUnlockButton } from './components/PackUnlockButton'
import { UnlockChannel } from './modals/UnlockChannel'
import { signedAmount, UserGemsInfo } from './modals/UserGemsInfo'

afterEach(cleanup)

type Answer = { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }

function client(answers: Record<string, Answer[]>) {
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const queue = answers[operation.operationName ?? ''] ?? []
        observer.next((queue.length > 1 ? queue.shift() : queue[0]) ?? { data: null, errors: [{ message: 'unscripted' }] })
        observer.complete()
      }),
  )
  return new ApolloClient({ link, cache: new InMemoryCache() })
}

// The wallet's answer; its weekly gems as the wallet is configured (10 by default, product.md, "Gems and the wallet").
const balance = (amount: number, days = 3, weeklyGems = 10) => ({
  data: {
    getGemsBalance: {
      __typename: 'GemsBalance',
      daysUntilRefreshGems: days,
      payPerVideoCredits: 0,
      weeklyGems,
      gems: { __typename: 'GemsState', lastAcknowledgementDate: null, hasNewGems: false, mayShowGemsModal: false },
      wallet: { __typename: 'Wallet', balance: { __typename: 'Balance', amount } },
    },
  },
})

// The unlocks service's pack price, as it is configured (10 by default, product.md, "Unlocks").
const packCost = (channelPackCostGems = 10) => ({
  data: { unlockState: { __typename: 'UnlockState', channelPackCostGems } },
})

function renderWith(answers: Record<string, Answer[]>, body: ReactNode) {
  const user = {
    ...member(),
    can: (action: string, subject: string) =>
      (action === 'see' && subject === 'GemAnimation') || (action === 'unlock' && subject === 'ChannelPack'),
  }
  render(
    <ApolloProvider client={client({ ChannelPackCost: [packCost()], ...answers })}>
      <SessionProvider session={{ tenant: tenantConfig(), user, isMembersArea: false }}>
        <FlashProvider>
          <ModalProvider>{body}</ModalProvider>
        </FlashProvider>
      </SessionProvider>
    </ApolloProvider>,
  )
}

function renderModal(answers: Record<string, Answer[]>) {
  renderWith(answers, <UnlockChannel props={{ channelPackId: 'pack-1', packName: 'Pack One' }} close={() => undefined} />)
}

describe('the unlock-channel modal', () => {
  it('shows the balance and cost, unlocks, and counts the balance down', async () => {
    renderModal({
      GemsBalance: [balance(20), balance(10)],
      UnlockChannelPack: [
        {
          data: {
            unlockChannelPack: {
              __typename: 'ChannelPackUnlock',
              status: 'success',
              unlockId: 'u-1',
              channelPackId: 'pack-1',
              unlockedAt: '2026-11-25T00:00:00Z',
              gemsBalance: 10,
            },
          },
        },
      ],
    })
    const shown = await screen.findByTestId('gems-balance')
    expect(shown.textContent).toContain('20 gems')
    expect(screen.getByTestId('pack-cost').textContent).toBe('10 gems')
    fireEvent.click(screen.getByRole('button', { name: 'Unlock for 10 gems' }))
    expect((await screen.findByRole('status')).textContent).toBe('Pack One is unlocked.')
    expect(screen.getByTestId('gems-balance').getAttribute('data-amount')).toBe('10')
    // The animation counts down to the new balance.
    await waitFor(() => expect(screen.getByTestId('gems-balance').textContent).toMatch(/\s10 gems$/), { timeout: 2000 })
  })

  it('says not enough gems with the days, before and after asking', async () => {
    renderModal({
      GemsBalance: [balance(0, 2)],
      UnlockChannelPack: [
        { data: null, errors: [{ message: 'not enough gems', extensions: { code: 'NOT_ENOUGH_GEMS', daysUntilRefreshGems: 2 } }] },
      ],
    })
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough gems. New gems arrive in 2 days.')
    fireEvent.click(screen.getByRole('button', { name: 'Unlock for 10 gems' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough gems. New gems arrive in 2 days.')
  })

  it('tells an already unlocked pack', async () => {
    renderModal({
      GemsBalance: [balance(30)],
      UnlockChannelPack: [{ data: null, errors: [{ message: 'x', extensions: { code: 'ALREADY_UNLOCKED' } }] }],
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Unlock for 10 gems' }))
    expect((await screen.findByRole('alert')).textContent).toBe('You have already unlocked this channel pack.')
  })
})

describe("the pack price and the weekly gems are the server's", () => {
  it('shows another configured price in the modal, its button and its affordability', async () => {
    renderModal({ GemsBalance: [balance(11)], ChannelPackCost: [packCost(12)] })
    await screen.findByTestId('gems-balance')
    expect(screen.getByTestId('pack-cost').textContent).toBe('12 gems')
    expect(screen.getByRole('button', { name: 'Unlock for 12 gems' })).toBeTruthy()
    // 11 gems do not pay for a 12-gem pack.
    expect(screen.getByRole('alert').textContent).toBe('Not enough gems. New gems arrive in 3 days.')
  })

  it("shows the configured price on a pack's unlock button", async () => {
    renderWith(
      {
        UnlockedPacks: [
          {
            data: {
              unlockState: {
                __typename: 'UnlockState',
                unlockedChannelPackIds: [],
                percentageOfUnlockedChannelPacks: 0,
                channelPackCostGems: 12,
              },
            },
          },
        ],
      },
      <PackUnlockButton channelPackId="pack-1" packName="Pack One" />,
    )
    expect(await screen.findByRole('button', { name: 'Unlock Pack One for 12 gems' })).toBeTruthy()
  })

  it('tells the configured weekly gems and price in the gems popup', async () => {
    renderWith(
      { GemsBalance: [balance(5, 3, 15)], ChannelPackCost: [packCost(12)], Transactions: [{ data: { getTransactions: [] } }] },
      <UserGemsInfo props={{}} close={() => undefined} />,
    )
    const intro = await screen.findByTestId('gems-intro')
    expect(intro.textContent).toContain('15 free gems arrive every Friday')
    expect(intro.textContent).toContain('each channel pack costs 12 gems')
  })
})

describe('a transaction in the gems popup', () => {
  it('shows a grant with a plus and a debit or forfeit with a minus, whatever sign the amount came with', () => {
    expect(signedAmount({ amount: 10, transactionType: 'grant' })).toBe('+10')
    expect(signedAmount({ amount: 10, transactionType: 'debit' })).toBe('−10')
    expect(signedAmount({ amount: -10, transactionType: 'debit' })).toBe('−10')
    expect(signedAmount({ amount: 30, transactionType: 'forfeit' })).toBe('−30')
  })
})
