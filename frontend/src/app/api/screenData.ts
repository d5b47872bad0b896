// The loaders' side of a screen's query: run it before the page shows, its GraphQL errors as HTTP statuses for the
// shared loader error handler (NOT_FOUND → e404, UNAUTHENTICATED → members login, others → e500).
import { CombinedGraphQLErrors, type ApolloClient } from '@apollo/client'
import { HttpError } from '../routing'
import type { DataScreen } from '../screenQuery'
import type { RoutingSession } from '../session/bootstrap'

const STATUS_BY_CODE: Readonly<Record<string, number>> = { NOT_FOUND: 404, UNAUTHENTICATED: 401 }

/** A GraphQL error whose code has an HTTP meaning, as an HttpError; anything else unchanged. */
export function asHttpError(error: unknown): unknown {
  if (!CombinedGraphQLErrors.is(error)) return error
  for (const graphQLError of error.errors) {
    const code = graphQLError.extensions?.code
    const status = typeof code === 'string' ? STATUS_BY_CODE[code] : undefined
    if (status !== undefined) return new HttpError(status, graphQLError.message)
  }
  return error
}

export type ScreenDataPreloader = (screen: DataScreen, data: unknown, request: Request) => Promise<void>

export function screenDataPreloader(client: ApolloClient, session: RoutingSession): ScreenDataPreloader {
  return async (screen, data, request) => {
    const query = screen.screenQuery?.(data, session, new URL(request.url))
    if (!query) return
    try {
      const fetchOptions = { signal: request.signal }
      await client.query({ query: query.query, variables: query.variables, context: { fetchOptions } })
    } catch (error) {
      throw asHttpError(error)
    }
  }
}
