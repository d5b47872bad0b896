// PurchaseMembership, a membership modal (product.md, "Subscriptions and their states"). It offers the trial upgrade
// and the multisite package in one click, an expired member the one-click reactivation of their brand, and sends
// visitors to the members host's join form (JoinLink, with the leave event).
import { useMutation, useQuery } from '@apollo/client/react'
import { useState } from 'react'
import { JoinLink } from '../../../components/JoinLink'
import { useCurrentScreen } from '../../../app/shell/AutomaticModals'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { useSession } from '../../../app/session/SessionContext'
import { documentCookies, optionPrice, singleSiteOptions, storedNats } from '../../signup'
import {
  InternalUpsellOneclickSinglesiteDocument,
  InternalUpsellTrialUpgradeDocument,
  JoinOptionsDocument,
  MultisiteUpsellOptionDocument,
} from '../../../gql/graphql'
import { newIdempotencyKey, purchaseKind } from '../purchase'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { ConsentedPurchase } from './ConsentedPurchase'
import { useOneclickMultisite, usePurchaseAnswer } from './oneClickPurchase'

/** Reactivate (single site): one of the brand's own member options, charged in one click to the card on file. */
function ReactivateSingleSite({
  reason,
  elm,
  campaign,
  onAnswer,
  onError,
}: { reason: string; elm: string; campaign: string | null } & ReturnType<typeof usePurchaseAnswer>) {
  const { tenant } = useSession()
  const ref = useCurrentScreen() ?? 'home'
  const { data, loading, error } = useQuery(JoinOptionsDocument)
  const [buy, buying] = useMutation(InternalUpsellOneclickSinglesiteDocument)
  const [idempotencyKey] = useState(newIdempotencyKey)
  const options = singleSiteOptions(data?.joinOptions.joinOptions ?? [], tenant.tenant)
  const [chosen, setChosen] = useState<number | null>(null)
  const optionId = chosen ?? options[0]?.id ?? null
  if (loading) return <p className="muted">{t('purchase_membership_modal.loading_options')}</p>
  if (error || options.length === 0 || optionId === null) {
    return <p role="alert">{t('purchase_membership_modal.options_failed')}</p>
  }
  return (
    <div className="purchase-membership" data-kind="reactivate" data-reason={reason}>
      <p>
        {reason === 'expired' ? `${t('purchase_membership_modal.expired')} ` : ''}
        {t('purchase_membership_modal.reactivate_site', { site: tenant.site })}
      </p>
      <fieldset className="purchase-membership__options">
        <legend>{t('purchase_membership_modal.choose')}</legend>
        {options.map((option) => (
          <label key={option.id} className="account-toggle">
            <input
              type="radio"
              name="reactivateOption"
              checked={option.id === optionId}
              onChange={() => setChosen(option.id)}
            />{' '}
            {option.title}: {optionPrice(option)}
          </label>
        ))}
      </fieldset>
      <ConsentedPurchase
        text={t('purchase_membership_modal.charge_consent')}
        action={t('purchase_membership_modal.reactivate_now')}
        busy={buying.loading}
        onBuy={async () => {
          try {
            const { data: answer } = await buy({
              variables: {
                joinOptionId: optionId,
                ref,
                elm,
                siteName: tenant.tenant,
                natsCode: storedNats(documentCookies()),
                // The affiliate campaign of what opened the modal (a bar, the overlay) rides with the sale.
                tracking: campaign ? { marketing: { campaign } } : null,
                consent: true,
                idempotencyKey,
              },
            })
            if (!answer?.internalUpsellOneclickSinglesite.success && !answer?.internalUpsellOneclickSinglesite.location) {
              throw new Error('not charged')
            }
            onAnswer(answer.internalUpsellOneclickSinglesite)
          } catch {
            onError()
          }
        }}
      />
    </div>
  )
}

