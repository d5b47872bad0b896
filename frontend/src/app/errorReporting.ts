// Errors go to an error-reporting service when one is enabled, otherwise they are logged (product.md, "Route errors and the error screen"). The service is the
// gateway (POST /api/analytics/events, event "error"), which counts each error and logs it with the request's
// correlation id; the page chooses that id, so it is the error-report id the error screen's "Fill a report" carries.
// With reporting off (the gateway's PAYSITE_ERROR_REPORTING, told to the page in its bootstrap) errors go to the
// console and no report id exists.
import { ANALYTICS_PATH } from './analytics'
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from './api/correlation'
import { analyticsLabel, type ScreenId } from './routing'

export interface ErrorReporting {
  /**
   * Reports the error of the page at `path` (default: the address shown); answers the error-report id when a
   * reporting service took it.
   */
  report(error: unknown, path?: string): string | undefined
  openReportDialog(errorReportId: string): void
}

export const loggingOnly: ErrorReporting = {
  report(error) {
    console.warn('page error', error)
    return undefined
  },
  openReportDialog() {},
}

/** What the gateway keeps of an error: its message (with a status text), its code if any, the page's path. */
export interface ErrorReport {
  event: 'error'
  label: string
  message: string
  code?: string
  path: string
}

const MAX_MESSAGE = 500
const MAX_PATH = 512

const printable = (text: string, max: number) =>
  text
    // eslint-disable-next-line no-control-regex -- control characters are what this strips
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max)

export function errorReport(error: unknown, path: string, screen: ScreenId = 'e500'): ErrorReport {
  const message =
    printable(error instanceof Error ? error.message : typeof error === 'string' ? error : String(error), MAX_MESSAGE) ||
    'Unknown error'
  const code = (error as { code?: unknown } | null)?.code
  const report: ErrorReport = { event: 'error', label: analyticsLabel(screen), message, path: printable(path, MAX_PATH) || '/' }
  if (typeof code === 'string' && /^[A-Za-z0-9_.:-]{1,128}$/.test(code)) report.code = code
  return report
}

export interface GatewayReportingDeps {
  fetch?: typeof fetch
  newId?: () => string
  currentPath?: () => string
  /** Where "Fill a report" goes: the support page, told the report id. */
  goTo?: (href: string) => void
}

/** Reporting on: each error goes to the gateway under a report id of its own, and is kept in the console too. */
export function gatewayReporting({
  fetch: fetchImpl = (input, init) => fetch(input, init),
  newId = newCorrelationId,
  currentPath = () => window.location.pathname,
  goTo = (href) => window.location.assign(href),
}: GatewayReportingDeps = {}): ErrorReporting {
  return {
    report(error, path) {
      const id = newId()
      console.warn('page error', id, error)
      void fetchImpl(ANALYTICS_PATH, {
        method: 'POST',
        keepalive: true,
        credentials: 'include',
        headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1', [CORRELATION_HEADER]: id },
        body: JSON.stringify(errorReport(error, path ?? currentPath())),
      }).catch(() => undefined)
      return id
    },
    openReportDialog(errorReportId) {
      goTo(`/support?errorReportId=${encodeURIComponent(errorReportId)}`)
    },
  }
}

/** The reporting the gateway says is on or off for this page. */
export function errorReportingFor(enabled: boolean, deps?: GatewayReportingDeps): ErrorReporting {
  return enabled ? gatewayReporting(deps) : loggingOnly
}
