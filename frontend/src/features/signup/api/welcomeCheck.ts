import type { WelcomeCheckInput } from '../../../app/routing'

/**
 * GraphQL query welcomeCheck(site, memberId, hashedMemberId) → autologinId.
 * The gateway's GraphQL schema does not exist yet; until it does (with typed documents from codegen),
 * this fails loudly rather than inventing an answer.
 */
export async function welcomeCheck(input: WelcomeCheckInput): Promise<string | null> {
  void input
  throw new Error('welcomeCheck is not available yet: the GraphQL schema does not exist')
}
