// TandemAccountCreation, an account modal (product.md, "Account and profile"): the second (tandem) account.
import { useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { useFlash } from '../../../app/shell/Flash'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { AccountPageDocument, CreateTandemChildAccountDocument } from '../../../gql/graphql'
import {
  emailFieldError,
  isValidEmail,
  isValidPassword,
  isValidUsername,
  normalizeEmail,
  PASSWORD_RULE_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  INVALID_USERNAME_MESSAGE,
} from '../validation'
import { t, type TranslationKey } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

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
