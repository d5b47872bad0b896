// The consent and the buy button of a one-click purchase in the membership modals.
import { useState } from 'react'
import { t } from '../../../app/i18n'
import '../copy'

export function ConsentedPurchase({ text, action, busy, onBuy }: { text: string; action: string; busy: boolean; onBuy: () => void }) {
  const [consent, setConsent] = useState(false)
  return (
    <>
      <label className="account-toggle">
        <input type="checkbox" checked={consent} onChange={(event) => setConsent(event.target.checked)} /> {text}
      </label>
      <div className="modal__actions">
        <button type="button" className="button button--accent" disabled={!consent || busy} aria-busy={busy} onClick={onBuy}>
          {busy ? t('purchase_membership_modal.processing') : action}
        </button>
      </div>
    </>
  )
}
