// The upgrade overlay's place over a locked video. Asking the video itself needs the full CASL ability (7 kB gzip),
// so the overlay loads only for a user who holds the overlay for some videos: visitors and members never fetch it.
import { lazy, Suspense } from 'react'
import { useSession } from '../../../app/session/SessionContext'
// The abilities alone, not prompts.ts: that would load the prompts' rules and copy with every video page.
import { PROMPT_ABILITIES } from '../abilities'

const UpgradeOverlay = lazy(() => import('./UpgradeOverlay').then((module) => ({ default: module.UpgradeOverlay })))

export function UpgradeOverlaySlot({ video }: { video: { uuid: string } }) {
  const { user } = useSession()
  if (!user.can(...PROMPT_ABILITIES.upgradeOverlay)) return null
  return (
    <Suspense fallback={null}>
      <UpgradeOverlay video={video} />
    </Suspense>
  )
}
