// The deals' modals: OneClickConsent (partnerName, price, oneClickUrl, src) and ConfirmOutgoingUpsell (component,
// confirmationLink, confirmationTitle, description, price), product.md, "Deals, offers and upsells".
import type { ModalBodyProps, UpsellPrice } from '../../app/shell/modalIds'
import { leavePage } from './leavePage'
import { t } from '../../app/i18n'
import '../../app/i18n/copy/deals'
import { translateRich } from '../../app/i18n/rich'

/** A text worth showing: not absent, not blank. */
const text = (value: string | null | undefined) => (value?.trim() ? value : null)
const priceText = (value: UpsellPrice | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object') return String(value)
  return [value.initial, value.recurring].filter((part) => part !== null).join(t('deals.price_then')) || null
}

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

export function ConfirmOutgoingUpsell({ props, close }: ModalBodyProps<'ConfirmOutgoingUpsell'>) {
  const link = text(props.confirmationLink)
  const price = priceText(props.price)
  return (
    <div className="confirm-upsell" data-component={text(props.component) ?? undefined}>
      {text(props.description) ? <p>{props.description}</p> : null}
      {price ? <p data-testid="upsell-price">{t('deals.price', { price })}</p> : null}
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!link} onClick={() => link && leavePage(link)}>
          {t('deals.confirm_purchase')}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  )
}
