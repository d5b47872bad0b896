// Every call to the gateway carries a fresh x-correlation-id (account-payments-gems.md §7), so one user action
// can be followed through the gateway, the services and the broker.

export const CORRELATION_HEADER = 'x-correlation-id'
/** The gateway refuses GraphQL requests without it (docs/decisions.md, GraphQL: CSRF). */
export const CSRF_HEADER = 'x-paysite-csrf'

export function newCorrelationId(): string {
  return globalThis.crypto.randomUUID()
}
