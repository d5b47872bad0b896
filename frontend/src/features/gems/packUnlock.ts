// A channel-pack unlock with gems (product.md, "Unlocks", "The error catalogue", "Business constants and limits"): its outcomes and their
// messages, whether the balance covers the pack, and the frames of the gem animation. The pack's price and the weekly
// gems are the server's (unlockState.channelPackCostGems, getGemsBalance.weeklyGems): nothing here repeats them.
import { refusalNumber, refusalOf } from '../../app/api/graphqlErrors'
import { t } from '../../app/i18n'
import './copy'

export type PackUnlockOutcome =
  | { kind: 'success'; gemsBalance: number }
  | { kind: 'alreadyUnlocked' }
  /** daysUntilRefreshGems: null when the refusal did not say (the message then cannot promise new gems). */
  | { kind: 'notEnoughGems'; daysUntilRefreshGems: number | null }
  | { kind: 'failed' }

/**
 * The outcome of a refused unlock, from the code the gateway passes on from the unlocks service (error.rs):
 * ALREADY_UNLOCKED; NOT_ENOUGH_GEMS with `balance`, `needed` and `daysUntilRefreshGems` (the wallet's refusal
 * too, domain/process.rs); and, as a general failure, NO_TENANT_ACCESS, NOT_FOUND (a pack the brand does not carry), UNLOCK_FAILED,
 * SERVICE_UNAVAILABLE and anything else.
 */
export function refusedUnlock(error: unknown): PackUnlockOutcome {
  const refusal = refusalOf(error)
  switch (refusal?.code) {
    case 'ALREADY_UNLOCKED':
      return { kind: 'alreadyUnlocked' }
    case 'NOT_ENOUGH_GEMS':
      return { kind: 'notEnoughGems', daysUntilRefreshGems: refusalNumber(refusal, 'daysUntilRefreshGems') }
    default:
      return { kind: 'failed' }
  }
}

/** Not enough gems: with the days until new gems when they are known, otherwise the spec's "not enough funds". */
export function notEnoughGemsMessage(daysUntilRefreshGems: number | null): string {
  if (daysUntilRefreshGems === null) return t('unlock_channel_modal.not_enough_funds')
  return t('unlock_channel_modal.not_enough_gems', { count: daysUntilRefreshGems })
}

/** What the modal says after an unlock that did not succeed; null for a success. */
export function packUnlockMessage(outcome: PackUnlockOutcome): string | null {
  switch (outcome.kind) {
    case 'success':
      return null
    case 'alreadyUnlocked':
      return t('unlock_channel_modal.already_unlocked')
    case 'notEnoughGems':
      return notEnoughGemsMessage(outcome.daysUntilRefreshGems)
    case 'failed':
      return t('unlock_channel_modal.failed')
  }
}

/** Whether `balance` gems pay for a pack costing `cost` (the unlocks service's price). */
export function canAffordPack(balance: number, cost: number): boolean {
  return balance >= cost
}

/**
 * The balances the gem animation shows, one gem at a time from the old balance to the new one (both included);
 * at most `maxFrames`, so a large change still animates in the same time.
 */
export function gemFrames(from: number, to: number, maxFrames = 12): number[] {
  if (from === to) return [to]
  const distance = Math.abs(to - from)
  const steps = Math.min(distance, Math.max(1, maxFrames - 1))
  const frames: number[] = []
  for (let step = 0; step <= steps; step += 1) frames.push(Math.round(from + ((to - from) * step) / steps))
  return frames
}

/**
 * Whether the user has a wallet to show in the header (docs/decisions/front-end/header-shows-gems-balance-users-wallet.md): gems arrive for them (an
 * active subscriber with access to the brand, the GemAnimation ability), or they hold some.
 */
export function hasWallet(facts: { receivesGems: boolean; balance: number }): boolean {
  return facts.receivesGems || facts.balance > 0
}
