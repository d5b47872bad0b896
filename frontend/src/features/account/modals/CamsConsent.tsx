// CamsConsent, an account modal (product.md, "Account and profile"): the member agrees to share their e-mail with
// the cams partner before /cams sends anything.
import { useMutation } from '@apollo/client/react'
import { useFlash } from '../../../app/shell/Flash'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { GiveCamsConsentDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

export function CamsConsent({ props, close }: ModalBodyProps<'CamsConsent'>) {
  const flashes = useFlash()
  const [consent, { loading }] = useMutation(GiveCamsConsentDocument)
  // Back to /cams with its query (click id, tour link code): a full load, so the page's profile has the answer.
  // Only a /cams path: the consent never sends the member anywhere else.
  const next = props.next?.startsWith('/cams') ? props.next : '/cams'
  async function agree() {
    try {
      await consent()
      window.location.assign(next)
    } catch {
      flashes.add({ type: 'error', message: t('account.cams.consent_failed') })
    }
  }
  return (
    <div className="cams-consent">
      <p>
        {t('account.cams.intro')}
      </p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={agree} disabled={loading}>
          {t('account.cams.agree')}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('account.cams.not_now')}
        </button>
      </div>
    </div>
  )
}
