// The membership modals: SubscriptionStatus (polling after a purchase), PurchaseMembership, ReactivateCancelledRebill,
// UpgradeToYearlyMembership and the PromotionalVideo teaser (account-payments-gems.md §2, §4).
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
import { documentCookies, storedNats } from '../signup/affiliate'
import { optionPrice, singleSiteOptions } from '../signup/prices'
import {
  AcknowledgePromotionalTeaserViewedDocument,
  InternalUpsellOneclickMultisiteDocument,
  InternalUpsellOneclickSinglesiteDocument,
  InternalUpsellTrialUpgradeDocument,
  JoinOptionsDocument,
  ReactivateCancelledRebillDocument,
  RetentionOfferDocument,
  SubscriptionActiveDocument,
  YearlyUpgradeOptionDocument,
} from '../../gql/graphql'
import {
  MULTISITE_2025_JOIN_OPTION_IDS,
  newIdempotencyKey,
  purchaseKind,
  purchaseStep,
  type PurchaseAnswer,
  type PurchaseKind,
} from './purchase'
import { MEMBERSHIP_UPDATE_WAIT_MINUTES, nextPollStep, withFatr } from './statusPolling'

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
      <p role="status">Your membership is being updated…</p>
      <p className="muted">
        This can take a few minutes. If it is not updated within {MEMBERSHIP_UPDATE_WAIT_MINUTES} minutes, please log in
        later and contact support.
      </p>
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
      // §4: an error in the data shows the payment-failed message and closes the purchase modal.
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
          {busy ? 'Processing…' : action}
        </button>
      </div>
    </>
  )
}

const CHARGE_CONSENT = 'I agree to be charged with the payment method on file for my membership.'

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
  if (loading) return <p className="muted">Loading your options…</p>
  if (error || options.length === 0 || optionId === null) {
    return <p role="alert">Failed to load the membership options. Please try again later.</p>
  }
  return (
    <div className="purchase-membership" data-kind="reactivate" data-reason={reason}>
      <p>
        {reason === 'expired' ? 'Your membership has expired. ' : ''}Reactivate {tenant.site} to watch every video in full
        again.
      </p>
      <fieldset className="purchase-membership__options">
        <legend>Choose your membership</legend>
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
        text={CHARGE_CONSENT}
        action="Reactivate now"
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
  const [buyMultisite, multisite] = useMutation(InternalUpsellOneclickMultisiteDocument)
  const [idempotencyKey] = useState(newIdempotencyKey)

  if (user.isAuthenticated && kind === 'trialUpgrade') {
    return (
      <div className="purchase-membership" data-kind={kind}>
        <p>Upgrade your trial to a full membership of {tenant.site}: every video in full, downloads and gems.</p>
        <ConsentedPurchase
          text={CHARGE_CONSENT}
          action="Upgrade now"
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
    return (
      <div className="purchase-membership" data-kind={kind}>
        <p>Get every site with the multisite package, charged to the card you pay your membership with.</p>
        <ConsentedPurchase
          text={CHARGE_CONSENT}
          action="Buy the multisite package"
          busy={multisite.loading}
          onBuy={async () => {
            try {
              const { data } = await buyMultisite({
                variables: {
                  optionId: MULTISITE_2025_JOIN_OPTION_IDS[0],
                  ref,
                  elm: openedBy ?? 'purchase-modal',
                  multisiteNatsCode: storedNats(documentCookies()),
                  consent: true,
                  idempotencyKey,
                },
              })
              if (!data?.internalUpsellOneclickMultisite.success) throw new Error('not charged')
              onAnswer(data.internalUpsellOneclickMultisite)
            } catch {
              onError()
            }
          }}
        />
      </div>
    )
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
        <p>Your membership has expired. Rejoin {tenant.site} to watch every video again.</p>
      ) : (
        <p>Become a member of {tenant.site} to watch every video in full, download and unlock channels.</p>
      )}
      <div className="modal__actions">
        <JoinLink
          elm={openedBy ?? (reason === 'expired' ? 'expired-modal' : 'purchase-modal')}
          campaignCode={campaign}
          className="button button--accent"
        >
          See membership options
        </JoinLink>
      </div>
    </div>
  )
}

