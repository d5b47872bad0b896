// ReactivateCancelledRebill, a membership modal (product.md, "Subscriptions and their states"): the retention offer
// of a cancelled rebill, and its reactivation.
import { useMutation, useQuery } from '@apollo/client/react'
import { useState } from 'react'
import { JoinLink } from '../../../components/JoinLink'
import { useFlash } from '../../../app/shell/Flash'
import { ReactivateCancelledRebillDocument, RetentionOfferDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

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
