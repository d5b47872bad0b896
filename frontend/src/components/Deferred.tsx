// Content after the page's first screenful: rendered once the page has been painted, not in the same render. The
// first paint then holds only what leads the page (its heading and first shelf, or the player and the video's
// details), so it is ready sooner on a slow phone, and the later part's images and queries start behind the first
// screen's instead of competing with them. The later render is a transition (React works on it in slices, so the page
// stays responsive). Until then a placeholder keeps the footer out of view, so nothing visible moves when it arrives.
import { startTransition, useEffect, useState, type ReactNode } from 'react'

/** Calls back once the next frame has been painted (at once in a hidden tab, which paints no frames). */
export function afterNextPaint(callback: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    const timer = setTimeout(callback, 0)
    return () => clearTimeout(timer)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  // A rAF callback runs just before the frame is painted; a task queued from it runs after.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

export function Deferred({ children, minHeight = '100vh' }: { children: ReactNode; minHeight?: string }) {
  const [ready, setReady] = useState(false)
  useEffect(() => afterNextPaint(() => startTransition(() => setReady(true))), [])
  return ready ? <>{children}</> : <div className="deferred-placeholder" style={{ minHeight }} aria-hidden="true" />
}