/** The multisite package (sixSite) for an active member: the subscription service's configured option, in one click. */
function MultisiteUpsell({ elm, onAnswer, onError }: { elm: string } & ReturnType<typeof usePurchaseAnswer>) {
  const { data, loading, error } = useQuery(MultisiteUpsellOptionDocument)
  const oneclick = useOneclickMultisite(elm, onAnswer, onError)
  if (loading) return <p className="muted">{t('purchase_membership_modal.loading_options')}</p>
  const optionId = data?.joinOptions.multisiteUpsellJoinOptionId
  if (error || optionId === undefined) return <p role="alert">{t('purchase_membership_modal.options_failed')}</p>
  return (
    <div className="purchase-membership" data-kind="multisite">
      <p>{t('purchase_membership_modal.multisite')}</p>
      <ConsentedPurchase
        text={t('purchase_membership_modal.charge_consent')}
        action={t('purchase_membership_modal.buy_multisite')}
        busy={oneclick.busy}
        onBuy={() => oneclick.buy(optionId)}
      />
    </div>
  )
}

export function PurchaseMembership({ props, close }: ModalBodyProps<'PurchaseMembership'>) {
  const { tenant, user } = useSession()
  const ref = useCurrentScreen() ?? 'home'
  const profile = user.profile
  const kind = purchaseKind(profile ? { subscriptionKind: profile.subscriptionKind, isActive: profile.isActive } : null)
  const reason = props.reason === 'expired' ? 'expired' : props.singleSiteOnly ? 'denied' : 'upgrade'
  // The element and affiliate campaign of what opened the modal (an upgrade or porn-portal bar, the overlay).
  const openedBy = props.elm ?? null
  const campaign = props.campaign ?? null
  const { onAnswer, onError } = usePurchaseAnswer(kind, close)
  const [upgradeTrial, trial] = useMutation(InternalUpsellTrialUpgradeDocument)
  const [idempotencyKey] = useState(newIdempotencyKey)

  if (user.isAuthenticated && kind === 'trialUpgrade') {
    return (
      <div className="purchase-membership" data-kind={kind}>
        <p>{t('purchase_membership_modal.trial_upgrade', { site: tenant.site })}</p>
        <ConsentedPurchase
          text={t('purchase_membership_modal.charge_consent')}
          action={t('purchase_membership_modal.upgrade_now')}
          busy={trial.loading}
          onBuy={async () => {
            try {
              const { data } = await upgradeTrial({ variables: { ref, consent: true, idempotencyKey } })
              if (!data?.internalUpsellTrialUpgrade.success) throw new Error('not charged')
              onAnswer(data.internalUpsellTrialUpgrade)
            } catch {
              onError()
            }
          }}
        />
      </div>
    )
  }
  if (user.isAuthenticated && kind === 'multisite' && !props.singleSiteOnly) {
    return <MultisiteUpsell elm={openedBy ?? 'purchase-modal'} onAnswer={onAnswer} onError={onError} />
  }
  if (user.isAuthenticated && kind === 'reactivate' && profile?.subscriptionKind === 'expired') {
    return (
      <ReactivateSingleSite
        reason={reason}
        elm={openedBy ?? 'purchase-modal'}
        campaign={campaign}
        onAnswer={onAnswer}
        onError={onError}
      />
    )
  }
  // Visitors (and a user who never had a membership) go through the members host's join form, which lists the options.
  return (
    <div className="purchase-membership" data-reason={reason}>
      {reason === 'expired' ? (
        <p>{t('purchase_membership_modal.rejoin', { site: tenant.site })}</p>
      ) : (
        <p>{t('purchase_membership_modal.become_member', { site: tenant.site })}</p>
      )}
      <div className="modal__actions">
        <JoinLink
          elm={openedBy ?? (reason === 'expired' ? 'expired-modal' : 'purchase-modal')}
          campaignCode={campaign}
          className="button button--accent"
        >
          {t('purchase_membership_modal.see_options')}
        </JoinLink>
      </div>
    </div>
  )
}
