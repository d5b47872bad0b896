// Screens of this area. Each is a minimal page until its data and components arrive.
import { useEffect } from 'react'
import { useLoaderData } from 'react-router'
import type { DealsData, PageOutcome } from '../../../app/routing'
import { useModals } from '../../../app/shell/ModalManager'
import { Page } from '../../../components/Page'

export function DealsScreen() {
  const outcome = useLoaderData() as PageOutcome<DealsData> | undefined
  const { open } = useModals()
  const data = outcome?.data
  useEffect(() => {
    // A confirmation in the query opens the outgoing-upsell confirmation modal with its details.
    if (data?.openModal && data.confirmation) open(data.openModal, { ...data.confirmation })
  }, [data, open])
  return <Page title="Deals" />
}

export function OffersScreen() {
  return <Page title="Offers" />
}

export function OutgoingUpsellScreen() {
  return <Page title="One-Click Purchase" />
}

export function UpsellSuccessScreen() {
  return <Page title="Purchase Complete" />
}

export function UpsellFailureScreen() {
  return <Page title="Purchase Not Completed" />
}
