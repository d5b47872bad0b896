// Errors go to an error-reporting service when one is enabled, otherwise they are logged (§8).
// No reporting service is configured yet, so no error-report id exists and "Fill a report" stays hidden.

export interface ErrorReporting {
  /** Reports the error; answers the error-report id when a reporting service took it. */
  report(error: unknown): string | undefined
  openReportDialog(errorReportId: string): void
}

export const loggingOnly: ErrorReporting = {
  report(error) {
    console.warn('page error', error)
    return undefined
  },
  openReportDialog() {},
}
