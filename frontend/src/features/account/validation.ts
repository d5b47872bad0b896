// The account forms' rules (product.md, "Validation rules"), the same as the profile service's validation.rs, which
// enforces them again: e-mail, password, username, the VIP form, and the e-mail consent prompt's exclusions.
import { t } from '../../app/i18n'
import './copy'

/** The two internal test domains: their accounts are never asked for e-mail consent. */
export const INTERNAL_TEST_DOMAINS = ['paysite.test', 'qa.paysite.test'] as const
/** The studio's placeholder domain of VIP accounts not yet converted. */
export const VIP_PLACEHOLDER_DOMAIN = 'vip.paysite.test'

export const INVALID_EMAIL_MESSAGE = t('vip_modal.invalid_email')
export const PASSWORD_RULE_MESSAGE = t('vip_modal.invalid_password')
export const INVALID_USERNAME_MESSAGE = t('account.username.invalid')

const LOCAL_CHARS = /^[A-Za-z0-9._%+-]+$/
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/

/** product.md, "Validation rules": 6 to 254 characters; the internal test pattern or the general one; local part ≤ 64, each label ≤ 63. */
export function isValidEmail(email: string): boolean {
  const length = [...email].length
  if (length < 6 || length > 254) return false
  const at = email.lastIndexOf('@')
  if (at <= 0) return false
  const local = email.slice(0, at)
  const domain = email.slice(at + 1)
  if (local.length > 64 || !LOCAL_CHARS.test(local)) return false
  const labels = domain.split('.')
  if (!labels.every((label) => label.length <= 63 && LABEL.test(label))) return false
  if (INTERNAL_TEST_DOMAINS.some((test) => domain.toLowerCase() === test)) return true
  const tld = labels[labels.length - 1] ?? ''
  return /[A-Za-z0-9]$/.test(local) && labels.length >= 2 && /^[A-Za-z]{2,}$/.test(tld)
}

/** The e-mail input checks on blur; empty counts as valid there (the submit still needs one). */
export function emailFieldError(email: string): string | null {
  return email === '' || isValidEmail(email) ? null : INVALID_EMAIL_MESSAGE
}

/** product.md, "Validation rules": letters and numbers only, 8 to 32 characters. */
export function isValidPassword(password: string): boolean {
  return /^[A-Za-z0-9]{8,32}$/.test(password)
}

/** product.md, "Validation rules": 3 to 20 lower-case letters and numbers. */
export function isValidUsername(username: string): boolean {
  return /^[a-z0-9]{3,20}$/.test(username)
}

/** What the VIP form sends: lower-cased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

export interface VipFormErrors {
  email: string | null
  password: string | null
}

/** product.md, "Validation rules": the e-mail, lower-cased and trimmed, is valid and not on the placeholder domain. */
export function vipEmailError(email: string): string | null {
  const normalized = normalizeEmail(email)
  return isValidEmail(normalized) && !normalized.endsWith(VIP_PLACEHOLDER_DOMAIN) ? null : INVALID_EMAIL_MESSAGE
}

/** product.md, "Validation rules": a valid e-mail not on the placeholder domain, and a password of the password rule. */
export function vipFormErrors(email: string, password: string): VipFormErrors {
  return {
    email: vipEmailError(email),
    password: isValidPassword(password) ? null : PASSWORD_RULE_MESSAGE,
  }
}

/** product.md, "The error catalogue": the VIP form's answer codes and what each says; anything else is the generic failure with support. */
export function vipErrorMessage(code: string | null | undefined): { message: string; support: boolean } {
  switch (code) {
    case 'EMAIL_ALREADY_EXISTS':
      return { message: t('vip_modal.EMAIL_ALREADY_EXISTS'), support: false }
    case 'INVALID_EMAIL':
      return { message: t('vip_modal.INVALID_EMAIL'), support: false }
    case 'INVALID_PASSWORD':
      return { message: PASSWORD_RULE_MESSAGE, support: false }
    default:
      return { message: t('vip_modal.failed'), support: true }
  }
}

/**
 * The e-mail consent texts (product.md, "Account and profile"): guests and tandem users read their variant. Whether the prompt opens is the profile
 * service's rule (shouldRequestEmailConsent, which leaves out the internal test domains); the shell opens it on that.
 */
export type EmailConsentVariant = 'guest' | 'tandem' | 'member'

export function emailConsentVariant(facts: { isGuest: boolean; isTandem: boolean }): EmailConsentVariant {
  if (facts.isGuest) return 'guest'
  if (facts.isTandem) return 'tandem'
  return 'member'
}

/** The consent text kept as evidence with the answer (consentHtmlSnippet). */
export function emailConsentText(variant: EmailConsentVariant): string {
  switch (variant) {
    case 'guest':
      return t('account.email_consent.text_guest')
    case 'tandem':
      return t('account.email_consent.text_tandem')
    case 'member':
      return t('account.email_consent.text_member')
  }
}
