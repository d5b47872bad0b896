// The way in of a refused video, loaded only by the members refused one. Its code (the product.md, "Access-denied routing" routing of a refusal, its
// copy, the video access query) was part of every video page's first load, a visitor's too, though only a signed-in
// user whose access does not cover the video renders it (docs/benchmarks.md, "The locked video's way in, lazy").
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react'
import type { LockedVideo as LockedVideoComponent } from './LockedVideo'

const lockedVideoCode = () => import('./LockedVideo')
const LockedVideo = lazy(() => lockedVideoCode().then((module) => ({ default: module.LockedVideo })))

/**
 * Fetches the way in's code ahead of its first render: a member's player asks for it beside the video's tokens, so a
 * refused member waits no longer for the way in than before (the tokens' answer is what says refused).
 */
export function preloadLockedVideo(): void {
  // A failed fetch here is retried by the render, which fails to the route's error boundary as any screen code does.
  void lockedVideoCode().catch(() => undefined)
}

/** LockedVideo, with `fallback` standing in its place while its code loads. */
export function LockedVideoSlot({
  fallback,
  ...props
}: ComponentProps<typeof LockedVideoComponent> & { fallback: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <LockedVideo {...props} />
    </Suspense>
  )
}
