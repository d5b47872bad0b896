// A page whose content the server refused this user (the loader's `denied`): instead of the screen, what is locked
// and the way in, from the unlocks feature (a chunk of its own, loaded only when a page is locked).
import { lazy, Suspense, type ComponentType } from 'react'
import { useLoaderData } from 'react-router'
import type { PageOutcome } from './routing'

const LockedPage = lazy(() => import('../features/unlocks/components/LockedPage').then((m) => ({ default: m.LockedPage })))

/** The route's component: its screen, or the locked page when the loader found the content refused. */
export function screenOrLocked(Screen: ComponentType): ComponentType {
  function ScreenOrLocked() {
    const page = useLoaderData() as PageOutcome<Record<string, unknown>> | undefined
    if (!page?.denied) return <Screen />
    return (
      <Suspense fallback={<div className="page-loading" />}>
        <LockedPage screen={page.screen} data={page.data} />
      </Suspense>
    )
  }
  ScreenOrLocked.displayName = `Locked(${Screen.displayName ?? Screen.name})`
  return ScreenOrLocked
}
