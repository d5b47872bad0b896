// Where the upgrade and porn-portal bars go, above the page. The bars load with their feature, only for a signed-in
// user whose abilities hold one of them (product.md, "Roles and abilities"): everyone else's first page carries none of it.
import { lazy, Suspense } from 'react'
import type { RoutingSession } from '../session/bootstrap'

const PromptBars = lazy(() => import('../../features/upgrade/components/PromptBars'))

export function PromptBarSlot({ session }: { session: RoutingSession }) {
  const { user } = session
  if (!user.isAuthenticated || !(user.can('see', 'UpgradeBar') || user.can('see', 'PornPortalBar'))) return null
  return (
    <Suspense fallback={null}>
      <PromptBars />
    </Suspense>
  )
}
