// How many cards each home shelf shows, and how its grid lays them out, so every row is full (no orphan card).
// The sizes are the spec's (product.md, "Business constants and limits"): lists large 6, medium 4, small 3 (the tenant's paginationListSizes), recommended lists
// 9, 6, 3. The shelves' grids (components/Shelf/Shelf.css, PerformerCard.css) have columns that divide them: phones
// (small) scroll one row sideways; medium screens (481–1024 px) show video rows of 2 and model rows of 4; large
// screens (from 1025 px) video rows of 3 and model rows of 6.
import { RECOMMENDED_LIST_SIZES, type TenantConfig, type ViewportType } from '../../app/routing'

export type ShelfSizeClass = 'small' | 'medium' | 'large'

/** Which of the spec's list sizes a viewport shows. */
export function shelfSizeClass(viewport: ViewportType): ShelfSizeClass {
  switch (viewport) {
    case 'xsmall':
    case 'small':
      return 'small'
    case 'medium':
    case 'large':
      return 'medium'
    case 'xlarge':
    case 'huge':
    case 'boundary':
      return 'large'
  }
}

/** How many videos a recommendation shelf (recommended, top rated) shows (product.md, "Business constants and limits": 9 large, 6 medium, 3 small). */
export function shelfSize(viewport: ViewportType): number {
  return RECOMMENDED_LIST_SIZES[shelfSizeClass(viewport)]
}

/** How many cards a list shelf (latest videos, popular models) shows: the tenant's list size (product.md, "Business constants and limits": 6, 4, 3). */
export function listShelfSize(viewport: ViewportType, tenant: Pick<TenantConfig, 'paginationListSizes'>): number {
  return tenant.paginationListSizes[shelfSizeClass(viewport)]
}

/** The columns of a shelf's grid on this viewport; null where the shelf is one row scrolling sideways (phones). */
export function shelfColumns(viewport: ViewportType, cards: 'videos' | 'performers'): number | null {
  const sizeClass = shelfSizeClass(viewport)
  if (sizeClass === 'small') return null
  if (cards === 'videos') return sizeClass === 'medium' ? 2 : 3
  return sizeClass === 'medium' ? 4 : 6
}

/**
 * The first `size` items, cut to whole rows of `columns` (an answer shorter than asked, or a configured size that
 * does not divide, never leaves a card alone on its row); fewer than one row stays as it is.
 */
export function fullRows<T>(items: readonly T[], size: number, columns: number | null): T[] {
  const shown = items.slice(0, size)
  if (columns === null || shown.length < columns) return shown
  return shown.slice(0, shown.length - (shown.length % columns))
}

/**
 * How many items the home query asks for per shelf: what the viewport the page loaded for shows (the recommended
 * videos, the top rated and the models share one limit; the latest videos have their own), not the widest screen's —
 * a phone asks for 3 instead of 9. A window widened later keeps what it loaded until the next visit of the page.
 */
export function homeShelfLimit(viewport: ViewportType, tenant: Pick<TenantConfig, 'paginationListSizes'>): number {
  return Math.max(shelfSize(viewport), listShelfSize(viewport, tenant))
}
