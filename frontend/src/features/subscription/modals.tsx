// The membership modals: SubscriptionStatus (polling after a purchase), PurchaseMembership, ReactivateCancelledRebill,
// UpgradeToYearlyMembership and the PromotionalVideo teaser (product.md, "Subscriptions and their states").
// PurchaseMembership offers the trial upgrade and the multisite package in one click, an expired member the one-click
// reactivation of their brand, and sends visitors to the members host's join form (JoinLink, with the leave event).
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react'
import { useEffect, useEffectEvent, useState } from 'react'
import { Link } from 'react-router'
import { JoinLink } from '../../components/JoinLink'
import { REFRESH_PATH } from '../../app/api/sessionRefresh'
import { useCurrentScreen } from '../../app/shell/AutomaticModals'
import { useFlash } from '../../app/shell/Flash'
import type { ModalBodyProps } from '../../app/shell/modalIds'
import { useModals } from '../../app/shell/ModalManager'
import { useSession } from '../../app/session/SessionContext'
import { isMultisiteSiteId } from '../../app/routing/table'
import { documentCookies, optionPrice, singleSiteOptions, storedNats } from '../signup'
import {
  AcknowledgePromotionalTeaserViewedDocument,
  InternalUpsellOneclickMultisiteDocument,
  InternalUpsellOneclickSinglesiteDocument,
  InternalUpsellTrialUpgradeDocument,
  JoinOptionsDocument,
  MultisiteUpsellOptionDocument,
  ReactivateCancelledRebillDocument,
  RetentionOfferDocument,
  SubscriptionActiveDocument,
  YearlyUpgradeOptionDocument,
} from '../../gql/graphql'
import {
  newIdempotencyKey,
  purchaseKind,
  purchaseStep,
  type PurchaseAnswer,
  type PurchaseKind,
} from './purchase'
import { MEMBERSHIP_UPDATE_WAIT_MINUTES, nextPollStep, withFatr } from './statusPolling'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/shared'
import '../../app/i18n/copy/subscription'

export function SubscriptionStatus({ close }: ModalBodyProps<'SubscriptionStatus'>) {
  const client = useApolloClient()
  const flashes = useFlash()
  const { tenant } = useSession()
  const [failed, setFailed] = useState(false)
  // The modal host gives a new close function on each render; the polling runs once per opening.
  const closeNow = useEffectEvent(() => close())
  const combinedBrand = isMultisiteSiteId(tenant, tenant.siteId)

  useEffect(() => {
    let cancelled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    async function poll(counter: number) {
      let active = false
      try {
        const { data } = await client.query({ query: SubscriptionActiveDocument, fetchPolicy: 'network-only' })
        active = data?.findOneUserProfile.subscription.active === true
      } catch {
        active = false
      }
      if (cancelled) return
      const step = nextPollStep({ combinedBrand, active, counter })
      if (step.kind === 'reload') {
        timer = setTimeout(() => window.location.assign(withFatr(window.location.href)), step.afterMs)
      } else if (step.kind === 'retry') {
        await fetch(REFRESH_PATH, { credentials: 'same-origin' }).catch(() => undefined)
        timer = setTimeout(() => void poll(step.counter), step.afterMs)
      } else {
        setFailed(true)
        flashes.add({ type: 'error', translation: 'subscription_status_modal.polling_failed' })
        closeNow()
        window.location.assign('/')
      }
    }
    void poll(0)
    return () => {
      cancelled = true
      if (timer) clearTimeout(timer)
    }
  }, [client, combinedBrand, flashes])

  return (
    <div className="subscription-status" aria-busy={!failed}>
      <p role="status">{t('subscription_status_modal.updating')}</p>
      <p className="muted">{t('subscription_status_modal.wait', { minutes: MEMBERSHIP_UPDATE_WAIT_MINUTES })}</p>
    </div>
  )
}

function usePurchaseAnswer(kind: PurchaseKind, close: () => void) {
  const modals = useModals()
  const flashes = useFlash()
  return {
    onAnswer(answer: PurchaseAnswer) {
      const step = purchaseStep(kind, answer)
      if (step.kind === 'poll') {
        close()
        modals.open('SubscriptionStatus')
      } else {
        window.location.assign(step.location)
      }
    },
    onError() {
      // product.md, "Subscriptions and their states": an error in the data shows the payment-failed message and closes the purchase modal.
      flashes.add({ type: 'error', translation: 'purchase_membership_modal.payment_failed' })
      close()
    },
  }
}

function ConsentedPurchase({ text, action, busy, onBuy }: { text: string; action: string; busy: boolean; onBuy: () => void }) {
  const [consent, setConsent] = useState(false)
  return (
    <>
      <label className="account-toggle">
        <input type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} /> {text}
      </label>
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!consent || busy} aria-busy={busy} onClick={onBuy}>
          {busy ? t('purchase_membership_modal.processing') : action}
        </button>
      </div>
    </>
  )
}


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

/**
 * One click on a multisite-package option (internalUpsellOneclickMultisite), with this modal's idempotency key and the
 * stored affiliate code; the answer goes to `onAnswer`, a refusal or failure to `onError`.
 */
