// The shared loader error handler (spec README): 401 → members login with uri; 404 → e404;
// a redirect → follow it; anything else → e500, with an error-report id when reporting is on.
import { signInUrl, currentPathAndQuery } from './access'
import { MESSAGES } from './constants'
import type { RouteInput } from './context'
import { failure, notFound, redirect, type StopOutcome } from './outcome'

/** A failed HTTP answer as loaders see it. */
export class HttpError extends Error {
  readonly status: number
  readonly location: string | undefined

  constructor(status: number, message: string, location?: string) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.location = location
  }
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

function locationOf(error: unknown): string | undefined {
  const location = (error as { location?: unknown } | null)?.location
  return typeof location === 'string' && location !== '' ? location : undefined
}

/** A refusal of the user's access (403, a FORBIDDEN answer): the page is locked, never the error screen. */
export function isAccessDenied(error: unknown): boolean {
  return statusOf(error) === 403
}

/** Reports the error when reporting is on and answers the report id; undefined when only logged. */
export type ErrorReporter = (error: unknown) => string | undefined

export function loaderErrorOutcome(
  input: Pick<RouteInput, 'pathname' | 'query' | 'tenant'>,
  error: unknown,
  report?: ErrorReporter,
): StopOutcome {
  const status = statusOf(error)
  if (status === 401) return redirect(signInUrl(input.tenant, currentPathAndQuery(input)))
  if (status === 404) return notFound
  const location = locationOf(error)
  if ((status === 301 || status === 302) && location !== undefined) return redirect(location, status)
  const message = error instanceof Error && error.message !== '' ? error.message : MESSAGES.genericError
  return failure(message, report?.(error))
}
