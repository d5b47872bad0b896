// The account's modals: EmailConsent (guest and tandem variants), ConvertVipUser (the VIP form), TandemAccountCreation
// and CamsConsent (product.md, "Account and profile").
import { useApolloClient, useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { refusalOf } from '../../app/api/graphqlErrors'
import { useFlash } from '../../app/shell/Flash'
import type { ModalBodyProps } from '../../app/shell/modalIds'
import { AccountPageDocument, CreateTandemChildAccountDocument, GiveCamsConsentDocument } from '../../gql/graphql'
import { sendEmailConsent, sendVipCredentials } from './api/rest'
import {
  emailConsentText,
  emailFieldError,
  isValidEmail,
  isValidPassword,
  isValidUsername,
  normalizeEmail,
  PASSWORD_RULE_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  INVALID_USERNAME_MESSAGE,
  vipEmailError,
  vipErrorMessage,
  vipFormErrors,
  type EmailConsentVariant,
} from './validation'
import { t, type TranslationKey } from '../../app/i18n'
import '../../app/i18n/copy/account'
import '../../app/i18n/copy/shared'
import { translateRich } from '../../app/i18n/rich'

export function EmailConsent({ props, close }: ModalBodyProps<'EmailConsent'>) {
  const variant: EmailConsentVariant = props.variant ?? 'member'
  const flashes = useFlash()
  const client = useApolloClient()
  const [busy, setBusy] = useState(false)
  const text = emailConsentText(variant)

  async function answer(consent: boolean) {
    if (busy) return
    setBusy(true)
    const ok = await sendEmailConsent(consent, `<p>${text}</p>`)
    setBusy(false)
    if (ok) {
      flashes.add({ type: 'success', translation: 'account.flash_email_consent_updated' })
      await client.refetchQueries({ include: 'active' }).catch(() => undefined)
      close()
    } else {
      flashes.add({ type: 'error', translation: 'account.flash_unknown_error' })
    }
  }

  return (
    <div className="email-consent" data-variant={variant}>
      <p>{text}</p>
      <p className="muted">
        {translateRich('account.legal.read', {
          terms: <a href="/terms">{t('account.legal.terms')}</a>,
          privacy: <a href="/privacy">{t('account.legal.privacy')}</a>,
        })}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={() => answer(true)} disabled={busy}>
          {t('account.email_consent.agree')}
        </button>
        <button type="button" className="button" onClick={() => answer(false)} disabled={busy}>
          {t('account.email_consent.decline')}
        </button>
      </div>
    </div>
  )
}

export function ConvertVipUser({ props }: ModalBodyProps<'ConvertVipUser'>) {
  const emailId = useId()
  const passwordId = useId()
  const reload = props.onConverted ?? (() => window.location.reload())
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [showPassword, setShowPassword] = useState(false)
  const [emailError, setEmailError] = useState<string | null>(null)
  const [passwordError, setPasswordError] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ message: string; support: boolean } | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event?: FormEvent) {
    event?.preventDefault()
    if (busy) return
    const errors = vipFormErrors(email, password)
    setEmailError(errors.email)
    setPasswordError(errors.password)
    if (errors.email || errors.password) return
    setBusy(true)
    setFailure(null)
    const answer = await sendVipCredentials(normalizeEmail(email), password)
    if (answer.ok) {
      reload()
      return
    }
    setFailure(vipErrorMessage(answer.code))
    setBusy(false)
  }

  return (
    <form className="vip-form" onSubmit={submit} noValidate aria-busy={busy}>
      <p className="vip-form__subtitle">{t('vip_modal.subtitle')}</p>
      <p>{t('vip_modal.note')}</p>
      <div className="form-field">
        <label htmlFor={emailId}>{t('account.email')}</label>
        <input
          id={emailId}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          onBlur={() => setEmailError(email === '' ? null : vipEmailError(email))}
          aria-invalid={emailError !== null}
          aria-describedby={emailError ? `${emailId}-error` : undefined}
        />
        {emailError ? (
          <span id={`${emailId}-error`} className="form-field__error">
            {emailError}
          </span>
        ) : null}
      </div>
      <div className="form-field">
        <label htmlFor={passwordId}>{t('account.password_label')}</label>
        <input
          id={passwordId}
          type={showPassword ? 'text' : 'password'}
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={passwordError !== null}
          aria-describedby={passwordError ? `${passwordId}-error` : undefined}
        />
        <span className="form-field__tools">
          <button type="button" className="button" onClick={() => setShowPassword((shown) => !shown)}>
            {showPassword ? t('account.field.hide') : t('account.field.show')}
          </button>{' '}
          <button type="button" className="button" onClick={() => setPassword('')}>
            {t('account.field.clear')}
          </button>
        </span>
        {passwordError ? (
          <span id={`${passwordId}-error`} className="form-field__error">
            {passwordError}
          </span>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="notice notice--error">
          {failure.message}
          {failure.support ? (
            <>
              {' '}
              <a href="/support">{t('common.contact_support')}</a>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="submit" className="button button--accent" disabled={busy}>
          {busy ? t('common.saving') : t('common.continue')}
        </button>
      </div>
      <p className="muted">
        {translateRich('account.legal.agree', {
          terms: <a href="/terms">{t('account.legal.terms')}</a>,
          privacy: <a href="/privacy">{t('account.legal.privacy')}</a>,
        })}
      </p>
    </form>
  )
}

const TANDEM_MESSAGES: Readonly<Record<string, TranslationKey>> = {
  TANDEM_CHILD_EXISTS: 'account.tandem.TANDEM_CHILD_EXISTS',
  TANDEM_PARENT_INACTIVE: 'account.tandem.TANDEM_PARENT_INACTIVE',
  EMAIL_ALREADY_EXISTS: 'vip_modal.EMAIL_ALREADY_EXISTS',
  USERNAME_TAKEN: 'account.username.taken',
  FORBIDDEN: 'account.tandem.FORBIDDEN',
}

export function TandemAccountCreation({ props, close }: ModalBodyProps<'TandemAccountCreation'>) {
  const id = useId()
  const flashes = useFlash()
  const { onCreated } = props
  // The answer is the new account's profile; the parent's account page asks for its own again.
  const [create, { loading }] = useMutation(CreateTandemChildAccountDocument, {
    refetchQueries: [AccountPageDocument],
    awaitRefetchQueries: true,
  })
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [username, setUsername] = useState('')
  const [errors, setErrors] = useState<{ email?: string; password?: string; username?: string }>({})
  const [failure, setFailure] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (loading) return
    const normalized = normalizeEmail(email)
    const found = {
      ...(isValidEmail(normalized) ? {} : { email: INVALID_EMAIL_MESSAGE }),
      ...(isValidPassword(password) ? {} : { password: PASSWORD_RULE_MESSAGE }),
      ...(username === '' || isValidUsername(username) ? {} : { username: INVALID_USERNAME_MESSAGE }),
    }
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setFailure(null)
    try {
      await create({ variables: { email: normalized, password, username: username || null } })
      flashes.add({ type: 'success', message: t('account.tandem.created') })
      onCreated?.()
      close()
    } catch (error) {
      const refusal = refusalOf(error)
      const known = refusal ? TANDEM_MESSAGES[refusal.code] : undefined
      setFailure(known ? t(known) : (refusal?.message ?? t('common.try_again')))
    }
  }

  const field = ({ name, label, type, value, set, extra }: {
    name: 'email' | 'password' | 'username'
    label: string
    type: string
    value: string
    set: (v: string) => void
    extra?: { autoComplete?: string; onBlur?: () => void }
  }) => (
    <div className="form-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        value={value}
        onChange={(event) => set(event.target.value)}
        aria-invalid={errors[name] !== undefined}
        {...extra}
      />
      {errors[name] ? <span className="form-field__error">{errors[name]}</span> : null}
    </div>
  )

  return (
    <form className="tandem-form" onSubmit={submit} noValidate aria-busy={loading}>
      <p>
        {t('account.tandem.intro')}
      </p>
      {field({
        name: 'email',
        label: t('account.tandem.email'),
        type: 'email',
        value: email,
        set: setEmail,
        extra: {
          autoComplete: 'off',
          onBlur: () => setErrors((current) => ({ ...current, email: emailFieldError(normalizeEmail(email)) ?? undefined })),
        },
      })}
      {field({
        name: 'password',
        label: t('account.tandem.password'),
        type: 'password',
        value: password,
        set: setPassword,
        extra: { autoComplete: 'new-password' },
      })}
      {field({
        name: 'username',
        label: t('account.tandem.username'),
        type: 'text',
        value: username,
        set: setUsername,
        extra: { autoComplete: 'off' },
      })}
      {failure ? (
        <p role="alert" className="notice notice--error">
          {failure}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="submit" className="button button--accent" disabled={loading}>
          {loading ? t('account.tandem.creating') : t('account.tandem.create')}
        </button>
      </div>
    </form>
  )
}

export function CamsConsent({ props, close }: ModalBodyProps<'CamsConsent'>) {
  const flashes = useFlash()
  const [consent, { loading }] = useMutation(GiveCamsConsentDocument)
  // Back to /cams with its query (click id, tour link code): a full load, so the page's profile has the answer.
  // Only a /cams path: the consent never sends the member anywhere else.
  const next = props.next?.startsWith('/cams') ? props.next : '/cams'
  async function agree() {
    try {
      await consent()
      window.location.assign(next)
    } catch {
      flashes.add({ type: 'error', message: t('account.cams.consent_failed') })
    }
  }
  return (
    <div className="cams-consent">
      <p>
        {t('account.cams.intro')}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={agree} disabled={loading}>
          {t('account.cams.agree')}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('account.cams.not_now')}
        </button>
      </div>
    </div>
  )
}
