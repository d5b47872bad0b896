//! The profile service's internal routes, each declared once: the service's router mounts
//! them, its gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): the
//! gateway signs users in with its service token; only the subscription service's token gets
//! autologin tokens and accounts; e-mails go to services and admins; a user's own profile to
//! its user.

use runtime::auth::{Access, Route};

/// Exchanges a sign-in code for tokens: the gateway's service token.
pub const EXCHANGE_CODE: Route = Route::post("/internal/oidc/token", Access::Service);
/// Refreshes a session's tokens: the gateway's service token.
pub const REFRESH: Route = Route::post("/internal/oidc/refresh", Access::Service);
/// Ends a session (or every session of its user): the gateway's service token.
pub const LOGOUT: Route = Route::post("/internal/oidc/logout", Access::Service);
/// Redeems an autologin token (`/?al_token=`): the gateway's service token.
pub const REDEEM_AUTOLOGIN: Route = Route::post("/internal/oidc/autologin", Access::Service);
/// Where to send a signed-in user switching sites: that user's token.
pub const CROSS_SITE: Route = Route::post("/internal/oidc/xsite", Access::User);
/// A tandem child's sign-in through its parent: the gateway's service token.
pub const PARENT_REDIRECT: Route = Route::post("/internal/oidc/parent-redirect", Access::Service);
/// Issues an autologin token after a signup or an upgrade: the subscription service's token.
pub const ISSUE_AUTOLOGIN: Route = Route::post("/internal/autologin-tokens", Access::Service);
/// Creates an account when a biller approves a signup: the subscription service's token.
pub const CREATE_ACCOUNT: Route = Route::post("/internal/accounts", Access::Service);
/// The join form's username check, before the visitor pays (the subscription service).
pub const CHECK_ACCOUNT: Route = Route::post("/internal/accounts/check", Access::Service);
/// The gateway loads the sessions ended lately into its revocation set at start.
pub const REVOKED_SESSIONS: Route = Route::get("/internal/sessions/revoked", Access::Service);
/// Many users' identity and e-mail in one call: a service, or an admin's token.
pub const USERS: Route = Route::get("/internal/users", Access::ServiceOrAdmin);
/// Many users' badges and user type in one call: anyone the gateway vouches for.
pub const PUBLIC_PROFILES: Route = Route::get("/internal/users/public", Access::Any);
/// Grants or revokes a group of `{user_id}`: an admin's token (the handler checks the group).
pub const SET_GROUP: Route = Route::post("/internal/users/{user_id}/groups", Access::User);
/// Replaces the special attributes of `{user_id}`: an admin's token (the handler checks the
/// group).
pub const SET_SPECIAL_ATTRIBUTES: Route = Route::post("/internal/users/{user_id}/special-attributes", Access::User);
/// The signed-in user's own profile (findOneUserProfile's part): that user's token.
pub const OWN_PROFILE: Route = Route::get("/internal/profile", Access::User);
/// Sets the display name: the user's own token.
pub const SET_DISPLAY_NAME: Route = Route::post("/internal/profile/display-name", Access::User);
/// Turns autoplay on or off: the user's own token.
pub const UPDATE_USER_AUTOPLAY: Route = Route::post("/internal/profile/autoplay", Access::User);
/// Sets the e-mail consent: the user's own token.
pub const SET_EMAIL_CONSENT: Route = Route::post("/internal/profile/email-consent", Access::User);
/// Gives the terms consent: the user's own token.
pub const GIVE_TERMS_CONSENT: Route = Route::post("/internal/profile/terms-consent", Access::User);
/// Gives the cams consent: the user's own token.
pub const GIVE_CAMS_CONSENT: Route = Route::post("/internal/profile/cams-consent", Access::User);
/// Sets the relationship status and role: the user's own token.
pub const SET_RELATIONSHIP: Route = Route::post("/internal/profile/relationship", Access::User);
/// Acknowledges the gems intro: the user's own token.
pub const ACKNOWLEDGE_GEMS_INTRO: Route = Route::post("/internal/profile/gems-intro", Access::User);
/// Acknowledges the promotional teaser: the user's own token.
pub const ACKNOWLEDGE_PROMOTIONAL_TEASER: Route = Route::post("/internal/profile/promotional-teaser", Access::User);
/// Acknowledges a state's health warning: the user's own token.
pub const ACKNOWLEDGE_HEALTH_WARNING: Route = Route::post("/internal/profile/health-warning", Access::User);
/// Chooses the permanent username: the user's own token.
pub const CHOOSE_USERNAME: Route = Route::post("/internal/profile/username", Access::User);
/// Changes the password: the user's own token.
pub const CHANGE_PASSWORD: Route = Route::post("/internal/profile/password", Access::User);
/// A tandem parent creates the child account: the parent's own token.
pub const CREATE_TANDEM_CHILD: Route = Route::post("/internal/profile/tandem-child", Access::User);
/// The VIP conversion: the user's own token.
pub const CONVERT_VIP_USER: Route = Route::post("/internal/profile/vip-credentials", Access::User);

/// The trust table: every internal route of the profile service.
pub const ALL: &[Route] = &[
    EXCHANGE_CODE,
    REFRESH,
    LOGOUT,
    REDEEM_AUTOLOGIN,
    CROSS_SITE,
    PARENT_REDIRECT,
    ISSUE_AUTOLOGIN,
    CREATE_ACCOUNT,
    CHECK_ACCOUNT,
    REVOKED_SESSIONS,
    USERS,
    PUBLIC_PROFILES,
    SET_GROUP,
    SET_SPECIAL_ATTRIBUTES,
    OWN_PROFILE,
    SET_DISPLAY_NAME,
    UPDATE_USER_AUTOPLAY,
    SET_EMAIL_CONSENT,
    GIVE_TERMS_CONSENT,
    GIVE_CAMS_CONSENT,
    SET_RELATIONSHIP,
    ACKNOWLEDGE_GEMS_INTRO,
    ACKNOWLEDGE_PROMOTIONAL_TEASER,
    ACKNOWLEDGE_HEALTH_WARNING,
    CHOOSE_USERNAME,
    CHANGE_PASSWORD,
    CREATE_TANDEM_CHILD,
    CONVERT_VIP_USER,
];
