// Where the header's gems balance goes: loaded with the gems feature, only for a signed-in user.
import { lazy, Suspense } from 'react'
import type { RoutingSession } from '../session/bootstrap'

const HeaderGems = lazy(() => import('../../features/gems/components/GemsEntry'))

export function GemsEntrySlot({ session }: { session: RoutingSession }) {
  if (!session.user.isAuthenticated) return null
  return (
    <Suspense fallback={null}>
      <HeaderGems session={session} />
    </Suspense>
  )
}
