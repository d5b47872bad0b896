// Test fixtures for the routing rules: a tenant with every feature off, an anonymous visitor.
import type { ProfileRoutingView, RouteInput, TenantConfig, TenantFeatures, UserRoutingView, WelcomeData } from './context'

export const MULTISITE_ID = 901
export const VIXENPLUS_ID = 910

export function tenantConfig(
  overrides: Partial<Omit<TenantConfig, 'features'>> & { features?: Partial<TenantFeatures> } = {},
): TenantConfig {
  const { features, ...rest } = overrides
  return {
    tenant: 'tushy',
    site: 'tushy',
    abbreviation: 'tsh',
    standaloneSites: ['blacked', 'tushy', 'vixen'],
    membersUrl: 'https://members.tushy.com',
    tourUrl: 'https://www.tushy.com',
    assetsUrlV2: 'https://assets.example.test',
    publicAssets: 'https://public.example.test',
    theme: {
      name: 'tushy',
      wordmark: 'TUSHY',
      colors: {
        background: '#ffffff',
        surface: '#f4f4f5',
        text: '#111827',
        mutedText: '#6b7280',
        accent: '#0f766e',
        onAccent: '#ffffff',
      },
      typography: {
        wordmarkFont: 'Georgia, serif',
        headingFont: 'Georgia, serif',
        bodyFont: 'system-ui, sans-serif',
        wordmarkLetterSpacing: '0.3em',
        headingTransform: 'uppercase',
      },
    },
    api: { host: 'https://api.example.test' },
    paymentsHost: 'https://payments.example.test',
    paginationListSizes: { large: 6, medium: 4, small: 3 },
    headerFeatures: { awardsLink: false },
    multisiteSiteIds: [MULTISITE_ID, VIXENPLUS_ID],
    ...rest,
    features: {
      facetedSearch: false,
      showAngels: false,
      showcasesPage: false,
      reels: false,
      curator: false,
      promotionalVideoTeaserModal: { enabled: false },
      healthWarning: {},
      ...features,
    },
  }
}

export interface UserFixture {
  isAuthenticated?: boolean
  /** Granted abilities as 'action Subject', e.g. 'see Channels'. */
  abilities?: string[]
  profile?: Partial<ProfileRoutingView> | null
  welcome?: WelcomeData
}

export function userView({ isAuthenticated = false, abilities = [], profile, welcome = {} }: UserFixture = {}): UserRoutingView {
  return {
    isAuthenticated,
    can: (action, subject) => abilities.includes(`${action} ${subject}`),
    profile:
      profile === null || (profile === undefined && !isAuthenticated)
        ? null
        : { email: 'member@example.test', teaserViewed: true, isSubscribed: true, isActive: true, ...profile },
    welcome,
  }
}

export const member = (fixture: Omit<UserFixture, 'isAuthenticated'> = {}) => userView({ ...fixture, isAuthenticated: true })

/** Builds a rule's input from a URL such as '/videos?page=2'. */
export function routeInput(
  url: string,
  {
    params = {},
    tenant = tenantConfig(),
    user = userView(),
    isMembersArea = false,
    viewportType = 'large',
  }: Partial<Omit<RouteInput, 'pathname' | 'query'>> = {},
): RouteInput {
  const { pathname, searchParams } = new URL(url, 'https://www.tushy.com')
  return { pathname, query: searchParams, params, tenant, user, isMembersArea, viewportType }
}

/** Standard base64 of the UTF-8 JSON of a value, as the deals confirmation query carries it. */
export function base64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  return btoa(String.fromCharCode(...bytes))
}
