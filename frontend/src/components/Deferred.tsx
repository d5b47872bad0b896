// Content after the page's first screenful: rendered once the first screen is complete (painted, and its leading
// images in), not in the same render. The first paint then holds only
// what leads the page (its heading and first shelf, or the player and the video's details), so it is ready sooner on
// a slow phone, and the later part's images and queries start behind the first screen's instead of competing with
// them. The later render is a transition (React works on it in slices, so the page
// stays responsive). Until then a placeholder keeps the footer out of view, so nothing visible moves when it arrives;
// the same placeholder stands while code the later part loads on its first render is on its way.
import { startTransition, Suspense, useEffect, useState, type ReactNode } from 'react'

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

/** The longest the later part waits for the first screen's images. */
export const FIRST_SCREEN_WAIT_MS = 3000

/**
 * Calls back once the first screen is complete: after the next paint, and once the images the page marked as its
 * first screen's (fetchpriority="high") have loaded or failed — at most FIRST_SCREEN_WAIT_MS after that paint.
 */
export function afterFirstScreen(callback: () => void): () => void {
  let done = false
  let cap: ReturnType<typeof setTimeout> | undefined
  const cleanups: Array<() => void> = []
  const finish = () => {
    if (done) return
    done = true
    clearTimeout(cap)
    cleanups.forEach((cleanup) => cleanup())
    callback()
  }
  const cancelPaint = afterNextPaint(() => {
    const pending = [...document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')].filter(
      (image) => !image.complete,
    )
    if (pending.length === 0) return finish()
    let left = pending.length
    const settled = () => {
      left -= 1
      if (left === 0) finish()
    }
    for (const image of pending) {
      image.addEventListener('load', settled, { once: true })
      image.addEventListener('error', settled, { once: true })
      cleanups.push(() => {
        image.removeEventListener('load', settled)
        image.removeEventListener('error', settled)
      })
    }
    cap = setTimeout(finish, FIRST_SCREEN_WAIT_MS)
  })
  return () => {
    done = true
    cancelPaint()
    clearTimeout(cap)
    cleanups.forEach((cleanup) => cleanup())
  }
}

export interface DeferredProps {
  children: ReactNode
  minHeight?: string
  /**
   * The code the later part loads (its lazy components' modules), fetched once the first screen is complete and
   * rendered with it. A lazy component still loading suspends the later part's render: React then renders the part
   * again and again until the code is in (measured on the video page: more than a third more of React's time, ahead
   * of the page going idle).
   */
  code?: () => Promise<unknown>
}

export function Deferred({ children, minHeight = '100vh', code }: DeferredProps) {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let cancelled = false
    const show = () => {
      if (!cancelled) startTransition(() => setReady(true))
    }
    // A failed load renders anyway: the lazy component fails as it would have, to the route's error boundary.
    const cancel = afterFirstScreen(() => (code ? void code().then(show, show) : show()))
    return () => {
      cancelled = true
      cancel()
    }
  }, [code])
  const placeholder = <div className="deferred-placeholder" style={{ minHeight }} aria-hidden="true" />
  // The later part may load its code when it first renders (a lazy component); the placeholder stays until it has.
  return ready ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder
}
