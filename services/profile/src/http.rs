//! The internal HTTP API: the gateway signs users in and reads and changes their profile; the
//! subscription service creates accounts and autologin tokens; every service reads the JWKS.
//!
//! A handler acting for a user takes the user from the access token ([`Authenticated`]) and
//! from nowhere else, so no call reads or changes another user's profile. Refusals are
//! `{code, message}` with a SCREAMING_SNAKE code; a refused grant is `{error: "invalid_grant"}`.

use axum::{
    extract::{rejection::JsonRejection, Path, Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, post},
    Extension, Json, Router,
};
use chrono::Utc;
use proto_events::profile::{Group, HealthWarningState, SpecialAttributes};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Access, Admin, Authenticated, Claims, Gate, JwkSet, Route};
use runtime::http::CorrelationId;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::api::*;
use crate::commands::{self, CommandError};
use crate::domain::{Command, DomainError};
use crate::sessions::{self, GrantError};
use crate::validation::{self as v};
use crate::{login_page, queries, State as ProfileState};

pub fn router(state: ProfileState) -> Router {
    let router = Router::new()
        .route("/.well-known/jwks.json", get(jwks))
        .route("/oidc/login", get(login_page::login_form).post(login_page::login_submit))
        .route("/internal/oidc/token", post(token))
        .route("/internal/oidc/refresh", post(refresh))
        .route("/internal/oidc/logout", post(logout))
        .route("/internal/oidc/autologin", post(autologin))
        .route("/internal/oidc/xsite", post(cross_site))
        .route("/internal/oidc/parent-redirect", post(parent_redirect))
        .route("/internal/sessions/revoked", get(revoked_sessions))
        .route("/internal/autologin-tokens", post(issue_autologin))
        .route("/internal/accounts", post(create_account))
        .route("/internal/accounts/check", post(check_account))
        .route("/internal/users", get(users))
        .route("/internal/users/public", get(public_profiles))
        .route("/internal/users/{user_id}/groups", post(set_group))
        .route("/internal/users/{user_id}/special-attributes", post(set_special_attributes))
        .route("/internal/profile", get(find_one_user_profile))
        .route("/internal/profile/display-name", post(set_display_name))
        .route("/internal/profile/autoplay", post(update_user_autoplay))
        .route("/internal/profile/email-consent", post(set_email_consent))
        .route("/internal/profile/terms-consent", post(give_terms_consent))
        .route("/internal/profile/cams-consent", post(give_cams_consent))
        .route("/internal/profile/relationship", post(set_relationship))
        .route("/internal/profile/gems-intro", post(acknowledge_gems_intro))
        .route("/internal/profile/promotional-teaser", post(acknowledge_promotional_teaser_viewed))
        .route("/internal/profile/health-warning", post(acknowledge_health_warning))
        .route("/internal/profile/username", post(choose_username))
        .route("/internal/profile/password", post(change_password))
        .route("/internal/profile/tandem-child", post(create_tandem_child_account))
        .route("/internal/profile/vip-credentials", post(convert_vip_user));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions.md, "trust model"): the gateway signs
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

/// changePassword past the failed-login limit of the account.
pub const CHANGE_PASSWORD_TOO_MANY_MESSAGE: &str = "Too many wrong passwords. Please wait a few minutes and try again.";

/// Every answer of this API that is not a success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Command(#[from] CommandError),
    #[error("invalid_grant")]
    InvalidGrant,
    #[error("refresh_in_progress")]
    RefreshInProgress,
    #[error("too_many_refreshes")]
    TooManyRefreshes,
    /// Too many wrong old passwords for this account in the failed-login window.
    #[error("{}", CHANGE_PASSWORD_TOO_MANY_MESSAGE)]
    TooManyAttempts,
    #[error("{0}")]
    NotFound(&'static str),
    #[error("{0}")]
    BadRequest(String),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Command(CommandError::Domain(e)) => match e {
                DomainError::UnknownUser => StatusCode::NOT_FOUND,
                DomainError::RelationshipNotEditable | DomainError::TandemChildCannotCreate => StatusCode::FORBIDDEN,
                DomainError::AccountExists | DomainError::UsernameAlreadyChosen | DomainError::TandemChildExists => {
                    StatusCode::CONFLICT
                }
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            },
            ApiError::Command(CommandError::UsernameTaken | CommandError::EmailTaken) => StatusCode::CONFLICT,
            ApiError::Command(CommandError::Store(e)) if e.is_retryable() => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Command(CommandError::Store(_)) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::InvalidGrant => StatusCode::UNAUTHORIZED,
            ApiError::RefreshInProgress => StatusCode::CONFLICT,
            ApiError::TooManyRefreshes | ApiError::TooManyAttempts => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Command(CommandError::Domain(e)) => e.code(),
            ApiError::Command(CommandError::UsernameTaken) => "USERNAME_TAKEN",
            ApiError::Command(CommandError::EmailTaken) => "EMAIL_ALREADY_EXISTS",
            ApiError::Command(CommandError::Store(e)) if e.is_retryable() => "RETRY",
            ApiError::Command(CommandError::Store(_)) | ApiError::Internal(_) => "INTERNAL",
            ApiError::InvalidGrant => "INVALID_GRANT",
            ApiError::RefreshInProgress => "REFRESH_IN_PROGRESS",
            ApiError::TooManyRefreshes => "TOO_MANY_REFRESHES",
            ApiError::TooManyAttempts => "TOO_MANY_ATTEMPTS",
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::BadRequest(_) => "BAD_REQUEST",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        match &self {
            ApiError::InvalidGrant => body["error"] = json!("invalid_grant"),
            ApiError::RefreshInProgress => body["error"] = json!("refresh_in_progress"),
            ApiError::TooManyRefreshes => body["error"] = json!("too_many_refreshes"),
            ApiError::Command(CommandError::Store(e)) => {
                body["message"] = json!("internal error");
                tracing::error!(error = %e, "profile command failed");
            }
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "profile request failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Internal(e.into())
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        ApiError::Internal(e)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        ApiError::BadRequest(e.body_text())
    }
}

