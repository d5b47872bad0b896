export const ERROR_SCREEN_TEXT = 'Something went wrong! We are working to fix this as soon as possible.'

export interface ErrorScreenProps {
  /** Present when the error went to the error-reporting service. */
  errorReportId?: string
  onGoHome: () => void
  onFillReport?: (errorReportId: string) => void
}

/** The generic error screen (§2.2): "Go Home", and "Fill a report" only when an error-report id exists. */
export function ErrorScreen({ errorReportId, onGoHome, onFillReport }: ErrorScreenProps) {
  return (
    <main role="alert">
      <p>{ERROR_SCREEN_TEXT}</p>
      <button type="button" onClick={onGoHome}>
        Go Home
      </button>
      {errorReportId ? (
        <button type="button" onClick={() => onFillReport?.(errorReportId)}>
          Fill a report
        </button>
      ) : null}
    </main>
  )
}
