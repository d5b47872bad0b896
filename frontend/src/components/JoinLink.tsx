// A link to the members host's join form, telling it where the visitor came from: ref (the page), elm (the
// element, e.g. 'video-player'), and the stored nats value when there is one.
import type { ReactNode } from 'react'
import { joinUrl } from '../app/routing'
import { useCurrentScreen } from '../app/shell/AutomaticModals'
import { useSession } from '../app/session/SessionContext'
import { documentCookies, storedNats } from '../features/signup/affiliate'

export function JoinLink({ elm, className, children }: { elm: string; className?: string; children: ReactNode }) {
  const { tenant } = useSession()
  const ref = useCurrentScreen() ?? 'home'
  return (
    <a className={className ?? 'button button--accent join-link'} href={joinUrl(tenant.membersUrl, { ref, elm, nats: storedNats(documentCookies()) })}>
      {children}
    </a>
  )
}