impl From<GrantError> for ApiError {
    fn from(e: GrantError) -> Self {
        match e {
            GrantError::InvalidGrant(why) => {
                tracing::info!(reason = why, "grant refused");
                ApiError::InvalidGrant
            }
            GrantError::RefreshInProgress => ApiError::RefreshInProgress,
            GrantError::TooManyRefreshes => ApiError::TooManyRefreshes,
            GrantError::Failed(e) => ApiError::Command(e),
        }
    }
}

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

async fn jwks(State(state): State<ProfileState>) -> Json<JwkSet> {
    Json(JwkSet { keys: vec![state.signer.jwk()] })
}

/// The sessions revoked within the access-token lifetime (the gateway's revocation set, at start).
async fn revoked_sessions(State(state): State<ProfileState>) -> Answer<RevokedSessions> {
    Ok(Json(sessions::recently_revoked(&state).await?))
}

async fn token(
    State(state): State<ProfileState>,
    request: Result<Json<CodeExchange>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::exchange_code(&state, &request.code, &request.audience).await?))
}

async fn refresh(
    State(state): State<ProfileState>,
    request: Result<Json<RefreshRequest>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::refresh(&state, &request.refresh_token, &request.audience).await?))
}

async fn logout(
    State(state): State<ProfileState>,
    request: Result<Json<LogoutRequest>, JsonRejection>,
) -> Answer<serde_json::Value> {
    let request = body(request)?;
    sessions::logout(&state, &request.refresh_token, request.everywhere).await?;
    Ok(Json(json!({ "loggedOut": true })))
}

async fn autologin(
    State(state): State<ProfileState>,
    request: Result<Json<AutologinRedeem>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::redeem_autologin(&state, &request.al_token, &request.audience).await?))
}

async fn cross_site(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<CrossSiteRequest>, JsonRejection>,
) -> Answer<Redirect> {
    let request = body(request)?;
    let location = sessions::cross_site(&state, &claims, &request.site, request.deeplink.as_deref()).await?;
    Ok(Json(Redirect { location }))
}

async fn parent_redirect(
    State(state): State<ProfileState>,
    request: Result<Json<ParentRedirectRequest>, JsonRejection>,
) -> Answer<TokenResponse> {
    let request = body(request)?;
    Ok(Json(sessions::parent_redirect(&state, &request.id_token, &request.audience).await?))
}

async fn issue_autologin(
    State(state): State<ProfileState>,
    request: Result<Json<AutologinRequest>, JsonRejection>,
) -> Answer<AutologinIssued> {
    let request = body(request)?;
    sessions::issue_autologin(&state, request.user_id, &request.site)
        .await?
        .map(Json)
        .ok_or(ApiError::NotFound("no such user"))
}

