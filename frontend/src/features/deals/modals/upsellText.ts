// The texts the deals' modals show from their props (OneClickConsent.tsx, ConfirmOutgoingUpsell.tsx).
import type { UpsellPrice } from '../../../app/shell/modalIds'
import { t } from '../../../app/i18n'
import '../copy'

/** A text worth showing: not absent, not blank. */
export const text = (value: string | null | undefined) => (value?.trim() ? value : null)
/** A partner's price as one text (a first and a recurring amount joined). */
export const priceText = (value: UpsellPrice | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object') return String(value)
  return [value.initial, value.recurring].filter((part) => part !== null).join(t('deals.price_then')) || null
}
