import { CombinedGraphQLErrors } from '@apollo/client'
import { describe, expect, it } from 'vitest'
import { canAffordPack, gemFrames, packUnlockMessage, refusedUnlock, hasWallet } from './packUnlock'

const refused = (code: string, extensions: Record<string, unknown> = {}) =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message: code, extensions: { code, ...extensions } }] })

describe('a channel-pack unlock', () => {
  it('is affordable when the balance covers the price the server gave', () => {
    expect(canAffordPack(10, 10)).toBe(true)
    expect(canAffordPack(9, 10)).toBe(false)
    expect(canAffordPack(0, 10)).toBe(false)
    expect(canAffordPack(11, 12)).toBe(false)
    expect(canAffordPack(12, 12)).toBe(true)
  })

  it('reads not enough gems with the days until new gems', () => {
    const outcome = refusedUnlock(refused('NOT_ENOUGH_GEMS', { daysUntilRefreshGems: 3, balance: 0, needed: 10 }))
    expect(outcome).toEqual({ kind: 'notEnoughGems', daysUntilRefreshGems: 3 })
    expect(packUnlockMessage(outcome)).toBe('Not enough gems. New gems arrive in 3 days.')
    expect(packUnlockMessage({ kind: 'notEnoughGems', daysUntilRefreshGems: 1 })).toBe(
      'Not enough gems. New gems arrive in 1 day.',
    )
  })

  it('says not enough funds when the refusal does not tell when new gems arrive', () => {
    const outcome = refusedUnlock(refused('NOT_ENOUGH_GEMS', { balance: 0, needed: 10 }))
    expect(outcome).toEqual({ kind: 'notEnoughGems', daysUntilRefreshGems: null })
    expect(packUnlockMessage(outcome)).toBe('Not enough funds.')
  })

  it('tells already unlocked and any other failure apart', () => {
    expect(packUnlockMessage(refusedUnlock(refused('ALREADY_UNLOCKED')))).toBe('You have already unlocked this channel pack.')
    for (const code of ['NO_TENANT_ACCESS', 'NOT_FOUND', 'UNLOCK_FAILED', 'SERVICE_UNAVAILABLE']) {
      expect(packUnlockMessage(refusedUnlock(refused(code)))).toBe('Failed to unlock the channel pack. Please try again later.')
    }
    expect(refusedUnlock(new Error('network'))).toEqual({ kind: 'failed' })
    expect(packUnlockMessage({ kind: 'success', gemsBalance: 20 })).toBeNull()
  })

  it('animates the balance a gem at a time, in at most twelve frames', () => {
    expect(gemFrames(30, 20)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20])
    expect(gemFrames(10, 10)).toEqual([10])
    const long = gemFrames(500, 490 - 200)
    expect(long.length).toBe(12)
    expect(long[0]).toBe(500)
    expect(long.at(-1)).toBe(290)
    for (let i = 1; i < long.length; i += 1) expect(long[i]!).toBeLessThan(long[i - 1]!)
  })
})

describe('the header gems balance', () => {
  it('shows for users to whom gems arrive, or who hold some, and for nobody else', () => {
    expect(hasWallet({ receivesGems: true, balance: 0 })).toBe(true)
    expect(hasWallet({ receivesGems: false, balance: 3 })).toBe(true)
    expect(hasWallet({ receivesGems: false, balance: 0 })).toBe(false)
  })
})
