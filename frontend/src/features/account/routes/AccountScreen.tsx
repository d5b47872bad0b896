// The account screen (product.md, "Account and profile"): display name, e-mail consent, autoplay, relationship
// status and role (shown and editable by the server's rule), the second (tandem) account, and the password_changed
// notice. Invited VIP users are asked for their own credentials first.
import { useApolloClient, useMutation } from '@apollo/client/react'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { withScreenQuery } from '../../../app/screenQuery'
import { useFlash } from '../../../app/shell/Flash'
import { useModals } from '../../../app/shell/ModalManager'
import { t, useTranslation } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { SignOutControls } from '../../../app/session/SignOut'
import { Page } from '../../../components/Page'
import {
  AccountPageDocument,
  CreditCardUpdateDocument,
  SetDisplayNameDocument,
  SetRelationshipDocument,
  UpdateUserAutoplayDocument,
  AccountProfile_ProfileFragmentDoc,
  type AccountPageQuery,
  type AccountProfile_ProfileFragment,
} from '../../../gql/graphql'
import { getFragmentData } from '../../../gql/fragment-masking'
import { Link } from 'react-router'
import { AccountGems } from '../../gems'
import { emailConsentVariant } from '../validation'
import { ChangePassword } from '../components/ChangePassword'
import { USERNAME_PATH } from '../paths'
import './account.css'

const accountQuery = () => ({ query: AccountPageDocument, variables: {} })

/** product.md, "Roles and abilities": the choices offered; the server takes any short text. */
export const RELATIONSHIP_STATUSES = ['single', 'in a relationship', 'married', 'it is complicated'] as const
export const RELATIONSHIP_ROLES = ['husband', 'wife', 'partner', 'boyfriend', 'girlfriend'] as const

function DisplayName({ profile }: { profile: AccountProfile_ProfileFragment }) {
  const id = useId()
  const flashes = useFlash()
  const [value, setValue] = useState(profile.displayName ?? '')
  const [save, { loading }] = useMutation(SetDisplayNameDocument)
  async function submit(event: FormEvent) {
    event.preventDefault()
    try {
      await save({ variables: { displayName: value.trim() } })
      flashes.add({ type: 'success', message: t('account.display_name.saved') })
    } catch (error) {
      flashes.add({ type: 'error', message: refusalOf(error)?.message ?? t('account.display_name.save_failed') })
    }
  }
  return (
    <form className="account-section" onSubmit={submit} aria-busy={loading}>
      <h2>{t('account.display_name.heading')}</h2>
      <div className="form-field">
        <label htmlFor={id}>{t('account.display_name.label')}</label>
        <input id={id} value={value} maxLength={30} onChange={(event) => setValue(event.target.value)} />
      </div>
      <button type="submit" className="button" disabled={loading || value.trim() === ''}>
        {t('account.display_name.save')}
      </button>
    </form>
  )
}

function Preferences({ profile }: { profile: AccountProfile_ProfileFragment }) {
  const flashes = useFlash()
  const { open } = useModals()
  const [setAutoplay, { loading }] = useMutation(UpdateUserAutoplayDocument)
  const variant = emailConsentVariant({
    isGuest: profile.subscription.isGuestUser,
    isTandem: profile.tandemSubscription.isTandemChildAccount || profile.tandemSubscription.hasTandemChildAccount,
  })
  return (
    <section className="account-section" aria-labelledby="preferences-heading">
      <h2 id="preferences-heading">{t('account.preferences.heading')}</h2>
      <label className="account-toggle">
        <input
          type="checkbox"
          checked={profile.hasEmailConsent}
          onChange={() => open('EmailConsent', { variant })}
        />{' '}
        {t('account.preferences.emails')}
      </label>
      <label className="account-toggle">
        <input
          type="checkbox"
          checked={profile.autoplayEnabled}
          disabled={loading}
          onChange={async (event) => {
            try {
              await setAutoplay({ variables: { autoplayEnabled: event.target.checked } })
            } catch {
              flashes.add({ type: 'error', message: t('account.preferences.autoplay_failed') })
            }
          }}
        />{' '}
        {t('account.preferences.autoplay')}
      </label>
    </section>
  )
}

