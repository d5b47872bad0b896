//! Sign-in and sessions: the JWKS, the code exchange, refresh, logout, autologin, cross-site
//! and parent redirects.

use axum::{extract::rejection::JsonRejection, extract::State, Json};
use runtime::auth::{Authenticated, JwkSet};
use serde_json::json;

use super::{body, Answer};
use crate::api::*;
use crate::error::ApiError;
use crate::sessions;
use crate::State as ProfileState;

pub(super) async fn jwks(State(state): State<ProfileState>) -> Json<JwkSet> {
    Json(JwkSet { keys: vec![state.signer.jwk()] })
}

/// The sessions revoked within the access-token lifetime (the gateway's revocation set, at start).
pub(super) async fn revoked_sessions(State(state): State<ProfileState>) -> Answer<RevokedSessions> {
    Ok(Json(sessions::recently_revoked(&state).await?))
}

pub(super) async fn token(
    State(state): State<ProfileState>,
    request: Result<Json<CodeExchange>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::exchange_code(&state, &request.code, &request.audience).await?))
}

pub(super) async fn refresh(
    State(state): State<ProfileState>,
    request: Result<Json<RefreshRequest>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::refresh(&state, &request.refresh_token, &request.audience).await?))
}

pub(super) async fn logout(
    State(state): State<ProfileState>,
    request: Result<Json<LogoutRequest>, JsonRejection>,
) -> Answer<serde_json::Value> {
    let request = body(request)?;
    sessions::logout(&state, &request.refresh_token, request.everywhere).await?;
    Ok(Json(json!({ "loggedOut": true })))
}

pub(super) async fn autologin(
    State(state): State<ProfileState>,
    request: Result<Json<AutologinRedeem>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::redeem_autologin(&state, &request.al_token, &request.audience).await?))
}

pub(super) async fn cross_site(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<CrossSiteRequest>, JsonRejection>,
) -> Answer<Redirect> {
    let request = body(request)?;
    let location = sessions::cross_site(&state, &claims, &request.site, request.deeplink.as_deref()).await?;
    Ok(Json(Redirect { location }))
}

pub(super) async fn parent_redirect(
    State(state): State<ProfileState>,
    request: Result<Json<ParentRedirectRequest>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::parent_redirect(&state, &request.id_token, &request.audience).await?))
}

pub(super) async fn issue_autologin(
    State(state): State<ProfileState>,
    request: Result<Json<AutologinRequest>, JsonRejection>,
) -> Answer<AutologinIssued> {
    let request = body(request)?;
    sessions::issue_autologin(&state, request.user_id, &request.site)
        .await?
        .map(Json)
        .ok_or(ApiError::NotFound("no such user"))
}
