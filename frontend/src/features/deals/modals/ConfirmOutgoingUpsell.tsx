// ConfirmOutgoingUpsell, a deals modal (component, confirmationLink, confirmationTitle, description, price),
// product.md, "Deals, offers and upsells".
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { leavePage } from '../leavePage'
import { t } from '../../../app/i18n'
import '../copy'
import { priceText, text } from './upsellText'

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
