import type { WelcomeCheckInput } from '../routes/rules'
import { GRAPHQL_PATH } from '../../../app/api/graphqlClient'
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from '../../../app/api/correlation'
import { WelcomeCheckDocument } from '../../../gql/graphql'
import { print } from 'graphql'


/**
 * GraphQL query welcomeCheck(site, memberId, hashedMemberId) → autologinId, for the upgrade result routes' loaders
 * (they run before the Apollo cache is in play). No member id, a refused check or no autologin id yet → null: the
 * route then redirects without a token and the member signs in as usual.
 */
export async function welcomeCheck(
  input: WelcomeCheckInput,
  fetchImpl: typeof fetch = (request, init) => fetch(request, init),
): Promise<string | null> {
  if (input.memberId === '' || input.hashedMemberId === '') return null
  const response = await fetchImpl(GRAPHQL_PATH, {
    method: 'POST',
    credentials: 'include',
    headers: {
      'content-type': 'application/json',
      [CSRF_HEADER]: '1',
      [CORRELATION_HEADER]: newCorrelationId(),
    },
    body: JSON.stringify({ operationName: 'WelcomeCheck', query: print(WelcomeCheckDocument), variables: input }),
  })
  if (!response.ok) return null
  const body = (await response.json()) as { data?: { welcomeCheck?: { autologinId?: string | null } | null } | null }
  return body.data?.welcomeCheck?.autologinId ?? null
}
