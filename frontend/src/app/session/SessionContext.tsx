// The routing session (tenant, user, members area) for any component under the root layout.
import { createContext, useContext, type ReactNode } from 'react'
import type { RoutingSession } from './bootstrap'

const SessionContext = createContext<RoutingSession | null>(null)

export function SessionProvider({ session, children }: { session: RoutingSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
}

export function useSession(): RoutingSession {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside SessionProvider')
  return session
}
