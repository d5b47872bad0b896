// /cams before the member agreed to share their e-mail with the cams partner (the profile's shouldRequestCamsConsent):
// nothing has been sent yet; CamsConsent asks, giveCamsConsent records the answer, and /cams is loaded again, which
// now makes the one-click call and leaves for the partner.
import { useEffect, useRef } from 'react'
import { useModals } from '../../../app/shell/ModalManager'
import { Page } from '../../../components/Page'
import { t } from '../../../app/i18n'
import '../copy'

export function CamsScreen() {
  const { open, isOpen } = useModals()
  const opened = useRef(false)
  useEffect(() => {
    if (opened.current || isOpen('CamsConsent')) return
    opened.current = true
    open('CamsConsent', { next: `/cams${window.location.search}` })
  }, [open, isOpen])
  return (
    <Page title={t('deals.cams.title')}>
      <p>{t('deals.cams.intro')}</p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={() => open('CamsConsent', { next: `/cams${window.location.search}` })}>
          {t('deals.cams.continue')}
        </button>
      </div>
    </Page>
  )
}
