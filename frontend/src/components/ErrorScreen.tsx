import { useDocumentHead } from '../app/head/useDocumentHead'
import { t } from '../app/i18n'

export const ERROR_SCREEN_TEXT = t('error_page.text')

export interface ErrorScreenProps {
  /** Present when the error went to the error-reporting service. */
  errorReportId?: string
  onGoHome: () => void
  onFillReport?: (errorReportId: string) => void
}

/** The generic error screen (product.md, "Route errors and the error screen"), the e500 page, inside the brand's shell (app/router.tsx): "Go Home", and "Fill a report" only when an error-report id exists. */
export function ErrorScreen({ errorReportId, onGoHome, onFillReport }: ErrorScreenProps) {
  useDocumentHead(500, undefined, t('error_page.title_500'))
  return (
    <main className="page error-page" role="alert">
      <p className="error-page__text">{ERROR_SCREEN_TEXT}</p>
      <p className="error-page__actions">
        <button type="button" className="button button--accent" onClick={onGoHome}>
          {t('common.go_home')}
        </button>
        {errorReportId ? (
          <button type="button" className="button" onClick={() => onFillReport?.(errorReportId)}>
            {t('common.fill_a_report')}
          </button>
        ) : null}
      </p>
    </main>
  )
}
