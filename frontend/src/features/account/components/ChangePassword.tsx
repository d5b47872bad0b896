// The change-password form of /account (account-payments-gems.md §5): the old password, the new one under the
// password rule, its confirmation. The profile service decides and answers the three errors with their messages
// ('old password incorrect', 'confirmation does not match', 'new password not secure'); on success it ends the
// user's other sessions and this page goes to /account?password_changed, which shows the notice.
import { useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { ChangePasswordDocument } from '../../../gql/graphql'
import { isValidPassword, PASSWORD_RULE_MESSAGE } from '../validation'

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
        <button type="button" className="button" aria-label={`${shown ? 'Hide' : 'Show'} ${label.toLowerCase()}`} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide' : 'Show'}
        </button>{' '}
        <button type="button" className="button" aria-label={`Clear ${label.toLowerCase()}`} onClick={() => onChange('')}>
          Clear
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
    // The password rule (§5), shown before sending; the server holds it too ('new password not secure').
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
      setFailure(refusalOf(error)?.message || 'Your password could not be changed. Please try again later.')
    }
  }

  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="password-heading" aria-busy={loading} noValidate>
      <h2 id="password-heading">Change password</h2>
      <PasswordField label="Current password" value={oldPassword} onChange={setOldPassword} autoComplete="current-password" />
      <PasswordField
        label="New password"
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
        label="Confirm new password"
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
        Change password
      </button>
      <p className="muted">Changing your password signs you out everywhere else.</p>
    </form>
  )
}
