// The membership modals: SubscriptionStatus (polling after a purchase), PurchaseMembership, ReactivateCancelledRebill,
// UpgradeToYearlyMembership and the PromotionalVideo teaser. The purchase and reactivation calls are the subscription
// service's (welcomeCheck, internalUpsell*, getRetentionOffer, reactivateCancelledRebill); until the gateway has them
// these modals send the user to the members host's join form, which takes every purchase.
import { useApolloClient, useMutation } from '@apollo/client/react'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { REFRESH_PATH } from '../../app/api/sessionRefresh'
import { joinUrl } from '../../app/routing'
import { useCurrentScreen } from '../../app/shell/AutomaticModals'
import { useFlash } from '../../app/shell/Flash'
import type { ModalBodyProps } from '../../app/shell/ModalHost'
import { useSession } from '../../app/session/SessionContext'
import { documentCookies, storedNats } from '../signup/affiliate'
import { AcknowledgePromotionalTeaserViewedDocument, SubscriptionActiveDocument } from '../../gql/graphql'
import { MEMBERSHIP_UPDATE_WAIT_MINUTES, nextPollStep, withFatr } from './statusPolling'

function JoinButton({ elm, children }: { elm: string; children: string }) {
  const { tenant } = useSession()
  const ref = useCurrentScreen() ?? 'home'
  return (
    <a className="button button--accent" href={joinUrl(tenant.membersUrl, { ref, elm, nats: storedNats(documentCookies()) })}>
      {children}
    </a>
  )
}

export function SubscriptionStatus({ close }: ModalBodyProps) {
  const client = useApolloClient()
  const flashes = useFlash()
  const { tenant } = useSession()
  const [failed, setFailed] = useState(false)
  // The modal host gives a new close function on each render; the polling runs once per opening.
  const closeRef = useRef(close)
  closeRef.current = close

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
      const step = nextPollStep({ tenant: tenant.tenant, active, counter })
      if (step.kind === 'reload') {
        timer = setTimeout(() => window.location.assign(withFatr(window.location.href)), step.afterMs)
      } else if (step.kind === 'retry') {
        await fetch(REFRESH_PATH, { credentials: 'same-origin' }).catch(() => undefined)
        timer = setTimeout(() => void poll(step.counter), step.afterMs)
      } else {
        setFailed(true)
        flashes.add({ type: 'error', translation: 'subscription_status_modal.polling_failed' })
        closeRef.current()
        window.location.assign('/')
      }
    }
    void poll(0)
    return () => {
      cancelled = true
      if (timer) clearTimeout(timer)
    }
  }, [client, tenant.tenant, flashes])

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

export function PurchaseMembership({ props }: ModalBodyProps) {
  const reason = props.reason === 'expired' ? 'expired' : props.singleSiteOnly === true ? 'denied' : 'upgrade'
  const { tenant } = useSession()
  return (
    <div className="purchase-membership" data-reason={reason}>
      {reason === 'expired' ? (
        <p>Your membership has expired. Rejoin {tenant.site} to watch every video again.</p>
      ) : (
        <p>Become a member of {tenant.site} to watch every video in full, download and unlock channels.</p>
      )}
      <div className="modal__actions">
        <JoinButton elm={reason === 'expired' ? 'expired-modal' : 'purchase-modal'}>See membership options</JoinButton>
      </div>
    </div>
  )
}

export function ReactivateCancelledRebill() {
  return (
    <div className="reactivate">
      <p>Your membership is cancelled. Reactivate it to keep watching, and keep your gems and channels.</p>
      <div className="modal__actions">
        <JoinButton elm="reactivate-modal">Reactivate my membership</JoinButton>
      </div>
    </div>
  )
}

export function UpgradeToYearlyMembership() {
  return (
    <div className="upgrade-yearly">
      <p>Switch to a yearly membership of every site and pay less for each month.</p>
      <div className="modal__actions">
        <JoinButton elm="upgrade-yearly">Upgrade to yearly</JoinButton>
      </div>
    </div>
  )
}

export function PromotionalVideo({ close }: ModalBodyProps) {
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
