import { useEffect } from 'react'
import { t } from '../app/i18n'

export const ERROR_SCREEN_TEXT = t('error_page.text')

export interface ErrorScreenProps {
  /** Present when the error went to the error-reporting service. */
  errorReportId?: string
  onGoHome: () => void
  onFillReport?: (errorReportId: string) => void
}

/** The generic error screen (§2.2), the e500 page: "Go Home", and "Fill a report" only when an error-report id exists. */
export function ErrorScreen({ errorReportId, onGoHome, onFillReport }: ErrorScreenProps) {
  useEffect(() => {
    document.title = t('error_page.title_500')
  }, [])
  return (
    <main role="alert">
      <p>{ERROR_SCREEN_TEXT}</p>
      <button type="button" onClick={onGoHome}>
        {t('common.go_home')}
      </button>
      {errorReportId ? (
        <button type="button" onClick={() => onFillReport?.(errorReportId)}>
          {t('common.fill_a_report')}
        </button>
      ) : null}
    </main>
  )
}
