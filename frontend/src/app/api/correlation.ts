// Every call to the gateway carries a fresh x-correlation-id (product.md, "Calls and sessions"), so one user action
// can be followed through the gateway, the services and the broker.

export const CORRELATION_HEADER = 'x-correlation-id'
/** The gateway refuses GraphQL requests without it (docs/decisions/graphql/only-post-only-json-only-x.md). */
export const CSRF_HEADER = 'x-paysite-csrf'

export function newCorrelationId(): string {
  return globalThis.crypto.randomUUID()
}
