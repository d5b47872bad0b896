import { BREAKPOINTS, UPGRADE_BACKGROUND_IMAGES } from './constants'
import type { ViewportType } from './context'

const ORDER = ['xsmall', 'small', 'medium', 'large', 'xlarge', 'huge'] as const

/** Each breakpoint is the widest viewport of its type; wider than huge is the boundary type. */
export function viewportTypeForWidth(width: number): ViewportType {
  for (const type of ORDER) if (width <= BREAKPOINTS[type]) return type
  return 'boundary'
}

export type UpgradeBackgroundSize = keyof typeof UPGRADE_BACKGROUND_IMAGES

/** Upgrade page background: large image for boundary, huge, xlarge and large; medium for medium; small otherwise. */
export function upgradeBackgroundSize(viewport: ViewportType): UpgradeBackgroundSize {
  switch (viewport) {
    case 'boundary':
    case 'huge':
    case 'xlarge':
    case 'large':
      return 'large'
    case 'medium':
      return 'medium'
    case 'small':
    case 'xsmall':
      return 'small'
  }
}

export function upgradeBackgroundImage(viewport: ViewportType) {
  const size = upgradeBackgroundSize(viewport)
  return { size, ...UPGRADE_BACKGROUND_IMAGES[size] }
}
