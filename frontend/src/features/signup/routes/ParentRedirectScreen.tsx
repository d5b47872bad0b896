// /parent-redirect: the redirect page (product.md, "Sign-up and join").
import { t } from '../../../app/i18n'
import '../copy'
import { Page } from '../../../components/Page'

export function ParentRedirectScreen() {
  return <Page title={t('signup.redirecting')} />
}
