// EmailConsent, an account modal (product.md, "Account and profile"), with its guest and tandem variants.
import { useApolloClient } from '@apollo/client/react'
import { useState } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { sendEmailConsent } from '../api/rest'
import { emailConsentText, type EmailConsentVariant } from '../validation'
import { t } from '../../../app/i18n'
import '../copy'
import { translateRich } from '../../../app/i18n/rich'

export function EmailConsent({ props, close }: ModalBodyProps<'EmailConsent'>) {
  const variant: EmailConsentVariant = props.variant ?? 'member'
  const flashes = useFlash()
  const client = useApolloClient()
  const [busy, setBusy] = useState(false)
  const text = emailConsentText(variant)

  async function answer(consent: boolean) {
    if (busy) return
    setBusy(true)
    const ok = await sendEmailConsent(consent, `<p>${text}</p>`)
    setBusy(false)
    if (ok) {
      flashes.add({ type: 'success', translation: 'account.flash_email_consent_updated' })
      await client.refetchQueries({ include: 'active' }).catch(() => undefined)
      close()
    } else {
      flashes.add({ type: 'error', translation: 'account.flash_unknown_error' })
    }
  }

  return (
    <div className="email-consent" data-variant={variant}>
      <p>{text}</p>
      <p className="muted">
        {translateRich('account.legal.read', {
          terms: <a href="/terms">{t('account.legal.terms')}</a>,
          privacy: <a href="/privacy">{t('account.legal.privacy')}</a>,
        })}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={() => answer(true)} disabled={busy}>
          {t('account.email_consent.agree')}
        </button>
        <button type="button" className="button" onClick={() => answer(false)} disabled={busy}>
          {t('account.email_consent.decline')}
        </button>
      </div>
    </div>
  )
}
