// Signup, upgrade and one-click upsell result routes.
import { UPSELL_TRACKING_COOKIES } from '../../../app/routing/constants'
import { HttpError, loaderErrorOutcome } from '../../../app/routing/errors'
import type { RouteInput, TenantConfig, WelcomeData } from '../../../app/routing/context'
import { page, redirect, type RouteOutcome } from '../../../app/routing/outcome'
import { guarded, isMultisiteSiteId } from '../../../app/routing/table'
import { withQuery } from '../../../app/routing/query'
import { upgradeBackgroundImage } from '../../../app/routing/viewport'

export { isMultisiteSiteId } from '../../../app/routing/table'

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

export interface UpsellResultData {
  /** outgoingUpsellOneclickTracking's status: true on the success route, false on the failure route. */
  status: boolean
  /** Cookie set when the tracking call returns a redirectUrl. */
  cookieName: string
}

/** /_upsell_signupsuccess */
export function upsellSignupSuccessRule(): RouteOutcome<UpsellResultData> {
  return page('oneClickUpsellSuccess', { status: true, cookieName: UPSELL_TRACKING_COOKIES.success })
}

/** /_upsell_signupdenial */
export function upsellSignupDenialRule(): RouteOutcome<UpsellResultData> {
  return page('oneClickUpsellFailure', { status: false, cookieName: UPSELL_TRACKING_COOKIES.failure })
}

export interface OutgoingUpsellData {
  epochUpsellId: string | null
  segpayUpsellId: string | null
  rgUpsellId: string | null
  tourLinkCode: string | null
  memberLink: string | null
  gasCid: string | null
  confirmed: string | null
}

/** /oneclick/outgoing-upsell */
export function outgoingUpsellRule({ query }: RouteInput): RouteOutcome<OutgoingUpsellData> {
  return page('outgoingUpsellOneClick', {
    epochUpsellId: query.get('epoch_upsellid'),
    segpayUpsellId: query.get('segpay_upsellid'),
    rgUpsellId: query.get('rg_upsellid'),
    tourLinkCode: query.get('tour_link_code'),
    memberLink: query.get('member_link'),
    gasCid: query.get('gas_cid'),
    confirmed: query.get('confirmed'),
  })
}
