// The deals page (carousel and listing, and the outgoing-upsell confirmation a query opens); the offers page is
// OffersScreen.tsx and the one-click upsell pages OutgoingUpsellScreen.tsx, UpsellSuccessScreen.tsx and
// UpsellFailureScreen.tsx.
import { useMutation } from '@apollo/client/react'
import { useEffect, useRef } from 'react'
import type { DealsData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { useModals } from '../../../app/shell/ModalManager'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { DealsPageDocument, TrackDealCarouselEventDocument, type DealsPageQuery } from '../../../gql/graphql'
import { DealCard } from '../components/DealCard'
import { DEALS_CAROUSEL_LIMIT, DEALS_GRID_SIZE } from '../dealText'
import './deals.css'
import { t } from '../../../app/i18n'
import '../copy'

const dealsQuery = () => ({
  query: DealsPageDocument,
  variables: { carouselLimit: DEALS_CAROUSEL_LIMIT, listingLimit: DEALS_GRID_SIZE },
})

function DealsView() {
  const { page: data, result } = useScreenQuery<DealsPageQuery, DealsData>(dealsQuery)
  const { open } = useModals()
  const [track] = useMutation(TrackDealCarouselEventDocument)
  const carouselRef = useRef<HTMLUListElement>(null)
  const carouselIds = result.carousel.map((deal) => deal.id).join(',')
  useEffect(() => {
    // A confirmation in the query opens the outgoing-upsell confirmation modal with its details.
    if (data?.openModal && data.confirmation) open(data.openModal, { ...data.confirmation })
  }, [data, open])
  useEffect(() => {
    // The carousel's loading steps are tracked (product.md, "Deals, offers and upsells"); the loader already fetched it.
    const dealIds = carouselIds ? carouselIds.split(',') : []
    void track({ variables: { input: { step: 'success', dealIds } } }).catch(() => undefined)
  }, [carouselIds, track])
  const scroll = (direction: 1 | -1) => carouselRef.current?.scrollBy({ left: direction * 300, behavior: 'smooth' })
  return (
    <Page title={t('navigation.deals')}>
      {result.carousel.length > 0 ? (
        <section aria-labelledby="deals-carousel-heading">
          <h2 id="deals-carousel-heading">{t('deals.featured')}</h2>
          <div className="deals-carousel__controls">
            <button type="button" className="button" aria-label={t('deals.previous')} onClick={() => scroll(-1)}>
              ‹
            </button>
            <button type="button" className="button" aria-label={t('deals.next')} onClick={() => scroll(1)}>
              ›
            </button>
          </div>
          <ul className="deals-carousel" ref={carouselRef} data-testid="deals-carousel">
            {result.carousel.map((deal) => (
              <li key={deal.id}>
                <DealCard deal={deal} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="deals-listing-heading">
        <h2 id="deals-listing-heading">{t('deals.all')}</h2>
        {result.listing.length > 0 ? (
          <ul className="deals-grid" data-testid="deals-listing">
            {result.listing.map((deal) => (
              <li key={deal.id}>
                <DealCard deal={deal} listing />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('deals.none')}</p>
        )}
      </section>
    </Page>
  )
}

export const DealsScreen = withScreenQuery(DealsView, dealsQuery)
