// The viewport type of the breakpoints (product.md, "Business constants and limits") (xsmall 360 … huge 1920), following window resizes.
import { useSyncExternalStore } from 'react'
import { BREAKPOINTS, viewportTypeForWidth, type ViewportType } from '../routing'

// The width is read once, then kept by the resize event. Reading window.innerWidth makes Chromium lay the page out
// first whenever the layout is stale, and useSyncExternalStore reads its snapshot again right after React's commit:
// each page load laid the new page out inside the commit's task, before the first paint (docs/benchmarks.md,
// 2026-11-28). A viewport's width changes only with a resize event.
let knownWidth: number | undefined

const refresh = () => {
  knownWidth = window.innerWidth
}

/** The viewport's width in CSS pixels, as window.innerWidth, without a layout to answer it. */
export function viewportWidth(): number {
  if (knownWidth === undefined) {
    refresh()
    window.addEventListener('resize', refresh)
  }
  return knownWidth!
}

function subscribe(onChange: () => void): () => void {
  // Whichever resize listener runs first, the width a subscriber reads is the new one.
  const listener = () => {
    refresh()
    onChange()
  }
  window.addEventListener('resize', listener)
  return () => window.removeEventListener('resize', listener)
}

const currentType = (): ViewportType => viewportTypeForWidth(viewportWidth())

export function useViewportType(): ViewportType {
  return useSyncExternalStore(subscribe, currentType, () => 'large')
}

/** Mobile is up to the medium breakpoint (768 px): phones and portrait tablets. */
export function isMobileViewport(type: ViewportType): boolean {
  return type === 'xsmall' || type === 'small' || type === 'medium'
}

export const MOBILE_MAX_WIDTH = BREAKPOINTS.medium
