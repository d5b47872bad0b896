import { useEffect } from 'react'
import { Link } from 'react-router'
import { t } from '../app/i18n'

export const NOT_FOUND_TITLE = t('error_page.title_404')

/** The e404 page. */
export function NotFoundPage() {
  useEffect(() => {
    document.title = NOT_FOUND_TITLE
  }, [])
  return (
    <main>
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>{t('error_page.not_found_text')}</p>
      <Link to="/">{t('common.go_home')}</Link>
    </main>
  )
}
