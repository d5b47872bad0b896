// The deals' modals: OneClickConsent (partnerName, price, oneClickUrl, src) and ConfirmOutgoingUpsell (component,
// confirmationLink, confirmationTitle, description, price), account-payments-gems.md §3.
import type { ModalBodyProps } from '../../app/shell/ModalHost'
import { leavePage } from './leavePage'

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null)
const priceText = (value: unknown): string | null => {
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (value && typeof value === 'object') {
    const { initial, recurring } = value as { initial?: unknown; recurring?: unknown }
    return [initial, recurring].filter((part) => part !== undefined && part !== null).map(String).join(', then ') || null
  }
  return null
}

export function OneClickConsent({ props, close }: ModalBodyProps) {
  const partner = text(props.partnerName) ?? 'our partner'
  const price = priceText(props.price)
  const url = text(props.oneClickUrl)
  return (
    <div className="one-click-consent">
      {text(props.src) ? <img src={String(props.src)} alt="" width={240} height={135} className="one-click-consent__image" /> : null}
      <p>
        Buy <strong>{partner}</strong> with one click, charged to the card you pay your membership with
        {price ? <> for <strong>{price}</strong></> : null}. Your e-mail address is shared with {partner} to set up your
        account.
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!url} onClick={() => url && leavePage(url)}>
          Yes, buy now
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  )
}

export function ConfirmOutgoingUpsell({ props, close }: ModalBodyProps) {
  const link = text(props.confirmationLink)
  const price = priceText(props.price)
  return (
    <div className="confirm-upsell" data-component={text(props.component) ?? undefined}>
      {text(props.description) ? <p>{String(props.description)}</p> : null}
      {price ? <p data-testid="upsell-price">Price: {price}</p> : null}
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!link} onClick={() => link && leavePage(link)}>
          Confirm purchase
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  )
}
