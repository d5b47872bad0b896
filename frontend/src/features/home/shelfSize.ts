import { RECOMMENDED_LIST_SIZES, type ViewportType } from '../../app/routing'
import { isMobileViewport } from '../../app/theme/useViewport'

/** How many videos a recommendation shelf shows (§9: 9 large, 6 medium, 3 small). */
export function shelfSize(viewport: ViewportType): number {
  switch (viewport) {
    case 'xsmall':
    case 'small':
      return RECOMMENDED_LIST_SIZES.small
    case 'medium':
    case 'large':
      return RECOMMENDED_LIST_SIZES.medium
    case 'xlarge':
    case 'huge':
    case 'boundary':
      return RECOMMENDED_LIST_SIZES.large
  }
}

/** How many popular models the home page shows: 4 on phones and tablets, 6 wider. */
export function modelsShown(viewport: ViewportType): number {
  return isMobileViewport(viewport) ? 4 : 6
}

/**
 * How many items the home query asks for per shelf: what the viewport the page loaded for shows (the recommended
 * videos, the top rated and the models share one limit), not the widest screen's 9 — a phone asks for 4 instead of
 * 9 and gets half the answer. A window widened later keeps what it loaded until the next visit of the page.
 */
export function homeShelfLimit(viewport: ViewportType): number {
  return Math.max(shelfSize(viewport), modelsShown(viewport))
}
