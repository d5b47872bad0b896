// Screens of this area. Each is a minimal page until its data and components arrive.
import { useEffect } from 'react'
import { useLoaderData } from 'react-router'
import type { HomeData, PageOutcome } from '../../../app/routing'
import { isTranslationKey } from '../../../app/i18n'
import { useFlash } from '../../../app/shell/Flash'
import { useModals } from '../../../app/shell/ModalManager'
import { Page } from '../../../components/Page'

/** The home page's query effects (§2.1): its flash, the purchase modal, the subscription-status actions. */
export function useHomeQueryEffects(data: HomeData | undefined) {
  const flashes = useFlash()
  const modals = useModals()
  useEffect(() => {
    if (!data) return
    const { flash, openModal, subscriptionStatusAction } = data
    if (flash && isTranslationKey(flash.message)) flashes.add({ type: flash.type, translation: flash.message })
    if (openModal) modals.open(openModal)
    if (subscriptionStatusAction) modals.open('SubscriptionStatus', { action: subscriptionStatusAction })
    // The loader's data is new on each navigation to the page; flashes and modals are idempotent by design.
  }, [data])
}

export function HomeScreen() {
  const outcome = useLoaderData() as PageOutcome<HomeData> | undefined
  useHomeQueryEffects(outcome?.data)
  return <Page title="Home" />
}
