// The account's modals: EmailConsent (guest and tandem variants), ConvertVipUser (the VIP form), TandemAccountCreation
// and CamsConsent (account-payments-gems.md §2, §4, §5, §8).
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
        Read our <a href="/terms">Terms of Service</a> and <a href="/privacy">Privacy Policy</a>.
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={() => answer(true)} disabled={busy}>
          I agree
        </button>
        <button type="button" className="button" onClick={() => answer(false)} disabled={busy}>
          No, thanks
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
      <p className="vip-form__subtitle">Exclusive membership</p>
      <p>Please enter your own e-mail address and choose a password for your membership.</p>
      <div className="form-field">
        <label htmlFor={emailId}>E-mail</label>
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
        <label htmlFor={passwordId}>Password</label>
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
            {showPassword ? 'Hide' : 'Show'}
          </button>{' '}
          <button type="button" className="button" onClick={() => setPassword('')}>
            Clear
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
              <a href="/support">Contact support</a>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="submit" className="button button--accent" disabled={busy}>
          {busy ? 'Saving…' : 'Continue'}
        </button>
      </div>
      <p className="muted">
        By continuing you agree to our <a href="/terms">Terms of Service</a> and <a href="/privacy">Privacy Policy</a>.
      </p>
    </form>
  )
}

const TANDEM_MESSAGES: Readonly<Record<string, string>> = {
  TANDEM_CHILD_EXISTS: 'Your account already has a second account.',
  TANDEM_PARENT_INACTIVE: 'A second account shares an active membership; yours is not active.',
  EMAIL_ALREADY_EXISTS: 'This email already exists. Please choose another one.',
  USERNAME_TAKEN: 'already taken',
  FORBIDDEN: 'A second account cannot create another.',
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
      flashes.add({ type: 'success', message: 'Your second account is ready. It can sign in with its own e-mail.' })
      onCreated?.()
      close()
    } catch (error) {
      const refusal = refusalOf(error)
      setFailure((refusal && TANDEM_MESSAGES[refusal.code]) ?? refusal?.message ?? 'Something went wrong. Please try again later.')
    }
  }

  const field = (name: 'email' | 'password' | 'username', label: string, type: string, value: string, set: (v: string) => void, extra?: { autoComplete?: string; onBlur?: () => void }) => (
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
        A second account shares your membership with someone you trust. It signs in with its own e-mail and password and
        does not see channels.
      </p>
      {field('email', 'Their e-mail', 'email', email, setEmail, {
        autoComplete: 'off',
        onBlur: () => setErrors((current) => ({ ...current, email: emailFieldError(normalizeEmail(email)) ?? undefined })),
      })}
      {field('password', 'Their password', 'password', password, setPassword, { autoComplete: 'new-password' })}
      {field('username', 'Their username (optional)', 'text', username, setUsername, { autoComplete: 'off' })}
      {failure ? (
        <p role="alert" className="notice notice--error">
          {failure}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="submit" className="button button--accent" disabled={loading}>
          {loading ? 'Creating…' : 'Create account'}
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
      flashes.add({ type: 'error', message: 'Your consent could not be saved. Please try again later.' })
    }
  }
  return (
    <div className="cams-consent">
      <p>
        Cams are run by our partner. To continue, we share your e-mail address with them so you can sign in there without
        another account.
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={agree} disabled={loading}>
          Agree and continue
        </button>
        <button type="button" className="button" onClick={close}>
          Not now
        </button>
      </div>
    </div>
  )
}
