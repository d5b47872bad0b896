// The join and signup-result screens (product.md, "Sign-up and join"). The join screen lives on the members host
// (/joinnow with ref, elm and nats, which name where the visitor came from): it lists the brand's join options, sends
// the form to `join` (the server checks it, with the messages of product.md, "Sign-up and join") and takes the browser to the biller's payment
// page. The biller brings it back to /_signupsuccess (account creation polling, then the welcome page or, for a trial,
// the upgrade membership page) or /_signupdenial (the reason).
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react'
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { joinUrl, signInUrl, withQuery, type WelcomeData } from '../../../app/routing'
import type { SignupSuccessData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { t, useTranslation } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../../../app/i18n/copy/signup'
import { usePageData, useScreenQuery } from '../../../app/useScreenQuery'
import { useAdoptSession, useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import {
  AccountCreationCheckDocument,
  JoinDocument,
  JoinOptionsDocument,
  TrialUpgradeWelcomePageDocument,
  WelcomePagePictureSetDocument,
  type JoinOptionsQuery,
} from '../../../gql/graphql'
import { newIdempotencyKey } from '../../subscription'
import { USERNAME_PATH } from '../../account'
import { autologinHref, nextAccountCreationStep, signInWithAutologin } from '../accountCreation'
import { documentCookies, joinFormImageVariant, storedAffiliateCodes } from '../affiliate'
import { joinTracking } from '../joinTracking'
import { money, optionPrice } from '../prices'
import './signup.css'

type JoinOption = JoinOptionsQuery['joinOptions']['joinOptions'][number]

const joinOptionsQuery = () => ({ query: JoinOptionsDocument, variables: {} })

function JoinForm({ options, site }: { options: JoinOption[]; site: string }) {
  const ids = { email: useId(), username: useId(), password: useId() }
  const location = useLocation()
  const { tenant } = useSession()
  const [optionId, setOptionId] = useState(options[0]?.id ?? 0)
  const option = options.find((o) => o.id === optionId) ?? options[0]
  const [chosenPayment, setPaymentOption] = useState(option?.paymentOptions[0] ?? '')
  // A payment method the newly chosen option does not offer falls back to its first.
  const paymentOption = option?.paymentOptions.includes(chosenPayment) ? chosenPayment : (option?.paymentOptions[0] ?? '')
  const [email, setEmail] = useState('')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null)
  const [join, { loading }] = useMutation(JoinDocument)
  const linked = joinTracking(new URLSearchParams(location.search))
  // A `ujc` landing on the members host itself is kept in this host's cookies; the join link's codes come first.
  const landed = storedAffiliateCodes(documentCookies())
  const tracking = {
    ...linked,
    affCodeSingle: linked.affCodeSingle ?? landed.affCodeSingle,
    affCodeMulti: linked.affCodeMulti ?? landed.affCodeMulti,
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (loading) return
    setRefusal(null)
    try {
      const { data } = await join({
        variables: {
          input: { email, username, password, joinOptionId: optionId, paymentOption, ...tracking },
        },
      })
      if (data) window.location.assign(data.join.location)
    } catch (error) {
      const refused = refusalOf(error)
      setRefusal({
        code: refused?.code ?? 'UNKNOWN',
        message: refused?.message ?? t('signup.start_failed'),
      })
    }
  }

  return (
    <form className="join__form" onSubmit={submit} aria-busy={loading} noValidate>
      <fieldset className="join__options-list">
        <legend>{t('purchase_membership_modal.choose')}</legend>
        {options.map((o) => (
          <label key={o.id} className="join__option">
            <input
              type="radio"
              name="joinOption"
              value={o.id}
              checked={o.id === optionId}
              onChange={() => setOptionId(o.id)}
            />
            <span className="join__option-title">{o.title}</span>
            {o.site !== site ? <span className="join__option-sites">{t('signup.every_site')}</span> : null}
            <span className="join__option-price">{optionPrice(o)}</span>
          </label>
        ))}
      </fieldset>
      {option && option.paymentOptions.length > 1 ? (
        <fieldset className="join__payment">
          <legend>{t('signup.payment_method')}</legend>
          {option.paymentOptions.map((biller) => (
            <label key={biller} className="join__option">
              <input
                type="radio"
                name="paymentOption"
                value={biller}
                checked={biller === paymentOption}
                onChange={() => setPaymentOption(biller)}
              />
              {biller}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="form-field">
        <label htmlFor={ids.email}>{t('account.email')}</label>
        <input id={ids.email} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="form-field">
        <label htmlFor={ids.username}>{t('account.username_label')}</label>
        <input id={ids.username} autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
      </div>
      <div className="form-field">
        <label htmlFor={ids.password}>{t('account.password_label')}</label>
        <input
          id={ids.password}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      {refusal ? (
        <p role="alert" className="notice notice--error">
          {refusal.message}{' '}
          {refusal.code === 'ACCOUNT_EXISTS_LOG_IN' ? (
            <a href={signInUrl(tenant, '/')}>{t('navigation.login')}</a>
          ) : null}
        </p>
      ) : null}
      <button type="submit" className="button button--accent" disabled={loading}>
        {loading ? t('signup.please_wait') : t('signup.continue_to_payment')}
      </button>
    </form>
  )
}

function JoinNowView() {
  const { tenant } = useSession()
  const location = useLocation()
  const { result } = useScreenQuery(joinOptionsQuery)
  const options = result.joinOptions.joinOptions
  const imageTest = tenant.features.joinFormImageTest?.enabled === true
  const variant = useMemo(() => joinFormImageVariant(documentCookies(), imageTest), [imageTest])
  // Support hears where the visitor came from, as the join form would have.
  const { ref, elm, nats } = joinTracking(new URLSearchParams(location.search))
  const tracking = Object.fromEntries(
    Object.entries({ ref, elm, nats }).filter((entry): entry is [string, string] => entry[1] !== null),
  )
  return (
    <Page title={t('join.site', { site: tenant.site })}>
      <div className="join">
        {variant ? (
          <img
            className="join__image"
            data-variant={variant}
            src={joinImageSrc(tenant.tenant, variant)}
            width={800}
            height={300}
            alt=""
          />
        ) : null}
        <ul className="join__benefits">
          <li>{t('signup.benefits.full_videos')}</li>
          <li>{t('signup.benefits.new_releases')}</li>
          <li>{t('signup.benefits.pictures')}</li>
          <li>{t('signup.benefits.cancel')}</li>
        </ul>
        <section className="join__options" aria-labelledby="join-options-heading">
          <h2 id="join-options-heading">{t('signup.options_heading')}</h2>
          {options.length > 0 ? (
            <JoinForm options={options} site={result.joinOptions.site} />
          ) : (
            <>
              <p role="status">
                {t('signup.options_unavailable')}
              </p>
              <p>
                <a className="button button--accent" href={withQuery(`${tenant.membersUrl.replace(/\/+$/, '')}/support`, tracking)}>
                  {t('common.contact_support')}
                </a>
              </p>
            </>
          )}
        </section>
        <p>
          {t('signup.already_member')}{' '}
          <a href={signInUrl(tenant, `${location.pathname}${location.search}`)}>{t('navigation.login')}</a>
        </p>
      </div>
    </Page>
  )
}

export const JoinNowScreen = withScreenQuery(JoinNowView, joinOptionsQuery)

/** The join form's picture for an A/B variant. */
export function joinImageSrc(tenant: string, variant: string): string {
  return `/media/placeholder/join/${encodeURIComponent(tenant)}-${variant}.svg?w=800&h=300&t=Join`
}

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

interface UpgradeMembershipData {
  backgroundImage: { size: string; width: number; height: number }
}

/** The upgrade page's background, drawn for the viewport's size (1400×1024, 1045×1024, 320×770). */
export function upgradeBackgroundSrc(tenant: string, image: UpgradeMembershipData['backgroundImage']): string {
  return `/media/placeholder/upgrade/${encodeURIComponent(tenant)}-${image.size}.svg?w=${image.width}&h=${image.height}&t=Upgrade`
}

function UpgradeMembershipView() {
  const { page, result } = useScreenQuery<JoinOptionsQuery, UpgradeMembershipData>(joinOptionsQuery)
  const { user, tenant } = useSession()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [consent, setConsent] = useState(false)
  const [failed, setFailed] = useState(false)
  const [idempotencyKey] = useState(newIdempotencyKey)
  const [upgrade, { loading }] = useMutation(TrialUpgradeWelcomePageDocument)
  const client = useApolloClient()
  const location = useLocation()
  // From the signup-success page's check; a fresh load of this page asks welcomeCheck itself.
  const handedOver = (location.state as { autologinId?: string | null } | null)?.autologinId ?? null
  const [autologinId, setAutologinId] = useState<string | null>(handedOver)
  const price = result.joinOptions.trialUpgrade
  const welcome = user.welcome

  useEffect(() => {
    if (autologinId || !welcome.memberid || !welcome.hashedMemberId) return
    let cancelled = false
    client
      .query({
        query: AccountCreationCheckDocument,
        variables: { site: tenant.tenant, memberId: welcome.memberid, hashedMemberId: welcome.hashedMemberId },
        fetchPolicy: 'network-only',
      })
      .then(({ data }) => {
        if (!cancelled) setAutologinId(data?.welcomeCheck.autologinId ?? null)
      })
      .catch(() => undefined)
    return () => {
      cancelled = true
    }
  }, [autologinId, client, tenant.tenant, welcome.memberid, welcome.hashedMemberId])

  async function buy(event: FormEvent) {
    event.preventDefault()
    setFailed(false)
    try {
      const { data } = await upgrade({
        variables: {
          memberId: welcome.memberid ?? '',
          hashedMemberId: welcome.hashedMemberId ?? '',
          consent,
          idempotencyKey,
        },
      })
      const answer = data?.internalUpsellTrialUpgradeWelcomePage
      if (answer?.location) window.location.assign(answer.location)
      else navigate(answer?.success ? '/_upgradesuccess' : '/_upgradedenial')
    } catch {
      setFailed(true)
    }
  }

  const charge = money(price.price, price.currency)
  return (
    <Page title={t('signup.upgrade.title')}>
      <div
        className="upgrade-membership"
        data-testid="upgrade-background"
        data-size={page.backgroundImage.size}
        style={{ backgroundImage: `url("${upgradeBackgroundSrc(tenant.tenant, page.backgroundImage)}")` }}
      >
        <form className="upgrade-membership__panel" onSubmit={buy} aria-busy={loading}>
          <p>{t('signup.upgrade.intro')}</p>
          <p className="upgrade-membership__price">
            {t('signup.upgrade.price', { charge, days: price.rebillPeriodDays })}
          </p>
          <label className="upgrade-membership__consent">
            <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} />{' '}
            {t('signup.upgrade.consent', { charge })}
          </label>
          {failed ? (
            <p role="alert" className="notice notice--error">
              {t('purchase_membership_modal.payment_failed')}
            </p>
          ) : null}
          <button type="submit" className="button button--accent" disabled={!consent || loading}>
            {t('purchase_membership_modal.upgrade_now')}
          </button>
          <p>
            <a href={autologinId ? autologinHref(autologinId) : signInUrl(tenant, '/')}>
              {t('signup.upgrade.continue_trial')}
            </a>
          </p>
        </form>
      </div>
    </Page>
  )
}

export const UpgradeMembershipScreen = withScreenQuery(UpgradeMembershipView, joinOptionsQuery)

export function ParentRedirectScreen() {
  return <Page title={t('signup.redirecting')} />
}
