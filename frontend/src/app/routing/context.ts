// What every route rule reads: the location, the tenant, the user and a little meta.
// Shapes follow product.md, "Screens and routes".

export interface HealthWarningConfig {
  enabled: boolean
  regionName: string
}

export interface TenantFeatures {
  facetedSearch: boolean
  showAngels: boolean
  showcasesPage: boolean
  reels: boolean
  curator: boolean
  promotionalVideoTeaserModal: { enabled: boolean }
  /** The join form's image A/B test; off (or absent) by default. */
  joinFormImageTest?: { enabled: boolean }
  /** Keyed by region code, e.g. 'US-TX'. */
  healthWarning: Readonly<Record<string, HealthWarningConfig>>
}

/** A brand's look, as config/tenants serves it; the shell maps it onto CSS variables. */
export interface Theme {
  name: string
  wordmark: string
  colors: {
    background: string
    surface: string
    text: string
    mutedText: string
    accent: string
    onAccent: string
  }
  typography: {
    wordmarkFont: string
    headingFont: string
    bodyFont: string
    wordmarkLetterSpacing: string
    headingTransform: string
  }
}

export interface TenantConfig {
  /** Brand key, e.g. 'tushy'. */
  tenant: string
  site: string
  /** e.g. 'tsh' (product.md, "Brands and hosts"): the source of the affiliate campaigns (campaign.ts). */
  abbreviation?: string
  /** The brand's own site id; the combined brand's is one of multisiteSiteIds. */
  siteId?: number
  /** Brand keys of the sister sites this tenant lists under /sites/{brand}/{type}. */
  standaloneSites: readonly string[]
  membersUrl: string
  tourUrl: string
  assetsUrlV2: string
  publicAssets: string
  theme: Theme
  api: { host: string }
  /** Public base URL of the payments service ({payments host}). */
  paymentsHost: string
  paginationListSizes: { large: number; medium: number; small: number }
  headerFeatures: { awardsLink: boolean }
  features: TenantFeatures
  /** The two numeric site ids that count as multisite (spec README): the multisite package and the combined brand. */
  multisiteSiteIds: readonly number[]
}

export interface WelcomeData {
  siteId?: number | string
  memberid?: string
  hashedMemberId?: string
  username?: string
  autologinId?: string
  /** The signup's join option is a trial (the biller's redirect says so). */
  isTrial?: boolean
  /** A decline's reason, as the biller gave it. */
  reason?: string
}

export interface ProfileRoutingView {
  /** The signed-in user's id (the tracking calls carry it beside the e-mail). */
  userId?: string
  email: string | null
  /** profile.state.modals.teaserViewed */
  teaserViewed: boolean
  /** The user has a subscription of any kind (member, trial, porn-portal). */
  isSubscribed: boolean
  /** The subscription is active. */
  isActive: boolean
  // What the shell's automatic modals read (product.md, "Modals and flashes"); absent until the server sends them, and then they open nothing.
  /** member, trial, porn-portal or expired. */
  subscriptionKind?: 'member' | 'trial' | 'porn-portal' | 'expired'
  isGuest?: boolean
  isTandemChild?: boolean
  unlockedChannelPackCount?: number
  /** profile.state.modals.gemsIntro */
  gemsIntroSeen?: boolean
  /** profile.state.modals.texasHealthWarningAcknowledged / alabamaHealthWarningAcknowledged */
  healthWarningAcknowledged?: Readonly<Partial<Record<'US-TX' | 'US-AL', boolean>>>
  /** The profile service's rule: the EmailConsent prompt opens on it (guests and tandem users, no test domains). */
  shouldRequestEmailConsent?: boolean
  /** /cams asks for CamsConsent before anything goes to the partner. */
  shouldRequestCamsConsent?: boolean
  /** subscription.upgradeOptions.isUpgradeableToVixenPlusYearly */
  isUpgradeableToVixenPlusYearly?: boolean
  /** No permanent username yet: the username selection screen is offered. */
  needsUsername?: boolean
}

export interface UserRoutingView {
  isAuthenticated: boolean
  /** The server-computed abilities, asked as a predicate. */
  can(action: string, subject: string): boolean
  profile: ProfileRoutingView | null
  welcome: WelcomeData
}

export type ViewportType = 'xsmall' | 'small' | 'medium' | 'large' | 'xlarge' | 'huge' | 'boundary'

export interface RouteInput {
  /** The path as requested, without query, e.g. '/videos'. */
  pathname: string
  params: Readonly<Record<string, string | undefined>>
  query: URLSearchParams
  tenant: TenantConfig
  user: UserRoutingView
  isMembersArea: boolean
  viewportType: ViewportType
}
