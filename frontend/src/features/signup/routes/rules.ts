// Join, signup and upgrade result routes, and the catch-all that is the join route when the path holds /joinnow
// (rows: ./rows.json).
import {
  guarded,
  HttpError,
  isMultisiteSiteId,
  loaderErrorOutcome,
  page,
  redirect,
  type RouteInput,
  type RouteOutcome,
  type TenantConfig,
  upgradeBackgroundImage,
  type WelcomeData,
  withQuery,
} from '../../../app/routing'

/** Any path containing /joinnow counts as the join route. */
export function isJoinRoute(pathname: string): boolean {
  return pathname.includes('/joinnow')
}

/** /joinnow: visitors only; an authenticated user goes home with from=joinnow. */
export const joinNowRule = guarded('/joinnow', (): RouteOutcome => page('joinNow'))

export interface SignupSuccessData {
  /** Input of getWelcomePagePictureSet: the upper-case brand name. */
  pictureSetSite: string
  isMultisite: boolean
}

/** /_signupsuccess */
export const signupSuccessRule = guarded('/_signupsuccess', ({ user, tenant }): RouteOutcome<SignupSuccessData> =>
  page('signupSuccess', { pictureSetSite: tenant.tenant.toUpperCase(), isMultisite: isMultisiteSiteId(tenant, user.welcome.siteId) }),
)

/**
 * /_signup-extern/{biller}, after GET /_signup-extern/{biller}: a 400 goes to signup denied, another failure goes to
 * the shared loader error handler, success shows the signup-success screen with data.data.
 */
export function signupExternOutcome(
  input: RouteInput,
  response: { status: number; body: unknown },
): RouteOutcome<{ biller: string; signup: unknown }> {
  if (response.status === 400) return redirect('/_signupdenial')
  if (response.status < 200 || response.status >= 300) {
    return loaderErrorOutcome(input, new HttpError(response.status, `Signup extern failed with ${response.status}`))
  }
  const signup = (response.body as { data?: unknown } | null)?.data ?? null
  return page('signupExternal', { biller: input.params.biller ?? '', signup })
}

/** /_signupdenial: a multisite or VP signup goes to offers. */
export const signupDenialRule = guarded('/_signupdenial', (): RouteOutcome => page('signupDenied'))

/** /_upgrademembership */
export const upgradeMembershipRule = guarded(
  '/_upgrademembership',
  ({ viewportType }): RouteOutcome<{ backgroundImage: ReturnType<typeof upgradeBackgroundImage> }> =>
    page('upgradeMembership', { backgroundImage: upgradeBackgroundImage(viewportType) }),
)

export interface WelcomeCheckInput {
  site: string
  memberId: string
  hashedMemberId: string
}

/** welcomeCheck's input: the upper-cased tenant on upgrade success, the plain site on upgrade denial. */
export function welcomeCheckInput(
  result: 'success' | 'denial',
  tenant: Pick<TenantConfig, 'tenant' | 'site'>,
  welcome: WelcomeData,
): WelcomeCheckInput {
  return {
    site: result === 'success' ? tenant.tenant.toUpperCase() : tenant.site,
    memberId: welcome.memberid ?? '',
    hashedMemberId: welcome.hashedMemberId ?? '',
  }
}

/**
 * Home with the autologin token. The notification (and fatr) ride along in the query, which is where the home
 * route reads its flash from.
 */
function upgradeResultRedirect(autologinId: string | null, notification: string, fatr: boolean) {
  const query = new URLSearchParams()
  if (autologinId) query.set('al_token', autologinId)
  query.set('notification', notification)
  if (fatr) query.set('fatr', 'true')
  return redirect(withQuery('/', query))
}

/** /_upgradesuccess renders no page: notification upgradesuccess with fatr=true, to /?al_token={token}. */
export function upgradeSuccessOutcome(autologinId: string | null): RouteOutcome<never> {
  return upgradeResultRedirect(autologinId, 'upgradesuccess', true)
}

/** /_upgradedenial: notification upgradedenial, to /?al_token={token}. */
export function upgradeDenialOutcome(autologinId: string | null): RouteOutcome<never> {
  return upgradeResultRedirect(autologinId, 'upgradedenial', false)
}

/** /parent-redirect: the page redirects with id_token and next. */
export function parentRedirectRule({ query }: RouteInput): RouteOutcome<{ idToken: string | null; next: string | null }> {
  return page('parentRedirect', { idToken: query.get('id_token'), next: query.get('next') })
}

/** A path missing from the route table: the join route if it contains /joinnow, else not-found. */
export const unknownRouteRule = guarded('*', (input): RouteOutcome => joinNowRule(input))
