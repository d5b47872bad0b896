// SubscriptionStatus, a membership modal (product.md, "Subscriptions and their states"): polling after a purchase.
import { useApolloClient } from '@apollo/client/react'
import { useEffect, useEffectEvent, useState } from 'react'
import { REFRESH_PATH } from '../../../app/api/sessionRefresh'
import { useFlash } from '../../../app/shell/Flash'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { useSession } from '../../../app/session/SessionContext'
import { isMultisiteSiteId } from '../../../app/routing/table'
import { SubscriptionActiveDocument } from '../../../gql/graphql'
import { MEMBERSHIP_UPDATE_WAIT_MINUTES, nextPollStep, withFatr } from '../statusPolling'
import { t } from '../../../app/i18n'
import '../copy'

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
