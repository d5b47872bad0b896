//! The signed-in user's own profile: findOneUserProfile, its settings, consents, username and
//! password.

use axum::{
    extract::{rejection::JsonRejection, State},
    Extension, Json,
};
use chrono::Utc;
use proto_events::profile::{Group, HealthWarningState};
use runtime::auth::{Authenticated, Claims};
use runtime::http::CorrelationId;
use uuid::Uuid;

use super::{body, user_meta, Answer};
use crate::api::*;
use crate::commands;
use crate::domain::Command;
use crate::error::ApiError;
use crate::validation::{self as v};
use crate::{queries, sessions, State as ProfileState};

pub(super) async fn profile_of(state: &ProfileState, claims: &Claims) -> Answer<OwnProfile> {
    queries::own_profile(&state.pool, &state.config, claims.sub, Utc::now())
        .await?
        .map(Json)
        .ok_or(ApiError::NotFound("no such user"))
}

/// The profile's part of findOneUserProfile for the signed-in user (the gateway adds the
/// other owners' parts).
pub(super) async fn find_one_user_profile(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
) -> Answer<OwnProfile> {
    profile_of(&state, &claims).await
}

/// Runs a command for the signed-in user and answers the profile after it.
async fn for_user(
    state: &ProfileState,
    claims: &Claims,
    correlation: Option<Extension<CorrelationId>>,
    command: Command,
) -> Answer<OwnProfile> {
    commands::execute(&state.store, claims.sub, &user_meta(claims, correlation), command, None).await?;
    profile_of(state, claims).await
}

pub(super) async fn set_display_name(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<DisplayNameRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let command = Command::SetDisplayName { display_name: request.display_name, at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn update_user_autoplay(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<AutoplayRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let command = Command::SetAutoplay { autoplay_enabled: request.autoplay_enabled, at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn set_email_consent(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<EmailConsentRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let snippet = request.consent_html_snippet.unwrap_or_default();
    if snippet.len() > 10_000 {
        return Err(ApiError::BadRequest("consentHtmlSnippet is too long".into()));
    }
    let command = Command::SetEmailConsent {
        site: request.site.unwrap_or_else(|| claims.tenant.clone()),
        email_consent: request.email_consent,
        consent_html_snippet: snippet,
        at: Utc::now(),
    };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn give_terms_consent(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
) -> Answer<OwnProfile> {
    let command = Command::GiveTermsConsent { site: claims.tenant.clone(), at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn give_cams_consent(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
) -> Answer<OwnProfile> {
    let command = Command::GiveCamsConsent { site: claims.tenant.clone(), at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn set_relationship(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<RelationshipRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let user = sessions::load_user(&state, claims.sub).await?;
    let mut conn = state.pool.acquire().await?;
    let subs = queries::subscriptions(&mut conn, user.tandem_parent.unwrap_or(claims.sub)).await?;
    drop(conn);
    // product.md, "Roles and abilities": admin, or an active non-tandem-child member of the wifey brand (the access rule).
    let may_edit = access::may_edit_relationship(queries::relationship_facts(
        user.in_group(Group::Admin),
        &subs,
        user.is_tandem_child(),
    ));
    let command = Command::SetRelationship {
        relationship_status: request.relationship_status,
        relationship_role: request.relationship_role,
        may_edit,
        at: Utc::now(),
    };
    for_user(&state, &claims, correlation, command).await
}

pub(super) async fn acknowledge_gems_intro(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<GemsIntroRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    for_user(&state, &claims, correlation, Command::AcknowledgeGemsIntro { when: request.when }).await
}

pub(super) async fn acknowledge_promotional_teaser_viewed(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
) -> Answer<OwnProfile> {
    for_user(&state, &claims, correlation, Command::ViewPromotionalTeaser { at: Utc::now() }).await
}

/// `TX`/`US-TX` or `AL`/`US-AL`.
pub fn health_warning_state(code: &str) -> Option<HealthWarningState> {
    match code.trim().to_ascii_uppercase().trim_start_matches("US-") {
        "TX" => Some(HealthWarningState::Texas),
        "AL" => Some(HealthWarningState::Alabama),
        _ => None,
    }
}

pub(super) async fn acknowledge_health_warning(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<HealthWarningRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let state_code = health_warning_state(&request.usa_health_warning_state_code)
        .ok_or_else(|| ApiError::BadRequest("usaHealthWarningStateCode must be TX or AL".into()))?;
    for_user(&state, &claims, correlation, Command::AcknowledgeHealthWarning { state: state_code, at: Utc::now() })
        .await
}

pub(super) async fn choose_username(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<UsernameRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    for_user(&state, &claims, correlation, Command::ChooseUsername { username: request.username, at: Utc::now() }).await
}

async fn stored_hash(state: &ProfileState, user_id: Uuid) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("select password_hash from credential where user_id = $1")
        .bind(user_id)
        .fetch_optional(&state.pool)
        .await
}

/// Change password: the other sessions end, this one stays.
#[tracing::instrument(name = "change_password", skip_all)]
pub(super) async fn change_password(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<ChangePasswordRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    // The old password is guessed against the sign-in's throttle, on the same count (the user
    // id): each check reserves a failure of the account, taken back when the password is right.
    let subjects = [crate::sessions::limiter::user_subject(claims.sub)];
    let reservation = match crate::sessions::limiter::reserve(&state, &subjects).await? {
        crate::sessions::limiter::Reservation::Reserved(ids) => ids,
        crate::sessions::limiter::Reservation::Wait(retry_after) => {
            tracing::warn!(user_id = %claims.sub, ?retry_after, "change password refused: too many wrong passwords");
            return Err(ApiError::TooManyAttempts);
        }
    };
    let old_password_correct =
        state.passwords.verify(&request.old_password, stored_hash(&state, claims.sub).await?).await?;
    if old_password_correct {
        crate::sessions::limiter::release(&state, &reservation).await?;
    }
    let new_password_valid = v::is_valid_password(&request.new_password);
    let confirmation_matches = request.new_password == request.confirm_password;
    let same_as_old = request.new_password == request.old_password;
    let hash = if old_password_correct && new_password_valid && confirmation_matches && !same_as_old {
        Some(state.passwords.hash(&request.new_password).await?)
    } else {
        None
    };
    let command = Command::ChangePassword {
        old_password_correct,
        new_password_valid,
        confirmation_matches,
        same_as_old,
        session_id: Some(claims.sid),
        at: Utc::now(),
    };
    commands::execute(&state.store, claims.sub, &user_meta(&claims, correlation), command, hash.as_deref()).await?;
    profile_of(&state, &claims).await
}
