// The username selection screen (product.md, "Account and profile"): a member without a permanent username chooses
// one. 3 to 20 lower-case letters and digits; the server checks the same rule and that nobody has it, and answers
// 'invalid username' or 'already taken'. Once chosen it is permanent.
import { useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { Link, useLocation } from 'react-router'
import { t, useTranslation } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import { translateRich } from '../../../app/i18n/rich'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { withScreenQuery } from '../../../app/screenQuery'
import { useFlash } from '../../../app/shell/Flash'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { getFragmentData } from '../../../gql/fragment-masking'
import {
  AccountPageDocument,
  AccountProfile_ProfileFragmentDoc,
  ChooseUsernameDocument,
  type AccountPageQuery,
} from '../../../gql/graphql'
import { INVALID_USERNAME_MESSAGE, isValidUsername } from '../validation'

export const USERNAME_TAKEN_MESSAGE = t('account.username.taken')

const REFUSALS: Readonly<Record<string, string>> = {
  INVALID_USERNAME: INVALID_USERNAME_MESSAGE,
  USERNAME_TAKEN: USERNAME_TAKEN_MESSAGE,
}

const usernameQuery = () => ({ query: AccountPageDocument, variables: {} })

function UsernameView() {
  const id = useId()
  const flashes = useFlash()
  const { result } = useScreenQuery<AccountPageQuery, unknown>(usernameQuery)
  const profile = getFragmentData(AccountProfile_ProfileFragmentDoc, result.findOneUserProfile)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [choose, { loading }] = useMutation(ChooseUsernameDocument)
  const { t } = useTranslation()
  // After the join race: the username the member joined with, taken meanwhile.
  const taken = new URLSearchParams(useLocation().search).get('taken')

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (loading) return
    if (!isValidUsername(value)) {
      setError(INVALID_USERNAME_MESSAGE)
      return
    }
    setError(null)
    try {
      await choose({ variables: { username: value } })
      flashes.add({ type: 'success', message: t('account.username.chosen_flash', { username: value }) })
      // A full load: the page's session then knows the username too.
      window.location.assign('/account')
    } catch (failure) {
      const refusal = refusalOf(failure)
      setError((refusal && REFUSALS[refusal.code]) ?? refusal?.message ?? t('account.username.save_failed'))
    }
  }

  if (profile.username) {
    return (
      <Page title={t('account.username.yours')}>
        <p>
          {translateRich('account.username.chosen', {
            username: <strong data-testid="chosen-username">{profile.username}</strong>,
          })}
        </p>
        <Link className="button" to="/account">
          {t('account.username.back')}
        </Link>
      </Page>
    )
  }
  return (
    <Page title={t('signup.choose_username')}>
      <form className="account-section" onSubmit={submit} noValidate aria-busy={loading}>
        {taken ? (
          <p role="status" className="notice" data-testid="username-taken-notice">
            {t('account.username_taken_meanwhile', { username: taken })}
          </p>
        ) : null}
        <p>{t('account.username.intro')}</p>
        <div className="form-field">
          <label htmlFor={id}>{t('account.username_label')}</label>
          <input
            id={id}
            value={value}
            autoComplete="username"
            maxLength={40}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : `${id}-rule`}
          />
          <span id={`${id}-rule`} className="muted">
            {t('account.username.rule')}
          </span>
          {error ? (
            <span id={`${id}-error`} role="alert" className="form-field__error">
              {error}
            </span>
          ) : null}
        </div>
        <button type="submit" className="button button--accent" disabled={loading}>
          {loading ? t('common.saving') : t('account.username.submit')}
        </button>
      </form>
    </Page>
  )
}

export const UsernameScreen = withScreenQuery(UsernameView, usernameQuery)
