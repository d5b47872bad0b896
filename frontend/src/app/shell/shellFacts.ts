// The facts the automatic modals decide on, gathered from the session, the page and the browser.
import type { ScreenId } from '../routing'
import type { RoutingSession } from '../session/bootstrap'
import type { AutoModalFacts, HealthWarningRegion } from './autoModals'

/** A query that reports a signup (or upgrade) result holds back the gems intro. */
export function hasSignupNotification(query: URLSearchParams): boolean {
  return query.has('notification') || query.get('reactivation') === 'success' || query.get('from') === 'joinnow'
}

export function autoModalFacts(
  session: Pick<RoutingSession, 'user' | 'region'>,
  screen: ScreenId,
  query: URLSearchParams,
  acknowledgedHere: Readonly<Partial<Record<HealthWarningRegion, boolean>>>,
): AutoModalFacts {
  const { user } = session
  const profile = user.isAuthenticated ? user.profile : null
  const fromProfile = profile?.healthWarningAcknowledged ?? {}
  return {
    screen,
    isAuthenticated: user.isAuthenticated,
    isGuest: profile?.isGuest === true,
    subscription: profile?.isSubscribed
      ? { kind: profile.subscriptionKind ?? 'member', active: profile.isActive }
      : null,
    signupNotification: hasSignupNotification(query),
    unlockedChannelPackCount: profile?.unlockedChannelPackCount ?? 0,
    // Unknown counts as seen: without the profile's flag the intro would open on every visit.
    gemsIntroSeen: profile?.gemsIntroSeen ?? true,
    gemsModalShownWithinDay: false,
    isTandemChild: profile?.isTandemChild === true,
    promotionalTeaserViewed: profile?.teaserViewed ?? true,
    emailConsentRequested: profile?.shouldRequestEmailConsent === true,
    region: session.region ?? null,
    healthWarningAcknowledged: {
      'US-TX': fromProfile['US-TX'] === true || acknowledgedHere['US-TX'] === true,
      'US-AL': fromProfile['US-AL'] === true || acknowledgedHere['US-AL'] === true,
    },
  }
}
