// /cams before the member agreed to share their e-mail with the cams partner (the profile's shouldRequestCamsConsent):
// nothing has been sent yet; CamsConsent asks, giveCamsConsent records the answer, and /cams is loaded again, which
// now makes the one-click call and leaves for the partner.
import { useEffect, useRef } from 'react'
import { useModals } from '../../../app/shell/ModalManager'
import { Page } from '../../../components/Page'

export function CamsScreen() {
  const { open, isOpen } = useModals()
  const opened = useRef(false)
  useEffect(() => {
    if (opened.current || isOpen('CamsConsent')) return
    opened.current = true
    open('CamsConsent', { next: `/cams${window.location.search}` })
  }, [open, isOpen])
  return (
    <Page title="Cams">
      <p>Cams are run by our partner. We have not shared anything with them: they hear from us only once you agree.</p>
      <div className="modal__actions">
        <button type="button" className="button button--accent" onClick={() => open('CamsConsent', { next: `/cams${window.location.search}` })}>
          Continue to cams
        </button>
      </div>
    </Page>
  )
}
