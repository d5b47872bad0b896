import { RECOMMENDED_LIST_SIZES, type ViewportType } from '../../app/routing'

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
