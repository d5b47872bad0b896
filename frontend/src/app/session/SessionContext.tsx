// The routing session (tenant, user, members area) for any component under the root layout, and the way a screen
// that signed the user in within this document (the welcome page's autologin) hands the new user to the shell.
import { createContext, useContext, type ReactNode } from 'react'
import type { RoutingSession } from './bootstrap'

const SessionContext = createContext<RoutingSession | null>(null)
const AdoptContext = createContext<(fresh: RoutingSession) => void>(() => undefined)

export function SessionProvider({
  session,
  adopt,
  children,
}: {
  session: RoutingSession
  adopt?: (fresh: RoutingSession) => void
  children: ReactNode
}) {
  return (
    <SessionContext.Provider value={session}>
      <AdoptContext.Provider value={adopt ?? (() => undefined)}>{children}</AdoptContext.Provider>
    </SessionContext.Provider>
  )
}

export function useSession(): RoutingSession {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside SessionProvider')
  return session
}

/** The session, or null outside the root layout (a component rendered alone). */
export function useSessionIfAny(): RoutingSession | null {
  return useContext(SessionContext)
}

/** Takes the user of a session the server started in this document (its page's bootstrap) as the page's own. */
export function useAdoptSession(): (fresh: RoutingSession) => void {
  return useContext(AdoptContext)
}
