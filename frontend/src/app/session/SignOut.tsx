// Signing out: POST /logout (JSON with the CSRF header, the gateway's rule for a state change) ends this
// brand's session, `?everywhere=true` every session of the user; then the browser loads this brand's home page as a
// new document, whose bootstrap is a visitor's, so the header shows "Log in" at once.
import { useState } from 'react'
import { CORRELATION_HEADER, CSRF_HEADER, newCorrelationId } from '../api/correlation'
import { useTranslation } from '../i18n'

export const LOGOUT_PATH = '/logout'

export interface SignOutDeps {
  fetch: typeof fetch
  /** Leaves the page for a new document. */
  goTo: (url: string) => void
}

const browser: SignOutDeps = {
  fetch: (input, init) => fetch(input, init),
  goTo: (url) => window.location.assign(url),
}

/** Ends the session (here, or everywhere); answers false when the gateway did not, and the page stays. */
export async function signOut(everywhere: boolean, deps: SignOutDeps = browser): Promise<boolean> {
  let response: Response
  try {
    response = await deps.fetch(everywhere ? `${LOGOUT_PATH}?everywhere=true` : LOGOUT_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1', [CORRELATION_HEADER]: newCorrelationId() },
      body: '{}',
    })
  } catch {
    return false
  }
  if (!response.ok) return false
  deps.goTo('/')
  return true
}

/** "Sign out" and, beside it, "Sign out everywhere": in the account menu and on /account. */
export function SignOutControls({ deps, className = 'sign-out' }: { deps?: SignOutDeps; className?: string }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  async function run(everywhere: boolean) {
    setBusy(true)
    setFailed(false)
    if (!(await signOut(everywhere, deps))) {
      setFailed(true)
      setBusy(false)
    }
  }
  return (
    <div className={className}>
      <button type="button" className="button sign-out__here" disabled={busy} onClick={() => void run(false)}>
        {t('navigation.sign_out')}
      </button>
      <button type="button" className="button button--link sign-out__everywhere" disabled={busy} onClick={() => void run(true)}>
        {t('navigation.sign_out_everywhere')}
      </button>
      {failed ? (
        <p role="alert" className="notice notice--error">
          {t('navigation.sign_out_failed')}
        </p>
      ) : null}
    </div>
  )
}
