// Content after the page's first screenful: rendered in a background pass right after the page is first painted,
// not in the same render. The first paint then holds only what leads the page (its heading and first shelf or the
// player and the video's details), so it is ready sooner on a slow phone, and the later part's images and queries
// start behind the first screen's instead of competing with them. Until then a placeholder keeps the footer out of
// view, so nothing visible moves when the rest arrives.
import { useDeferredValue, type ReactNode } from 'react'

export function Deferred({ children, minHeight = '100vh' }: { children: ReactNode; minHeight?: string }) {
  // React 19: the first render sees `false`, then React re-renders with `true` at background priority.
  const ready = useDeferredValue(true, false)
  return ready ? <>{children}</> : <div className="deferred-placeholder" style={{ minHeight }} aria-hidden="true" />
}