/// `POST /internal/accounts/check`: the profile's own rules for a new account's username (§5:
/// the username rule, then 'already taken'), asked before the visitor pays.
async fn check_account(
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
async fn create_account(
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

#[derive(Deserialize)]
struct UsersQuery {
    /// Comma-separated user ids.
    ids: String,
}

impl UsersQuery {
    /// The ids, each once; a malformed one, or more than `max`, is a bad request.
    fn ids(&self, max: usize) -> Result<Vec<Uuid>, ApiError> {
        let ids: Result<Vec<Uuid>, _> =
            self.ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(Uuid::parse_str).collect();
        let mut ids = ids.map_err(|e| ApiError::BadRequest(format!("ids: {e}")))?;
        ids.sort_unstable();
        ids.dedup();
        if ids.len() > max {
            return Err(ApiError::BadRequest(format!("at most {max} ids")));
        }
        Ok(ids)
    }
}

/// `GET /internal/users?ids=a,b,c`: who many users are, in one call (at most 500 ids).
async fn users(State(state): State<ProfileState>, Query(query): Query<UsersQuery>) -> Answer<Vec<UserSummary>> {
    Ok(Json(queries::user_summaries(&state.pool, &query.ids(500)?).await?))
}

/// The most users `GET /internal/users/public` answers in one call.
pub use crate::api::MAX_PUBLIC_PROFILES;

/// `GET /internal/users/public?ids=a,b,c`: many users' badges and user type in one call (the
/// authors of a page of comments), at most [`MAX_PUBLIC_PROFILES`]; unknown ids are left out.
async fn public_profiles(
    State(state): State<ProfileState>,
    Query(query): Query<UsersQuery>,
) -> Answer<Vec<PublicProfile>> {
    let ids = query.ids(MAX_PUBLIC_PROFILES)?;
    Ok(Json(queries::public_profiles(&state.pool, &state.config, &ids, Utc::now()).await?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GroupRequest {
    group: String,
    granted: bool,
}

/// Operators only: grant or revoke a group.
async fn set_group(
    State(state): State<ProfileState>,
    Admin(admin): Admin,
    Path(user_id): Path<Uuid>,
    request: Result<Json<GroupRequest>, JsonRejection>,
) -> Answer<UserSummary> {
    let request = body(request)?;
    let group = Group::from_name(&request.group).ok_or_else(|| ApiError::BadRequest("unknown group".into()))?;
    let at = Utc::now();
    let command = if request.granted { Command::GrantGroup { group, at } } else { Command::RevokeGroup { group, at } };
    let meta = EventMeta::new(Actor::Admin(admin.sub));
    commands::execute(&state.store, user_id, &meta, command, None).await?;
    queries::user_summaries(&state.pool, &[user_id]).await?.pop().map(Json).ok_or(ApiError::NotFound("no such user"))
}

/// Operators only: replace the special attributes.
async fn set_special_attributes(
    State(state): State<ProfileState>,
    Admin(admin): Admin,
    Path(user_id): Path<Uuid>,
    request: Result<Json<SpecialAttributesView>, JsonRejection>,
) -> Answer<UserSummary> {
    let a = body(request)?;
    let attributes = SpecialAttributes {
        is_pornstar_user: a.is_pornstar_user,
        model_id: a.model_id,
        is_king_user: a.is_king_user,
        is_director_user: a.is_director_user,
        is_vip_user: a.is_vip_user,
        is_official_user: a.is_official_user,
    };
    let meta = EventMeta::new(Actor::Admin(admin.sub));
    commands::execute(&state.store, user_id, &meta, Command::SetSpecialAttributes { attributes, at: Utc::now() }, None)
        .await?;
    queries::user_summaries(&state.pool, &[user_id]).await?.pop().map(Json).ok_or(ApiError::NotFound("no such user"))
}

async fn profile_of(state: &ProfileState, claims: &Claims) -> Answer<OwnProfile> {
    queries::own_profile(&state.pool, &state.config, claims.sub, Utc::now())
        .await?
        .map(Json)
        .ok_or(ApiError::NotFound("no such user"))
}

/// The profile's part of findOneUserProfile for the signed-in user (the gateway adds the
/// other owners' parts).
async fn find_one_user_profile(
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

async fn set_display_name(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<DisplayNameRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let command = Command::SetDisplayName { display_name: request.display_name, at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

async fn update_user_autoplay(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<AutoplayRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    let command = Command::SetAutoplay { autoplay_enabled: request.autoplay_enabled, at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

async fn set_email_consent(
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

async fn give_terms_consent(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
) -> Answer<OwnProfile> {
    let command = Command::GiveTermsConsent { site: claims.tenant.clone(), at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

async fn give_cams_consent(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
) -> Answer<OwnProfile> {
    let command = Command::GiveCamsConsent { site: claims.tenant.clone(), at: Utc::now() };
    for_user(&state, &claims, correlation, command).await
}

async fn set_relationship(
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
    // §6: admin, or an active non-tandem-child member of the wifey brand.
    let may_edit =
        user.in_group(Group::Admin) || (queries::has_active_access(&subs, "wifey") && !user.is_tandem_child());
    let command = Command::SetRelationship {
        relationship_status: request.relationship_status,
        relationship_role: request.relationship_role,
        may_edit,
        at: Utc::now(),
    };
    for_user(&state, &claims, correlation, command).await
}

async fn acknowledge_gems_intro(
    State(state): State<ProfileState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    request: Result<Json<GemsIntroRequest>, JsonRejection>,
) -> Answer<OwnProfile> {
    let request = body(request)?;
    for_user(&state, &claims, correlation, Command::AcknowledgeGemsIntro { when: request.when }).await
}

async fn acknowledge_promotional_teaser_viewed(
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

async fn acknowledge_health_warning(
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

async fn choose_username(
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
async fn change_password(
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

/// A tandem parent creates the child account that shares the parent's membership.
#[tracing::instrument(name = "create_tandem_child_account", skip_all)]
async fn create_tandem_child_account(
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
async fn convert_vip_user(
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