function Relationship({ profile }: { profile: AccountProfile_ProfileFragment }) {
  const info = profile.relationshipInfo
  const flashes = useFlash()
  const [status, setStatus] = useState(info.relationshipStatus ?? '')
  const [role, setRole] = useState(info.relationshipRole ?? '')
  const [save, { loading }] = useMutation(SetRelationshipDocument)
  if (!info.isVisible) return null
  async function submit(event: FormEvent) {
    event.preventDefault()
    try {
      await save({ variables: { relationshipStatus: status, relationshipRole: role } })
      flashes.add({ type: 'success', message: t('account.relationship.saved') })
    } catch (error) {
      flashes.add({ type: 'error', message: refusalOf(error)?.message ?? t('account.relationship.save_failed') })
    }
  }
  const editable = info.isEditable
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="relationship-heading">
      <h2 id="relationship-heading">{t('account.relationship.heading')}</h2>
      <div className="form-field">
        <label htmlFor="relationship-status">{t('account.relationship.status')}</label>
        <select id="relationship-status" value={status} disabled={!editable} onChange={(event) => setStatus(event.target.value)}>
          <option value="">{t('common.choose')}</option>
          {RELATIONSHIP_STATUSES.map((option) => (
            <option key={option} value={option}>
              {t(`account.relationship.statuses.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor="relationship-role">{t('account.relationship.role')}</label>
        <select id="relationship-role" value={role} disabled={!editable} onChange={(event) => setRole(event.target.value)}>
          <option value="">{t('common.choose')}</option>
          {RELATIONSHIP_ROLES.map((option) => (
            <option key={option} value={option}>
              {t(`account.relationship.roles.${option}`)}
            </option>
          ))}
        </select>
      </div>
      {editable ? (
        <button type="submit" className="button" disabled={loading || !status || !role}>
          {t('account.relationship.save')}
        </button>
      ) : null}
    </form>
  )
}

function Tandem({ profile }: { profile: AccountProfile_ProfileFragment }) {
  const { open } = useModals()
  const tandem = profile.tandemSubscription
  const canCreate = profile.subscription.active && !tandem.isTandemChildAccount && !tandem.hasTandemChildAccount
  return (
    <section className="account-section" aria-labelledby="tandem-heading">
      <h2 id="tandem-heading">{t('account.tandem.heading')}</h2>
      {tandem.isTandemChildAccount ? (
        <p>{t('account.tandem.child', { parent: tandem.tandemParentDisplayName ?? t('account.tandem.another_member') })}</p>
      ) : tandem.hasTandemChildAccount ? (
        <p data-testid="tandem-child">{t('account.tandem.shared')}</p>
      ) : canCreate ? (
        <>
          <p>{t('account.tandem.offer')}</p>
          <button type="button" className="button" onClick={() => open('TandemAccountCreation')}>
            {t('modal.TandemAccountCreation')}
          </button>
        </>
      ) : (
        <p className="muted">{t('account.tandem.needs_active')}</p>
      )}
    </section>
  )
}

/** The membership's actions: upgrade (purchase modal), reactivate a cancelled rebill, update the card. */
function Membership({ profile }: { profile: AccountProfile_ProfileFragment }) {
  const { user } = useSession()
  const { open } = useModals()
  const flashes = useFlash()
  const client = useApolloClient()
  const [busy, setBusy] = useState(false)
  async function updateCard() {
    setBusy(true)
    try {
      const { data } = await client.query({ query: CreditCardUpdateDocument, fetchPolicy: 'network-only' })
      if (!data?.creditCardUpdate.url) throw new Error('no url')
      window.location.assign(data.creditCardUpdate.url)
    } catch {
      flashes.add({ type: 'error', translation: 'account.update_credit_card_error' })
      setBusy(false)
    }
  }
  const mayReactivate = user.can('see', 'ReactivateCancelledRebillModal')
  const mayUpgrade = user.can('see', 'PurchaseMembershipModal')
  return (
    <section className="account-section" aria-labelledby="membership-heading">
      <h2 id="membership-heading">{t('account.membership.heading')}</h2>
      <div className="modal__actions">
        {mayReactivate ? (
          <button type="button" className="button button--accent" onClick={() => open('ReactivateCancelledRebill')}>
            {t('account.membership.reactivate')}
          </button>
        ) : null}
        {mayUpgrade && !mayReactivate ? (
          <button type="button" className="button button--accent" onClick={() => open('PurchaseMembership', { reason: 'upgrade' })}>
            {t('account.membership.upgrade')}
          </button>
        ) : null}
        {user.profile?.isUpgradeableToVixenPlusYearly === true ? (
          <button type="button" className="button button--accent" onClick={() => open('UpgradeToYearlyMembership', { elm: 'account' })}>
            {t('account.membership.upgrade_yearly')}
          </button>
        ) : null}
        {profile.subscription.active && !profile.tandemSubscription.isTandemChildAccount ? (
          <button type="button" className="button" onClick={updateCard} disabled={busy}>
            {t('account.membership.update_card')}
          </button>
        ) : null}
      </div>
    </section>
  )
}

function AccountView() {
  const { t } = useTranslation()
  const { page, result } = useScreenQuery<AccountPageQuery, { passwordChangedBrands: string | null }>(accountQuery)
  const profile = getFragmentData(AccountProfile_ProfileFragmentDoc, result.findOneUserProfile)
  const { open, isOpen } = useModals()
  const isVip = profile.specialAttributes.isVipUser
  useEffect(() => {
    // An invited VIP chooses their own e-mail and password before anything else (product.md, "Account and profile").
    if (isVip && !isOpen('ConvertVipUser')) open('ConvertVipUser')
  }, [isVip, isOpen, open])
  const brands = page?.passwordChangedBrands
  return (
    <Page title={t('navigation.account')}>
      {brands ? (
        <p role="status" className="notice notice--success">
          {t('account.password_changed', { brands })}
        </p>
      ) : null}
      <section className="account-section" aria-labelledby="identity-heading">
        <h2 id="identity-heading">{t('account.identity')}</h2>
        <dl className="account-facts">
          <dt>{t('account.email')}</dt>
          <dd data-testid="account-email">{profile.email}</dd>
          <dt>{t('account.username_label')}</dt>
          {profile.username ? (
            <dd data-testid="account-username">{profile.username}</dd>
          ) : (
            <dd>
              <Link to={USERNAME_PATH}>{t('signup.choose_username')}</Link>
            </dd>
          )}
          <dt>{t('account.membership.heading')}</dt>
          <dd>
            {profile.subscription.type}
            {profile.subscription.active ? '' : ` (${t('account.membership.inactive')})`}
            {profile.subscription.cancelled ? ` (${t('account.membership.cancelled')})` : ''}
          </dd>
        </dl>
        <SignOutControls />
      </section>
      <Membership profile={profile} />
      <AccountGems />
      <DisplayName profile={profile} />
      <ChangePassword />
      <Preferences profile={profile} />
      <Relationship profile={profile} />
      <Tandem profile={profile} />
    </Page>
  )
}

export const AccountScreen = withScreenQuery(AccountView, accountQuery)
