// The viewport type of §9's breakpoints (xsmall 360 … huge 1920), following window resizes.
import { useSyncExternalStore } from 'react'
import { BREAKPOINTS, viewportTypeForWidth, type ViewportType } from '../routing'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}

const currentType = (): ViewportType => viewportTypeForWidth(window.innerWidth)

export function useViewportType(): ViewportType {
  return useSyncExternalStore(subscribe, currentType, () => 'large')
}

/** Mobile is up to the medium breakpoint (768 px): phones and portrait tablets. */
export function isMobileViewport(type: ViewportType): boolean {
  return type === 'xsmall' || type === 'small' || type === 'medium'
}

export const MOBILE_MAX_WIDTH = BREAKPOINTS.medium
