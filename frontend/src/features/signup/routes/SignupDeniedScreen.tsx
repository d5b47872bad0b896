// The signup-denied screen (product.md, "Sign-up and join"): the biller brings a refused payment back to
// /_signupdenial, with the reason.
import { useLocation } from 'react-router'
import { joinUrl } from '../../../app/routing'
import { useTranslation } from '../../../app/i18n'
import '../copy'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import './signup.css'

export function SignupDeniedScreen() {
  const { user, tenant } = useSession()
  const location = useLocation()
  const { t } = useTranslation()
  const reason = new URLSearchParams(location.search).get('reason') ?? user.welcome.reason ?? ''
  return (
    <Page title={t('signup.denied_title')}>
      <div role="alert" className="notice notice--error signup-denied">
        <p>{t('signup.denied')}</p>
        {reason ? <p data-testid="signup-denied-reason">{t('signup.denied_reason', { reason })}</p> : null}
      </div>
      <p>
        <a className="button button--accent" href={joinUrl(tenant)}>
          {t('signup.try_different_card')}
        </a>
      </p>
    </Page>
  )
}
