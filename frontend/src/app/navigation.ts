// Turning a rule's outcome into what react-router's loaders answer.
import { data, redirect, redirectDocument } from 'react-router'
import type { RouteOutcome } from './routing'

/** An error outcome as thrown to the error boundary. */
export class RouteFailure extends Error {
  readonly errorReportId: string | undefined

  constructor(message: string, errorReportId?: string) {
    super(message)
    this.name = 'RouteFailure'
    this.errorReportId = errorReportId
  }
}

let fullPageLoadsOnly = false

/** After an unrecoverable error, any navigation becomes a full page load (product.md, "Route errors and the error screen"). */
export function requireFullPageLoads(): void {
  fullPageLoadsOnly = true
}

export function fullPageLoadResponse(url: string): Response | undefined {
  return fullPageLoadsOnly ? redirectDocument(url) : undefined
}

/** Whether a location is served by the gateway itself rather than by the app's routes. */
export function isServerPage(location: string): boolean {
  const { pathname } = new URL(location, window.location.origin)
  return pathname === '/oidc' || pathname.startsWith('/oidc/')
}

/** A page outcome is the loader's data; everything else is thrown for the router to act on. */
export function settle<D>(outcome: RouteOutcome<D>): RouteOutcome<D> & { kind: 'page' } {
  switch (outcome.kind) {
    case 'page':
      return outcome
    case 'redirect':
      // The members login (/oidc/...) is the gateway's page, not a route of the app: a full page load, even on the
      // members host where it is the same origin (product.md, "Route errors and the error screen").
      throw isServerPage(outcome.location)
        ? redirectDocument(outcome.location, outcome.status)
        : redirect(outcome.location, outcome.status)
    case 'notFound':
      throw data('Not Found', { status: 404 })
    case 'error':
      throw new RouteFailure(outcome.message, outcome.errorReportId)
  }
}
