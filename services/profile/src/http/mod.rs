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

use axum::{extract::rejection::JsonRejection, routing::get, Extension, Json, Router};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Claims, Gate, Route, ServeRoute};
use runtime::http::CorrelationId;

use crate::{login_page, routes, State as ProfileState};

pub use crate::error::{ApiError, CHANGE_PASSWORD_TOO_MANY_MESSAGE};
pub use accounts::{create_account_with, vip_error_message};
pub use own_profile::health_warning_state;
pub use users::MAX_PUBLIC_PROFILES;

pub fn router(state: ProfileState) -> Router {
    let router = Router::new()
        .route("/.well-known/jwks.json", get(sign_in::jwks))
        .route("/oidc/login", get(login_page::login_form).post(login_page::login_submit))
        .serve(&routes::EXCHANGE_CODE, sign_in::token)
        .serve(&routes::REFRESH, sign_in::refresh)
        .serve(&routes::LOGOUT, sign_in::logout)
        .serve(&routes::REDEEM_AUTOLOGIN, sign_in::autologin)
        .serve(&routes::CROSS_SITE, sign_in::cross_site)
        .serve(&routes::PARENT_REDIRECT, sign_in::parent_redirect)
        .serve(&routes::REVOKED_SESSIONS, sign_in::revoked_sessions)
        .serve(&routes::ISSUE_AUTOLOGIN, sign_in::issue_autologin)
        .serve(&routes::CREATE_ACCOUNT, accounts::create_account)
        .serve(&routes::CHECK_ACCOUNT, accounts::check_account)
        .serve(&routes::USERS, users::users)
        .serve(&routes::PUBLIC_PROFILES, users::public_profiles)
        .serve(&routes::SET_GROUP, users::set_group)
        .serve(&routes::SET_SPECIAL_ATTRIBUTES, users::set_special_attributes)
        .serve(&routes::OWN_PROFILE, own_profile::find_one_user_profile)
        .serve(&routes::SET_DISPLAY_NAME, own_profile::set_display_name)
        .serve(&routes::UPDATE_USER_AUTOPLAY, own_profile::update_user_autoplay)
        .serve(&routes::SET_EMAIL_CONSENT, own_profile::set_email_consent)
        .serve(&routes::GIVE_TERMS_CONSENT, own_profile::give_terms_consent)
        .serve(&routes::GIVE_CAMS_CONSENT, own_profile::give_cams_consent)
        .serve(&routes::SET_RELATIONSHIP, own_profile::set_relationship)
        .serve(&routes::ACKNOWLEDGE_GEMS_INTRO, own_profile::acknowledge_gems_intro)
        .serve(&routes::ACKNOWLEDGE_PROMOTIONAL_TEASER, own_profile::acknowledge_promotional_teaser_viewed)
        .serve(&routes::ACKNOWLEDGE_HEALTH_WARNING, own_profile::acknowledge_health_warning)
        .serve(&routes::CHOOSE_USERNAME, own_profile::choose_username)
        .serve(&routes::CHANGE_PASSWORD, own_profile::change_password)
        .serve(&routes::CREATE_TANDEM_CHILD, accounts::create_tandem_child_account)
        .serve(&routes::CONVERT_VIP_USER, accounts::convert_vip_user);
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]).
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

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
