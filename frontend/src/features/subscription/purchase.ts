// The purchase flow (product.md, "Subscriptions and their states"): which of the three kinds a user is offered, and
// what happens after the answer.

/** multisite (sixSite), trial upgrade (fixed pricing), reactivate (single site). */
export type PurchaseKind = 'multisite' | 'trialUpgrade' | 'reactivate'

export function purchaseKind(profile: { subscriptionKind?: string | null; isActive: boolean } | null): PurchaseKind {
  if (profile?.subscriptionKind === 'trial' && profile.isActive) return 'trialUpgrade'
  if (!profile || !profile.isActive || profile.subscriptionKind === 'expired') return 'reactivate'
  return 'multisite'
}

export interface PurchaseAnswer {
  success: boolean
  location?: string | null
  username?: string | null
  memberId?: string | null
  hashedMemberId?: string | null
}

export type PurchaseStep =
  | { kind: 'goTo'; location: string }
  /** A multisite result: keep the new member data and go to the signup-success page with fatr=true. */
  | { kind: 'signupSuccess'; location: string }
  /** Close the modal and poll the subscription status. */
  | { kind: 'poll' }

export function purchaseStep(kind: PurchaseKind, answer: PurchaseAnswer): PurchaseStep {
  const location = answer.location?.trim() || null
  if (location && location !== '/' && !answer.success) return { kind: 'goTo', location }
  if (location && location !== '/' && answer.success && kind !== 'multisite') return { kind: 'goTo', location }
  if (kind === 'multisite') {
    const query = new URLSearchParams({ fatr: 'true' })
    if (answer.memberId) query.set('memberid', answer.memberId)
    if (answer.hashedMemberId) query.set('hashedMemberId', answer.hashedMemberId)
    if (answer.username) query.set('username', answer.username)
    return { kind: 'signupSuccess', location: `/_signupsuccess?${query}` }
  }
  return { kind: 'poll' }
}

/** A new key per purchase attempt: the same key twice charges once (the gateway's idempotencyKey). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID()
}
