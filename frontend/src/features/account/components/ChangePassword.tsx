// The change-password form of /account (product.md, "Validation rules"): the old password, the new one under the
// password rule, its confirmation. The profile service decides and answers the three errors with their messages
// ('old password incorrect', 'confirmation does not match', 'new password not secure'); on success it ends the
// user's other sessions and this page goes to /account?password_changed, which shows the notice.
import { useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { ChangePasswordDocument } from '../../../gql/graphql'
import { isValidPassword, PASSWORD_RULE_MESSAGE } from '../validation'
import { t } from '../../../app/i18n'
import '../copy'

function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
  error,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  autoComplete: string
  error?: string | null
}) {
  const id = useId()
  const [shown, setShown] = useState(false)
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        required
      />
      <span className="form-field__tools">
        <button type="button" className="button" aria-label={t(shown ? 'account.field.hide_named' : 'account.field.show_named', { field: label.toLowerCase() })} onClick={() => setShown((s) => !s)}>
          {shown ? t('account.field.hide') : t('account.field.show')}
        </button>{' '}
        <button type="button" className="button" aria-label={t('account.field.clear_named', { field: label.toLowerCase() })} onClick={() => onChange('')}>
          {t('account.field.clear')}
        </button>
      </span>
      {error ? (
        <span id={`${id}-error`} className="form-field__error">
          {error}
        </span>
      ) : null}
    </div>
  )
}

export function ChangePassword() {
  const navigate = useNavigate()
  const [oldPassword, setOldPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [ruleError, setRuleError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [change, { loading }] = useMutation(ChangePasswordDocument)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setFailure(null)
    // The password rule (product.md, "Validation rules"), shown before sending; the server holds it too ('new password not secure').
    if (!isValidPassword(newPassword)) {
      setRuleError(PASSWORD_RULE_MESSAGE)
      return
    }
    setRuleError(null)
    try {
      await change({ variables: { oldPassword, newPassword, confirmPassword } })
      setOldPassword('')
      setNewPassword('')
      setConfirmPassword('')
      void navigate('/account?password_changed')
    } catch (error) {
      setFailure(refusalOf(error)?.message || t('account.password.change_failed'))
    }
  }

  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="password-heading" aria-busy={loading} noValidate>
      <h2 id="password-heading">{t('account.password.heading')}</h2>
      <PasswordField label={t('account.password.current')} value={oldPassword} onChange={setOldPassword} autoComplete="current-password" />
      <PasswordField
        label={t('account.password.new')}
        value={newPassword}
        onChange={(value) => {
          setNewPassword(value)
          if (ruleError && isValidPassword(value)) setRuleError(null)
        }}
        autoComplete="new-password"
        error={ruleError}
      />
      <p className="muted">{PASSWORD_RULE_MESSAGE}</p>
      <PasswordField
        label={t('account.password.confirm')}
        value={confirmPassword}
        onChange={setConfirmPassword}
        autoComplete="new-password"
      />
      {failure ? (
        <p role="alert" className="notice notice--error">
          {failure}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={loading || !oldPassword || !newPassword || !confirmPassword}>
        {t('account.password.submit')}
      </button>
      <p className="muted">{t('account.password.signs_out')}</p>
    </form>
  )
}
