// The Apollo Client of the shell: same-origin POST /graphql with the CSRF header, a fresh correlation id per
// request, cache-first, and the UNAUTHENTICATED -> refresh -> retry-once link (account-payments-gems.md §4, §7).
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client'
import type { FormattedExecutionResult } from 'graphql'
import { from, mergeMap, of } from 'rxjs'
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from './correlation'
import type { SessionRefresher } from './sessionRefresh'

export const GRAPHQL_PATH = '/graphql'

const RETRIED = 'paysite.retriedAfterRefresh'

export function isUnauthenticated(result: FormattedExecutionResult): boolean {
  return (result.errors ?? []).some((error) => error.extensions?.code === 'UNAUTHENTICATED')
}

/** On UNAUTHENTICATED: refresh the session (shared), then send the operation once more. */
export function sessionRefreshLink(refresher: SessionRefresher): ApolloLink {
  return new ApolloLink((operation, forward) =>
    forward(operation).pipe(
      mergeMap((result) => {
        if (operation.getContext()[RETRIED] === true || !isUnauthenticated(result)) return of(result)
        operation.setContext({ [RETRIED]: true })
        return from(refresher.refresh()).pipe(mergeMap((renewed) => (renewed ? forward(operation) : of(result))))
      }),
    ),
  )
}

/** A new x-correlation-id for every request, retries included. */
export const correlationLink = new ApolloLink((operation, forward) => {
  operation.setContext(({ headers = {} }: { headers?: Record<string, string> }) => ({
    headers: { ...headers, [CORRELATION_HEADER]: newCorrelationId() },
  }))
  return forward(operation)
})

export interface GraphqlClientDeps {
  refresher: SessionRefresher
  fetch?: typeof fetch
}

export function createGraphqlClient({ refresher, fetch: fetchImpl }: GraphqlClientDeps): ApolloClient {
  const http = new HttpLink({
    uri: GRAPHQL_PATH,
    credentials: 'same-origin',
    // HttpLink sends content-type: application/json itself; the CSRF header is ours.
    headers: { [CSRF_HEADER]: '1' },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
  return new ApolloClient({
    link: ApolloLink.from([sessionRefreshLink(refresher), correlationLink, http]),
    cache: new InMemoryCache(),
    defaultOptions: {
      watchQuery: { fetchPolicy: 'cache-first' },
      query: { fetchPolicy: 'cache-first' },
    },
  })
}
