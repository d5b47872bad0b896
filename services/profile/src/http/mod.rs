//! The internal HTTP API: the gateway signs users in and reads and changes their profile; the
//! subscription service creates accounts and autologin tokens; every service reads the JWKS.
//!
//! A handler acting for a user takes the user from the access token
//! ([`Authenticated`](runtime::auth::Authenticated)) and from nowhere else, so no call reads or
//! changes another user's profile. Refusals are `{code, message}` with a SCREAMING_SNAKE code;
//! a refused grant is `{error: "invalid_grant"}`.
//!
//! The routes and who may call them are here; the handlers by subject: sign-in and sessions
//! (`sign_in.rs`), accounts (`accounts.rs`), users as services and operators see them
//! (`users.rs`) and the signed-in user's own profile (`own_profile.rs`). The refusals are
//! [`ApiError`] ([`crate::error`]).

mod accounts;
mod own_profile;
mod sign_in;
mod users;

use axum::{
    extract::rejection::JsonRejection,
    routing::{get, post},
    Extension, Json, Router,
};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Access, Claims, Gate, Route};
use runtime::http::CorrelationId;

use crate::{login_page, State as ProfileState};

pub use crate::error::{ApiError, CHANGE_PASSWORD_TOO_MANY_MESSAGE};
pub use accounts::{create_account_with, vip_error_message};
pub use own_profile::health_warning_state;
pub use users::MAX_PUBLIC_PROFILES;

pub fn router(state: ProfileState) -> Router {
    let router = Router::new()
        .route("/.well-known/jwks.json", get(sign_in::jwks))
        .route("/oidc/login", get(login_page::login_form).post(login_page::login_submit))
        .route("/internal/oidc/token", post(sign_in::token))
        .route("/internal/oidc/refresh", post(sign_in::refresh))
        .route("/internal/oidc/logout", post(sign_in::logout))
        .route("/internal/oidc/autologin", post(sign_in::autologin))
        .route("/internal/oidc/xsite", post(sign_in::cross_site))
        .route("/internal/oidc/parent-redirect", post(sign_in::parent_redirect))
        .route("/internal/sessions/revoked", get(sign_in::revoked_sessions))
        .route("/internal/autologin-tokens", post(sign_in::issue_autologin))
        .route("/internal/accounts", post(accounts::create_account))
        .route("/internal/accounts/check", post(accounts::check_account))
        .route("/internal/users", get(users::users))
        .route("/internal/users/public", get(users::public_profiles))
        .route("/internal/users/{user_id}/groups", post(users::set_group))
        .route("/internal/users/{user_id}/special-attributes", post(users::set_special_attributes))
        .route("/internal/profile", get(own_profile::find_one_user_profile))
        .route("/internal/profile/display-name", post(own_profile::set_display_name))
        .route("/internal/profile/autoplay", post(own_profile::update_user_autoplay))
        .route("/internal/profile/email-consent", post(own_profile::set_email_consent))
        .route("/internal/profile/terms-consent", post(own_profile::give_terms_consent))
        .route("/internal/profile/cams-consent", post(own_profile::give_cams_consent))
        .route("/internal/profile/relationship", post(own_profile::set_relationship))
        .route("/internal/profile/gems-intro", post(own_profile::acknowledge_gems_intro))
        .route("/internal/profile/promotional-teaser", post(own_profile::acknowledge_promotional_teaser_viewed))
        .route("/internal/profile/health-warning", post(own_profile::acknowledge_health_warning))
        .route("/internal/profile/username", post(own_profile::choose_username))
        .route("/internal/profile/password", post(own_profile::change_password))
        .route("/internal/profile/tandem-child", post(accounts::create_tandem_child_account))
        .route("/internal/profile/vip-credentials", post(accounts::convert_vip_user));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): the gateway signs
/// users in with its service token; only the subscription service's token gets autologin
/// tokens and accounts; e-mails go to services and admins; a user's own profile to its user.
pub const INTERNAL_ROUTES: &[Route] = &[
    Route::post("/internal/oidc/token", Access::Service),
    Route::post("/internal/oidc/refresh", Access::Service),
    Route::post("/internal/oidc/logout", Access::Service),
    Route::post("/internal/oidc/autologin", Access::Service),
    Route::post("/internal/oidc/xsite", Access::User),
    Route::post("/internal/oidc/parent-redirect", Access::Service),
    Route::post("/internal/autologin-tokens", Access::Service),
    Route::post("/internal/accounts", Access::Service),
    // The join form's username check, before the visitor pays (the subscription service).
    Route::post("/internal/accounts/check", Access::Service),
    // The gateway loads the sessions ended lately into its revocation set at start.
    Route::get("/internal/sessions/revoked", Access::Service),
    Route::get("/internal/users", Access::ServiceOrAdmin),
    Route::get("/internal/users/public", Access::Any),
    Route::post("/internal/users/{user_id}/groups", Access::User),
    Route::post("/internal/users/{user_id}/special-attributes", Access::User),
    Route::get("/internal/profile", Access::User),
    Route::post("/internal/profile/display-name", Access::User),
    Route::post("/internal/profile/autoplay", Access::User),
    Route::post("/internal/profile/email-consent", Access::User),
    Route::post("/internal/profile/terms-consent", Access::User),
    Route::post("/internal/profile/cams-consent", Access::User),
    Route::post("/internal/profile/relationship", Access::User),
    Route::post("/internal/profile/gems-intro", Access::User),
    Route::post("/internal/profile/promotional-teaser", Access::User),
    Route::post("/internal/profile/health-warning", Access::User),
    Route::post("/internal/profile/username", Access::User),
    Route::post("/internal/profile/password", Access::User),
    Route::post("/internal/profile/tandem-child", Access::User),
    Route::post("/internal/profile/vip-credentials", Access::User),
];

type Answer<T> = Result<Json<T>, ApiError>;

fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    Ok(json?.0)
}

fn user_meta(claims: &Claims, correlation: Option<Extension<CorrelationId>>) -> EventMeta {
    let mut meta = EventMeta::new(Actor::User(claims.sub)).with_tenant(&claims.tenant);
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    meta
}
