// Flash notifications (product.md, "Modals and flashes"): type, message or translation key, dismissAfter (default 10 000 ms); a flash equal to
// one already shown is suppressed.
import { FLASH_DISMISS_AFTER_MS } from '../routing'
import type { TranslationKey } from '../i18n'

export type FlashType = 'success' | 'error' | 'info' | 'warning'

export interface FlashInput {
  type: FlashType
  /** Literal text, e.g. a server's message. */
  message?: string
  /** A translation key; preferred over message. */
  translation?: TranslationKey
  values?: Readonly<Record<string, string | number>>
  dismissAfter?: number
}

export interface Flash extends FlashInput {
  id: number
  dismissAfter: number
}

export const flashKey = (flash: FlashInput) =>
  JSON.stringify([flash.type, flash.translation ?? null, flash.message ?? null, flash.values ?? null])

export function isDuplicate(shown: readonly Flash[], flash: FlashInput): boolean {
  const key = flashKey(flash)
  return shown.some((other) => flashKey(other) === key)
}

/** Adds the flash unless an equal one is showing; answers the same state when suppressed. */
export function addFlash(shown: readonly Flash[], flash: FlashInput, id: number): readonly Flash[] {
  if (isDuplicate(shown, flash)) return shown
  return [...shown, { ...flash, id, dismissAfter: flash.dismissAfter ?? FLASH_DISMISS_AFTER_MS }]
}

export function removeFlash(shown: readonly Flash[], id: number): readonly Flash[] {
  return shown.filter((flash) => flash.id !== id)
}