const offerText = (offer: { deal: { newPrice?: string | null; offeredGems?: number | null }; currencies: readonly string[]; currentRebillAmount: string; currentRebillCurrency: string }) => {
  const currency = offer.currencies[0] ?? offer.currentRebillCurrency
  if (offer.deal.newPrice) return `Stay for ${offer.deal.newPrice} ${currency} instead of ${offer.currentRebillAmount} ${offer.currentRebillCurrency}.`
  if (offer.deal.offeredGems) return `Stay and get ${offer.deal.offeredGems} gems.`
  return 'Stay with us.'
}

export function ReactivateCancelledRebill() {
  const flashes = useFlash()
  const { data, loading, error } = useQuery(RetentionOfferDocument, { variables: { userUuid: null }, fetchPolicy: 'network-only' })
  const [reactivate, reactivating] = useMutation(ReactivateCancelledRebillDocument)
  const [done, setDone] = useState(false)
  if (loading) return <p className="muted">Loading your offer…</p>
  const offer = data?.getRetentionOffer ?? null
  if (error || !data) return <p role="alert">Your offer could not be loaded. Please try again later.</p>
  if (done) {
    return (
      <p role="status" className="notice notice--success">
        Your membership is active again.
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
      flashes.add({ type: 'success', message: 'Your membership is active again.' })
      setDone(true)
    } catch {
      flashes.add({ type: 'error', translation: 'reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed' })
    }
  }
  return (
    <div className="reactivate">
      <p>Your membership is cancelled. Reactivate it to keep watching, and keep your gems and channels.</p>
      {offer ? (
        <p className="retention-offer" data-testid="retention-offer">
          <strong>{offerText(offer)}</strong>
        </p>
      ) : null}
      <div className="modal__actions">
        {offer ? (
          <button type="button" className="button button--accent" disabled={reactivating.loading} onClick={onReactivate}>
            {reactivating.loading ? 'Reactivating…' : 'Reactivate my membership'}
          </button>
        ) : (
          <JoinLink elm="reactivate-modal" className="button button--accent">Reactivate my membership</JoinLink>
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
  const ref = useCurrentScreen() ?? 'home'
  const { data, loading, error } = useQuery(YearlyUpgradeOptionDocument)
  const [buy, buying] = useMutation(InternalUpsellOneclickMultisiteDocument)
  const [idempotencyKey] = useState(newIdempotencyKey)
  const { onAnswer, onError } = usePurchaseAnswer('multisite', close)
  const yearlyId = data?.joinOptions.vixenPlusYearlyJoinOptionId
  const option = data?.joinOptions.joinOptions.find((candidate) => candidate.id === yearlyId) ?? null
  if (loading) return <p className="muted">Loading your options…</p>
  if (error || option === null) return <p role="alert">Failed to load the upgrade options. Please try again later.</p>
  const elm = props.elm ?? 'upgrade-yearly'
  return (
    <div className="upgrade-yearly" data-option={option.id}>
      <p>Switch to a yearly membership of every site and pay less for each month.</p>
      <p>
        <strong>
          {option.title}: {optionPrice(option)}
        </strong>
      </p>
      <ConsentedPurchase
        text={CHARGE_CONSENT}
        action="Upgrade to yearly"
        busy={buying.loading}
        onBuy={async () => {
          try {
            const { data: answer } = await buy({
              variables: {
                optionId: option.id,
                ref,
                elm,
                multisiteNatsCode: storedNats(documentCookies()),
                consent: true,
                idempotencyKey,
              },
            })
            if (!answer?.internalUpsellOneclickMultisite.success) throw new Error('not charged')
            onAnswer(answer.internalUpsellOneclickMultisite)
          } catch {
            onError()
          }
        }}
      />
    </div>
  )
}

export function PromotionalVideo({ close }: ModalBodyProps<'PromotionalVideo'>) {
  const [acknowledge] = useMutation(AcknowledgePromotionalTeaserViewedDocument)
  useEffect(() => {
    // Shown is viewed: the teaser opens once (§4).
    void acknowledge().catch(() => undefined)
  }, [acknowledge])
  return (
    <div className="promotional-video">
      <p>New this week: fresh releases from every site, in full 4K.</p>
      <div className="modal__actions">
        <Link className="button button--accent" to="/videos" onClick={close}>
          Watch the new releases
        </Link>
        <button type="button" className="button" onClick={close}>
          Maybe later
        </button>
      </div>
    </div>
  )
}