function useOneclickMultisite(
  elm: string,
  onAnswer: ReturnType<typeof usePurchaseAnswer>['onAnswer'],
  onError: ReturnType<typeof usePurchaseAnswer>['onError'],
) {
  const ref = useCurrentScreen() ?? 'home'
  const [buy, buying] = useMutation(InternalUpsellOneclickMultisiteDocument)
  const [idempotencyKey] = useState(newIdempotencyKey)
  const purchase = async (optionId: number) => {
    try {
      const { data: answer } = await buy({
        variables: { optionId, ref, elm, multisiteNatsCode: storedNats(documentCookies()), consent: true, idempotencyKey },
      })
      if (!answer?.internalUpsellOneclickMultisite.success) throw new Error('not charged')
      onAnswer(answer.internalUpsellOneclickMultisite)
    } catch {
      onError()
    }
  }
  return { busy: buying.loading, buy: purchase }
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

const offerText = (offer: { deal: { newPrice?: string | null; offeredGems?: number | null }; currencies: readonly string[]; currentRebillAmount: string; currentRebillCurrency: string }) => {
  const currency = offer.currencies[0] ?? offer.currentRebillCurrency
  if (offer.deal.newPrice) {
    return t('reactivate_cancelled_rebill_modal.offer_price', {
      price: offer.deal.newPrice,
      currency,
      current: offer.currentRebillAmount,
      currentCurrency: offer.currentRebillCurrency,
    })
  }
  if (offer.deal.offeredGems) return t('reactivate_cancelled_rebill_modal.offer_gems', { gems: offer.deal.offeredGems })
  return t('reactivate_cancelled_rebill_modal.offer_stay')
}

export function ReactivateCancelledRebill() {
  const flashes = useFlash()
  const { data, loading, error } = useQuery(RetentionOfferDocument, { variables: { userUuid: null }, fetchPolicy: 'network-only' })
  const [reactivate, reactivating] = useMutation(ReactivateCancelledRebillDocument)
  const [done, setDone] = useState(false)
  if (loading) return <p className="muted">{t('reactivate_cancelled_rebill_modal.loading')}</p>
  const offer = data?.getRetentionOffer ?? null
  if (error || !data) return <p role="alert">{t('reactivate_cancelled_rebill_modal.load_failed')}</p>
  if (done) {
    return (
      <p role="status" className="notice notice--success">
        {t('reactivate_cancelled_rebill_modal.done')}
      </p>
    )
  }
  async function onReactivate() {
    if (!offer || !data) return
    try {
      const { data: answer } = await reactivate({
        variables: {
          userUuid: data.findOneUserProfile.userId,
          retentionOfferName: offer.name,
          deal: { newPrice: offer.deal.newPrice ?? null, offeredGems: offer.deal.offeredGems ?? null },
        },
      })
      if (!answer?.reactivateCancelledRebill.success) throw new Error('not reactivated')
      flashes.add({ type: 'success', message: t('reactivate_cancelled_rebill_modal.done') })
      setDone(true)
    } catch {
      flashes.add({ type: 'error', translation: 'reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed' })
    }
  }
  return (
    <div className="reactivate">
      <p>{t('reactivate_cancelled_rebill_modal.intro')}</p>
      {offer ? (
        <p className="retention-offer" data-testid="retention-offer">
          <strong>{offerText(offer)}</strong>
        </p>
      ) : null}
      <div className="modal__actions">
        {offer ? (
          <button type="button" className="button button--accent" disabled={reactivating.loading} onClick={onReactivate}>
            {reactivating.loading ? t('reactivate_cancelled_rebill_modal.reactivating') : t('account.membership.reactivate')}
          </button>
        ) : (
          <JoinLink elm="reactivate-modal" className="button button--accent">
            {t('account.membership.reactivate')}
          </JoinLink>
        )}
      </div>
    </div>
  )
}

/**
 * UpgradeToYearlyMembership: for a member the subscription service calls upgradeable to the VP yearly plan
 * (isUpgradeableToVixenPlusYearly); the plan is the service's configured VP yearly option, bought in one click.
 */
export function UpgradeToYearlyMembership({ props, close }: ModalBodyProps<'UpgradeToYearlyMembership'>) {
  const { data, loading, error } = useQuery(YearlyUpgradeOptionDocument)
  const { onAnswer, onError } = usePurchaseAnswer('multisite', close)
  const elm = props.elm ?? 'upgrade-yearly'
  const oneclick = useOneclickMultisite(elm, onAnswer, onError)
  const yearlyId = data?.joinOptions.vixenPlusYearlyJoinOptionId
  const option = data?.joinOptions.joinOptions.find((candidate) => candidate.id === yearlyId) ?? null
  if (loading) return <p className="muted">{t('purchase_membership_modal.loading_options')}</p>
  if (error || option === null) return <p role="alert">{t('upgrade_yearly_modal.options_failed')}</p>
  return (
    <div className="upgrade-yearly" data-option={option.id}>
      <p>{t('upgrade_yearly_modal.intro')}</p>
      <p>
        <strong>
          {option.title}: {optionPrice(option)}
        </strong>
      </p>
      <ConsentedPurchase
        text={t('purchase_membership_modal.charge_consent')}
        action={t('account.membership.upgrade_yearly')}
        busy={oneclick.busy}
        onBuy={() => oneclick.buy(option.id)}
      />
    </div>
  )
}

export function PromotionalVideo({ close }: ModalBodyProps<'PromotionalVideo'>) {
  const [acknowledge] = useMutation(AcknowledgePromotionalTeaserViewedDocument)
  useEffect(() => {
    // Shown is viewed: the teaser opens once (product.md, "Modals and flashes").
    void acknowledge().catch(() => undefined)
  }, [acknowledge])
  return (
    <div className="promotional-video">
      <p>{t('promotional_video_modal.text')}</p>
      <div className="modal__actions">
        <Link className="button button--accent" to="/videos" onClick={close}>
          {t('promotional_video_modal.watch')}
        </Link>
        <button type="button" className="button" onClick={close}>
          {t('promotional_video_modal.later')}
        </button>
      </div>
    </div>
  )
}
