// ConvertVipUser, an account modal (product.md, "Account and profile"): the VIP form.
import { useId, useState, type FormEvent } from 'react'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { sendVipCredentials } from '../api/rest'
import { normalizeEmail, vipEmailError, vipErrorMessage, vipFormErrors } from '../validation'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import { translateRich } from '../../../app/i18n/rich'

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
