//! Accounts: the username check, creation (billers' signups, VIP invitations, the demo seed),
//! tandem children and VIP conversion.

use axum::{
    extract::{rejection::JsonRejection, State},
    http::StatusCode,
    Extension, Json,
};
use chrono::Utc;
use proto_events::{Actor, EventMeta};
use runtime::auth::Authenticated;
use runtime::http::CorrelationId;
use serde_json::json;
use uuid::Uuid;

use super::own_profile::profile_of;
use super::{body, user_meta, Answer};
use crate::api::*;
use crate::commands::{self, CommandError};
use crate::domain::{Command, DomainError};
use crate::error::ApiError;
use crate::validation::{self as v};
use crate::{queries, State as ProfileState};

/// `POST /internal/accounts/check`: the profile's own rules for a new account's username (product.md, "Validation rules":
/// the username rule, then 'already taken'), asked before the visitor pays.
pub(super) async fn check_account(
    State(state): State<ProfileState>,
    request: Result<Json<AccountCheckRequest>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let request = body(request)?;
    if !v::is_valid_username(&request.username) {
        return Err(CommandError::Domain(DomainError::InvalidUsername).into());
    }
    if queries::username_taken(&state.pool, &request.username).await? {
        return Err(CommandError::UsernameTaken.into());
    }
    Ok(Json(json!({ "available": true })))
}

/// `POST /internal/accounts`: a biller approved a signup (or the studio invites a VIP).
#[tracing::instrument(name = "create_account", skip_all)]
pub(super) async fn create_account(
    State(state): State<ProfileState>,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<CreateAccountRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<AccountCreated>), ApiError> {
    let request = body(request)?;
    let actor = match &request.biller {
        Some(biller) => Actor::Biller(biller.clone()),
        None => Actor::System("profile.accounts".into()),
    };
    let mut meta = EventMeta::new(actor).with_tenant(&request.site);
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    let created = create_account_with(&state, request, &meta).await?;
    let status = if created.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(created)))
}

/// The account creation command, shared by the API, the demo seed and the tandem child.
pub async fn create_account_with(
    state: &ProfileState,
    request: CreateAccountRequest,
    meta: &EventMeta,
) -> Result<AccountCreated, ApiError> {
    let email = v::normalize_email(&request.email);
    if !v::is_valid_email(&email) {
        return Err(CommandError::Domain(DomainError::InvalidEmail).into());
    }
    let valid_password = match &request.password_hash {
        Some(hash) => crate::passwords::is_argon2id_hash(hash),
        None => v::is_valid_password(&request.password),
    };
    if !valid_password {
        return Err(CommandError::Domain(DomainError::InvalidPassword).into());
    }
    if request.username.as_deref().is_some_and(|u| !v::is_valid_username(u)) {
        return Err(CommandError::Domain(DomainError::InvalidUsername).into());
    }
    let user_id = request.user_id.unwrap_or_else(Uuid::now_v7);
    // A retried call for the same account answers what the first did.
    if let Some(answer) = same_account(state, user_id, &email, &request.username).await? {
        return answer;
    }
    let hash = match &request.password_hash {
        Some(hash) => hash.clone(),
        None => state.passwords.hash(&request.password).await?,
    };
    let command = Command::Register {
        user_id,
        email: email.clone(),
        username: request.username.clone(),
        site: request.site.clone(),
        tandem_parent: request.tandem_parent_user_id,
        vip_invited: request.vip_invited,
        at: Utc::now(),
    };
    match commands::execute(&state.store, user_id, meta, command, Some(&hash)).await {
        Ok(_) => Ok(AccountCreated { user_id, username: request.username, email, created: true }),
        // A concurrent copy of this call registered it between the check above and this command
        // (a biller posting one sale several times at once): answer as that copy did.
        Err(CommandError::Domain(DomainError::AccountExists)) => {
            match same_account(state, user_id, &email, &request.username).await? {
                Some(answer) => answer,
                None => Err(CommandError::Domain(DomainError::AccountExists).into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// When `user_id` is registered: the answer to a repeat of its creation (`created: false`) if
/// it is the same account, ACCOUNT_EXISTS if another one. None while it is not registered.
async fn same_account(
    state: &ProfileState,
    user_id: Uuid,
    email: &str,
    username: &Option<String>,
) -> Result<Option<Result<AccountCreated, ApiError>>, ApiError> {
    let Some(existing) = queries::user_summaries(&state.pool, &[user_id]).await?.pop() else {
        return Ok(None);
    };
    if existing.email == email && existing.username == *username {
        return Ok(Some(Ok(AccountCreated {
            user_id,
            username: existing.username,
            email: email.to_owned(),
            created: false,
        })));
    }
    Ok(Some(Err(CommandError::Domain(DomainError::AccountExists).into())))
}

/// A tandem parent creates the child account that shares the parent's membership.
#[tracing::instrument(name = "create_tandem_child_account", skip_all)]
pub(super) async fn create_tandem_child_account(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<TandemChildRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let email = v::normalize_email(&request.email);
    if !v::is_valid_email(&email) {
        return Err(CommandError::Domain(DomainError::InvalidEmail).into());
    }
    if !v::is_valid_password(&request.password) {
        return Err(CommandError::Domain(DomainError::InvalidPassword).into());
    }
    let mut conn = state.pool.acquire().await?;
    let parent_active = !queries::site_access(&queries::subscriptions(&mut conn, claims.sub).await?).is_empty();
    drop(conn);
    let child = Uuid::now_v7();
    let hash = state.passwords.hash(&request.password).await?;
    let register = Command::Register {
        user_id: child,
        email,
        username: request.username,
        site: claims.tenant.clone(),
        tandem_parent: Some(claims.sub),
        vip_invited: false,
        at: Utc::now(),
    };
    let meta = user_meta(&claims, correlation);
    commands::create_tandem_child(&state.store, claims.sub, child, parent_active, register, &hash, &meta).await?;
    profile_of(&state, &claims).await
}

/// VIP conversion (`POST /subscriptions/vip-user-credentials` at the gateway): codes
/// EMAIL_ALREADY_EXISTS, INVALID_EMAIL, INVALID_PASSWORD; anything else the generic message.
#[tracing::instrument(name = "convert_vip_user", skip_all)]
pub(super) async fn convert_vip_user(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<VipCredentialsRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let new_email = v::normalize_email(&request.new_email);
    let password_valid = v::is_valid_password(&request.new_password);
    let hash = if password_valid && v::is_valid_vip_email(&new_email) {
        Some(state.passwords.hash(&request.new_password).await?)
    } else {
        None
    };
    let command = Command::ConvertVip { new_email, password_valid, session_id: Some(claims.sid), at: Utc::now() };
    commands::execute(&state.store, claims.sub, &user_meta(&claims, correlation), command, hash.as_deref()).await?;
    profile_of(&state, &claims).await
}

/// The answer of `POST /subscriptions/vip-user-credentials` for a refusal: the message is the code.
pub fn vip_error_message(code: &str) -> &'static str {
    match code {
        "EMAIL_ALREADY_EXISTS" => v::VIP_EMAIL_ALREADY_EXISTS_MESSAGE,
        "INVALID_EMAIL" => v::VIP_INVALID_EMAIL_MESSAGE,
        "INVALID_PASSWORD" => v::PASSWORD_RULE_MESSAGE,
        _ => v::VIP_GENERIC_FAILURE_MESSAGE,
    }
}
