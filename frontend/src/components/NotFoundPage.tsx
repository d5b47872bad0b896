import { Link } from 'react-router'
import { useDocumentHead } from '../app/head/useDocumentHead'
import { t } from '../app/i18n'

export const NOT_FOUND_TITLE = t('error_page.title_404')

/** The e404 page, inside the brand's shell (app/router.tsx). */
export function NotFoundPage() {
  useDocumentHead(404, undefined, NOT_FOUND_TITLE)
  return (
    <main className="page error-page">
      <h1 className="page__title">{NOT_FOUND_TITLE}</h1>
      <p className="error-page__text">{t('error_page.not_found_text')}</p>
      <p className="error-page__actions">
        <Link className="button button--accent" to="/">
          {t('common.go_home')}
        </Link>
      </p>
    </main>
  )
}
