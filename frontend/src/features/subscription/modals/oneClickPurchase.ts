// What the membership modals' one-click purchases share (PurchaseMembership.tsx, UpgradeToYearlyMembership.tsx): the
// answer's next step, and the one-click purchase of a multisite-package option.
import { useMutation } from '@apollo/client/react'
import { useState } from 'react'
import { useCurrentScreen } from '../../../app/shell/AutomaticModals'
import { useFlash } from '../../../app/shell/Flash'
import { useModals } from '../../../app/shell/ModalManager'
import { documentCookies, storedNats } from '../../signup'
import { InternalUpsellOneclickMultisiteDocument } from '../../../gql/graphql'
import { newIdempotencyKey, purchaseStep, type PurchaseAnswer, type PurchaseKind } from '../purchase'
import '../../../app/i18n/copy/shared'

export function usePurchaseAnswer(kind: PurchaseKind, close: () => void) {
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

/**
 * One click on a multisite-package option (internalUpsellOneclickMultisite), with this modal's idempotency key and the
 * stored affiliate code; the answer goes to `onAnswer`, a refusal or failure to `onError`.
 */
export function useOneclickMultisite(
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
