// The Apollo Client of the shell: same-origin /graphql with the CSRF header, every operation named by its
// persisted document's hash (queries as GET, so a shared cache can keep a visitor's answers; mutations POSTed),
// a fresh correlation id per request, cache-first, and the UNAUTHENTICATED -> refresh -> retry-once link
// (product.md, "Calls and sessions").
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client'
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries'
import type { DocumentNode, FormattedExecutionResult } from 'graphql'
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

/** The hash codegen registered a document under (src/gql/persisted-documents.json), if it has one. */
export function persistedHash(document: DocumentNode): string | undefined {
  const hash = (document as { __meta__?: { hash?: unknown } }).__meta__?.hash
  return typeof hash === 'string' ? hash : undefined
}

/**
 * Sends the hash alone, queries as GET. A hash the gateway does not hold: with APQ on (development) it asks for
 * the text, which is POSTed once; in production it answers DOCUMENT_NOT_REGISTERED (the page was built with
 * other documents than this gateway's), and the page reloads once to get the release's own.
 */
export const persistedDocumentsLink: ApolloLink = ApolloLink.split(
  (operation) => persistedHash(operation.query) !== undefined,
  new PersistedQueryLink({
    generateHash: (document) => persistedHash(document) ?? '',
    useGETForHashedQueries: true,
  }),
)

export const DOCUMENT_NOT_REGISTERED = 'DOCUMENT_NOT_REGISTERED'
const RELOADED_AT = 'paysite.reloadedForDocuments'

/** Reloads the page once per tab (at most every 10 minutes) when the gateway no longer knows its documents. */
export function staleDocumentsLink(reload: () => void = () => window.location.reload()): ApolloLink {
  return new ApolloLink((operation, forward) =>
    forward(operation).pipe(
      mergeMap((result) => {
        const stale = (result.errors ?? []).some((error) => error.extensions?.code === DOCUMENT_NOT_REGISTERED)
        if (stale && typeof sessionStorage !== 'undefined') {
          const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0)
          if (Date.now() - last > 10 * 60_000) {
            sessionStorage.setItem(RELOADED_AT, String(Date.now()))
            reload()
          }
        }
        return of(result)
      }),
    ),
  )
}

export interface GraphqlClientDeps {
  refresher: SessionRefresher
  fetch?: typeof fetch
  reload?: () => void
}

export function createGraphqlClient({ refresher, fetch: fetchImpl, reload }: GraphqlClientDeps): ApolloClient {
  const http = new HttpLink({
    uri: GRAPHQL_PATH,
    credentials: 'same-origin',
    // HttpLink sends content-type: application/json itself; the CSRF header is ours.
    headers: { [CSRF_HEADER]: '1' },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
  return new ApolloClient({
    link: ApolloLink.from([
      sessionRefreshLink(refresher),
      staleDocumentsLink(reload),
      correlationLink,
      persistedDocumentsLink,
      http,
    ]),
    cache: new InMemoryCache(),
    // No library name and version in every request's extensions: a query's URL is its document, variables and
    // tenant, nothing that changes with a dependency bump.
    enhancedClientAwareness: { transport: false },
    defaultOptions: {
      watchQuery: { fetchPolicy: 'cache-first' },
      query: { fetchPolicy: 'cache-first' },
    },
  })
}
