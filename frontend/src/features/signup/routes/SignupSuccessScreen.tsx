// The signup-success screen (product.md, "Sign-up and join"): the biller brings the new member back to
// /_signupsuccess, where account creation is polled, then the welcome page shows or, for a trial, the upgrade
// membership page (UpgradeMembershipScreen.tsx) follows.
import { useApolloClient, useQuery } from '@apollo/client/react'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { signInUrl, withQuery, type WelcomeData } from '../../../app/routing'
import type { SignupSuccessData } from './rules'
import { t, useTranslation } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { usePageData } from '../../../app/useScreenQuery'
import { useAdoptSession, useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { AccountCreationCheckDocument, WelcomePagePictureSetDocument } from '../../../gql/graphql'
import { USERNAME_PATH } from '../../account'
import { autologinHref, nextAccountCreationStep, signInWithAutologin } from '../accountCreation'
import './signup.css'

type CreationState =
  | { kind: 'creating' }
  | { kind: 'welcome'; autologinId: string | null; usernameLost: boolean }
  | { kind: 'timedOut'; message: string }
  | { kind: 'failed'; message: string }

/** Account creation polling (5 s × 24), then the welcome page, the upgrade page (trial) or signup denied. */
function useAccountCreation(welcome: WelcomeData): CreationState {
  const client = useApolloClient()
  const navigate = useNavigate()
  const { tenant } = useSession()
  const [state, setState] = useState<CreationState>({ kind: 'creating' })
  useEffect(() => {
    let cancelled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const ask = async (tries: number) => {
      try {
        const { data } = await client.query({
          query: AccountCreationCheckDocument,
          variables: { site: tenant.tenant, memberId: welcome.memberid ?? '', hashedMemberId: welcome.hashedMemberId ?? '' },
          fetchPolicy: 'network-only',
        })
        if (cancelled || !data) return
        const step = nextAccountCreationStep(data.welcomeCheck, tries)
        if (step.kind === 'wait') timer = setTimeout(() => void ask(step.tries + 1), step.afterMs)
        else if (step.kind === 'timedOut') setState({ kind: 'timedOut', message: step.error })
        // The token rides along: asking welcomeCheck again would issue another.
        else if (step.kind === 'upgrade') navigate('/_upgrademembership', { replace: true, state: { autologinId: step.autologinId } })
        else setState({ kind: 'welcome', autologinId: step.autologinId, usernameLost: step.usernameLost })
      } catch (error) {
        if (cancelled) return
        const refused = refusalOf(error)
        if (refused?.code === 'SIGNUP_DENIED') {
          const reason = typeof refused.extensions.reason === 'string' ? refused.extensions.reason : ''
          navigate(withQuery('/_signupdenial', { reason }), { replace: true })
        } else {
          setState({ kind: 'failed', message: refused?.message ?? t('signup.check_failed') })
        }
      }
    }
    void ask(1)
    return () => {
      cancelled = true
      if (timer) clearTimeout(timer)
    }
  }, [client, navigate, tenant.tenant, welcome.memberid, welcome.hashedMemberId])
  return state
}

function WelcomeBackground({ site }: { site: string }) {
  const { data } = useQuery(WelcomePagePictureSetDocument, { variables: { site } })
  const images = data?.getWelcomePagePictureSet?.images ?? []
  if (images.length === 0) return null
  return (
    <div className="welcome__backgrounds" aria-hidden="true" data-testid="welcome-backgrounds">
      {images.slice(0, 6).map((image, index) => (
        <Picture key={image.src} image={image} alt="" priority={index === 0} className="welcome__background" />
      ))}
    </div>
  )
}

/** The trouble after an approval: log in by hand, or ask support. */
function ManualLogin({ message }: { message: string }) {
  const { tenant } = useSession()
  const { t } = useTranslation()
  return (
    <div role="alert" className="notice notice--error">
      <p>{message}</p>
      <p>{t('signup.account_creation_login_error')}</p>
      <p>
        <a className="button" href={signInUrl(tenant, '/')}>
          {t('navigation.login')}
        </a>{' '}
        <a href={`${tenant.membersUrl.replace(/\/+$/, '')}/support`}>{t('common.contact_support')}</a>
      </p>
    </div>
  )
}

/** /_signup-extern/{biller} shares this screen: its welcome data is the biller's answer (`data.data`). */
type SignupSuccessPage = SignupSuccessData | { biller: string; signup: WelcomeData | null }

export function SignupSuccessScreen() {
  const page = usePageData<SignupSuccessPage>()
  const { user, tenant } = useSession()
  const { t } = useTranslation()
  const welcome = 'signup' in page ? { ...user.welcome, ...(page.signup ?? {}) } : user.welcome
  const pictureSetSite = 'pictureSetSite' in page ? page.pictureSetSite : tenant.tenant.toUpperCase()
  const isMultisite = 'isMultisite' in page ? page.isMultisite : false
  const state = useAccountCreation(welcome)
  const username = welcome.username ?? ''
  const adopt = useAdoptSession()
  const autologinId = state.kind === 'welcome' ? state.autologinId : null
  // Signed in as soon as the account exists, so the header tells the truth on this page too.
  useEffect(() => {
    if (!autologinId || user.isAuthenticated) return
    let cancelled = false
    void signInWithAutologin(autologinId).then((fresh) => {
      if (fresh && !cancelled) adopt(fresh)
    })
    return () => {
      cancelled = true
    }
  }, [adopt, autologinId, user.isAuthenticated])
  return (
    <Page title={t('signup.welcome_title')}>
      <div className="welcome">
        <WelcomeBackground site={pictureSetSite} />
        <div className="welcome__panel">
          {state.kind === 'creating' ? (
            <p role="status" aria-busy="true">
              {t('signup.creating_account')}
            </p>
          ) : null}
          {state.kind === 'welcome' && state.usernameLost ? (
            <UsernameLost username={username} autologinId={state.autologinId} signedIn={user.isAuthenticated} />
          ) : null}
          {state.kind === 'welcome' && !state.usernameLost ? (
            <>
              <p className="welcome__greeting">
                {t(isMultisite ? 'signup.welcome_multisite' : 'signup.welcome', { username, site: tenant.site })}
              </p>
              {user.isAuthenticated ? (
                <a className="button button--accent" href="/">
                  {t('signup.start_watching')}
                </a>
              ) : state.autologinId ? (
                <a className="button button--accent" href={autologinHref(state.autologinId)}>
                  {t('signup.start_watching')}
                </a>
              ) : (
                <a className="button button--accent" href={signInUrl(tenant, '/')}>
                  {t('signup.log_in_to_start')}
                </a>
              )}
            </>
          ) : null}
          {state.kind === 'timedOut' || state.kind === 'failed' ? <ManualLogin message={state.message} /> : null}
        </div>
      </div>
    </Page>
  )
}

/**
 * The join race: the username was taken while the payment went through. The membership is active and the
 * member is being signed in; they choose another username on the username screen, which says the same.
 */
function UsernameLost({ username, autologinId, signedIn }: { username: string; autologinId: string | null; signedIn: boolean }) {
  const { t } = useTranslation()
  const { tenant } = useSession()
  const target = withQuery(USERNAME_PATH, { taken: username })
  return (
    <>
      <p role="alert" className="notice" data-testid="username-lost">
        {t('signup.username_lost', { username, site: tenant.site })}
      </p>
      {signedIn ? (
        <a className="button button--accent" href={target}>
          {t('signup.choose_username')}
        </a>
      ) : autologinId ? (
        <p role="status" aria-busy="true">
          {t('signup.signing_in')}
        </p>
      ) : (
        <a className="button button--accent" href={signInUrl(tenant, target)}>
          {t('signup.log_in_to_choose_username')}
        </a>
      )}
    </>
  )
}
