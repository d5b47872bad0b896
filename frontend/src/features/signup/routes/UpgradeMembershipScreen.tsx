// The upgrade membership screen (product.md, "Sign-up and join"): after a trial's signup, the one-click upgrade of
// the trial to a full membership, or on to the trial as it is.
import { useApolloClient, useMutation } from '@apollo/client/react'
import { useEffect, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { signInUrl } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useTranslation } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { AccountCreationCheckDocument, TrialUpgradeWelcomePageDocument, type JoinOptionsQuery } from '../../../gql/graphql'
import { newIdempotencyKey } from '../../subscription'
import { autologinHref } from '../accountCreation'
import { money } from '../prices'
import { joinOptionsQuery } from './joinOptionsQuery'
import './signup.css'

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
