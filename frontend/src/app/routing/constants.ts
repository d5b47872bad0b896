// Business constants of the routing spec (product.md, "Business constants and limits"), in one place.

/** Max 32-bit integer: the upper bound of any page number. */
export const MAX_INT32 = 2147483647

export const DEFAULT_PAGE = 1
export const MIN_PAGE = 1
export const PAGE_SIZE = 12
export const DEFAULT_MAX_PAGES = 5
export const VARIABLE_PAGINATION_MAX_PAGES = { mobile: 5, desktop: 10 } as const

export const LIST_SIZES = { large: 6, medium: 4, small: 3 } as const
export const RECOMMENDED_LIST_SIZES = { large: 9, medium: 6, small: 3 } as const
export const OFFERS_GRID_SIZE = 15
export const DEALS_GRID_SIZE = 15
export const DEALS_CAROUSEL_LIMIT = 40
export const FAVOURITE_BATCH_SIZE = 100

/** Breakpoints in px. Each is the widest viewport of its type (see viewport.ts). */
export const BREAKPOINTS = {
  xsmall: 360,
  small: 480,
  medium: 768,
  large: 1024,
  xlarge: 1285,
  huge: 1920,
} as const

export const UPGRADE_BACKGROUND_IMAGES = {
  large: { width: 1400, height: 1024 },
  medium: { width: 1045, height: 1024 },
  small: { width: 320, height: 770 },
} as const

export const PAGE_LOAD_TIMEOUT_MS = 120000
export const PAGE_LOAD_RETRIES = 3
export const ONE_DAY_MS = 86400000
export const FLASH_DISMISS_AFTER_MS = 10000

export const REDIRECT_PERMANENT = 301
export const REDIRECT_DEFAULT = 302
export const DEFAULT_REDIRECT_TARGET = '/'

export const DEFAULT_PERFORMERS_ORDER = 'rating'
export const DEFAULT_PERFORMERS_GENDER = 'girls'
export const FACETED_PERFORMERS_SEX = 'F'

/** The general slug rule (spec README): lower-case letters and digits separated by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/
export const SLUG_MAX_LENGTH = 200

export const SITES_ROUTE_TYPES = ['videos', 'performers'] as const

/** The brand keys come from config/tenants (brands.ts). */
export { BRANDS, VISIBLE_BRANDS } from './brands'

export const HEALTH_WARNING_REGIONS = ['US-TX', 'US-AL'] as const

export const MESSAGES = {
  genericError: 'Something went wrong! We are working to fix this as soon as possible.',
  confirmationLinkMissing: 'Outgoing upsell - Confirmation link is missing',
  camsUrlFailed: 'Failed to fetch cams oneclick url',
  unexpectedHost: 'Received unexpected host string',
} as const

export const UPSELL_TRACKING_COOKIES = {
  success: 'outgoing_upsell_oneclick_success',
  failure: 'outgoing_upsell_oneclick_fallback',
} as const

/** Abilities the route table names, as (action, subject) pairs of the server-computed rule list. */
export const ABILITIES = {
  seeChannels: ['see', 'Channels'],
  seeChannelTrailers: ['see', 'ChannelTrailers'],
  seeInternalChannelTrailers: ['see', 'InternalChannelTrailers'],
  seeRecommendationShelf: ['see', 'RecommendationShelf'],
  seePurchaseMembershipModal: ['see', 'PurchaseMembershipModal'],
} as const satisfies Record<string, readonly [string, string]>
