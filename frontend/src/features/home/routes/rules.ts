// The home route and /tube2, which sends its visitor home: their rules (config/routes.json rows: ./rows.json).
import { ABILITIES, page, type RouteInput, type RouteOutcome, tableOnly, type ViewportType } from '../../../app/routing'

export interface Flash {
  type: 'success' | 'error'
  /** Translation key of the message. */
  message: string
}

export interface HomeData {
  flash: Flash | null
  openModal: 'PurchaseMembership' | null
  /** Which subscription-status action the visit triggers, if any. */
  subscriptionStatusAction: 'reactivation' | 'fromJoinnow' | null
  /** The viewport the page was loaded for: the home query asks for that viewport's share of each shelf (product.md, "Business constants and limits"). */
  viewportType: ViewportType
}

function homeFlash(query: URLSearchParams): Flash | null {
  const deviceChallenge = query.get('dc')
  if (deviceChallenge === 'approved' || deviceChallenge === 'blocked') {
    return { type: 'success', message: `deviceChallenge.${deviceChallenge}` }
  }
  const notification = query.get('notification')
  if (notification === 'upgradesuccess') return { type: 'success', message: 'notification.upgradesuccess' }
  if (notification === 'upgradedenial') return { type: 'error', message: 'notification.upgradedenial' }
  return null
}

/** / : flashes, the upgrade modal and subscription-status actions come from the query. */
export function homeRule({ query, user, viewportType }: RouteInput): RouteOutcome<HomeData> {
  const [action, subject] = ABILITIES.seePurchaseMembershipModal
  const openModal =
    query.get('modal') === 'upgrade' && user.profile?.isSubscribed === true && user.can(action, subject)
      ? 'PurchaseMembership'
      : null
  const subscriptionStatusAction =
    query.get('reactivation') === 'success' && user.isAuthenticated && user.profile?.isActive !== true
      ? 'reactivation'
      : query.get('from') === 'joinnow'
        ? 'fromJoinnow'
        : null
  return page('home', { flash: homeFlash(query), openModal, subscriptionStatusAction, viewportType })
}

/** /tube2: home, keeping the query. */
export const tube2Rule = tableOnly('/tube2')
