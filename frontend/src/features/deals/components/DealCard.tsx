// One deal: its picture, partner, text and discount, and its button (a link, or the one-click consent modal).
import { useModals } from '../../../app/shell/ModalManager'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { DealCard_DealFragmentDoc } from '../../../gql/graphql'
import { dealAction, discountLine } from '../dealText'
import { t } from '../../../app/i18n'
import '../copy'

export function DealCard({ deal: masked, listing = false }: { deal: FragmentType<typeof DealCard_DealFragmentDoc>; listing?: boolean }) {
  const deal = getFragmentData(DealCard_DealFragmentDoc, masked)
  const { open } = useModals()
  const image = deal.thumbnail[0] ?? deal.logo[0]
  const discount = discountLine(deal)
  const action = dealAction(deal)
  return (
    <article className="deal-card" aria-label={deal.partnerName}>
      {image ? <img className="deal-card__image" src={image.src} width={image.width} height={image.height} alt="" loading="lazy" /> : null}
      <h3 className="deal-card__partner">
        {deal.partnerName}
        {deal.exclusive ? <span className="deal-card__exclusive"> {t('deals.exclusive')}</span> : null}
      </h3>
      <p className="deal-card__text">{listing ? deal.dealTextListing || deal.dealText : deal.dealText}</p>
      {discount ? <p className="deal-card__discount">{discount}</p> : null}
      {action.kind === 'oneClick' && deal.oneClickConsent ? (
        <button type="button" className="button button--accent" onClick={() => open('OneClickConsent', { ...deal.oneClickConsent })}>
          {t('deals.get')}
        </button>
      ) : (
        <a className="button button--accent" href={action.href} rel="noopener sponsored" target="_blank">
          {t('deals.get')}
        </a>
      )}
    </article>
  )
}
