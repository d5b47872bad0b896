// The join screen (product.md, "Sign-up and join"). It lives on the members host (/joinnow with ref, elm and nats,
// which name where the visitor came from): it lists the brand's join options, sends the form to `join` (the server
// checks it, with the messages of product.md, "Sign-up and join") and takes the browser to the biller's payment page.
// The biller brings it back to /_signupsuccess (SignupSuccessScreen.tsx) or /_signupdenial (SignupDeniedScreen.tsx).
import { useMutation } from '@apollo/client/react'
import { useId, useMemo, useState, type FormEvent } from 'react'
import { useLocation } from 'react-router'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { signInUrl, withQuery } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { JoinDocument, type JoinOptionsQuery } from '../../../gql/graphql'
import { documentCookies, joinFormImageVariant, storedAffiliateCodes } from '../affiliate'
import { joinTracking } from '../joinTracking'
import { optionPrice } from '../prices'
import { joinOptionsQuery } from './joinOptionsQuery'
import './signup.css'

type JoinOption = JoinOptionsQuery['joinOptions']['joinOptions'][number]

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
