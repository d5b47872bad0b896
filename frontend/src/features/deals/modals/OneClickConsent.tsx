// OneClickConsent, a deals modal (partnerName, price, oneClickUrl, src), product.md, "Deals, offers and upsells".
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { leavePage } from '../leavePage'
import { t } from '../../../app/i18n'
import '../copy'
import { translateRich } from '../../../app/i18n/rich'
import { priceText, text } from './upsellText'

export function OneClickConsent({ props, close }: ModalBodyProps<'OneClickConsent'>) {
  const partner = text(props.partnerName) ?? t('deals.our_partner')
  const price = priceText(props.price)
  const url = text(props.oneClickUrl)
  return (
    <div className="one-click-consent">
      {text(props.src) ? <img src={props.src ?? undefined} alt="" width={240} height={135} className="one-click-consent__image" /> : null}
      <p>
        {price
          ? translateRich('deals.one_click.text_price', {
              partner: <strong>{partner}</strong>,
              price: <strong>{price}</strong>,
              partnerName: partner,
            })
          : translateRich('deals.one_click.text', { partner: <strong>{partner}</strong>, partnerName: partner })}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!url} onClick={() => url && leavePage(url)}>
          {t('deals.one_click.buy')}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  )
}
