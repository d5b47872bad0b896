//! The internal API (for the gateway and the other services) and the billers' postback door.
//!
//! Requests and answers are JSON with the spec's names (camelCase). Every refusal is
//! `{code, message}` with a SCREAMING_SNAKE code.

use axum::{
    body::Bytes,
    extract::{rejection::JsonRejection, Path, Query, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
    Extension, Json, Router,
};
use chrono::Utc;
use runtime::auth::{Authenticated, Gate, MaybeAuthenticated, Route, ServeRoute};
use runtime::http::CorrelationId;
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::billers::SIGNATURE_HEADER;
use crate::joins::{self, JoinRequest, WelcomeError};
use crate::outgoing::{self, OutgoingUpsellRequest, TrackingRequest};
use crate::postbacks::{self, PostbackError};
use crate::purchases::{self, Buyer, CreditsPurchase, MultisitePurchase, SinglesitePurchase, TrialUpgradePurchase};
use crate::retention::{self, ReactivateCancelledRebill, RetentionRefusal};
use crate::{queries, routes, State as AppState};

pub fn router(state: AppState) -> Router {
    let router = Router::new()
        .route("/billers/{biller}/postback", post(postback))
        .serve(&routes::FULL_SUBSCRIPTION, my_subscription)
        .serve(&routes::LIGHT_SUBSCRIPTION, my_light_subscription)
        .serve(&routes::CANCEL_SUBSCRIPTION, cancel)
        .serve(&routes::USER_SUBSCRIPTION, user_subscription)
        .serve(&routes::JOIN_OPTIONS, join_options)
        .serve(&routes::MULTISITE_PACKAGES, packages)
        .serve(&routes::CREDIT_PACKS, credit_packs)
        .serve(&routes::JOIN, join)
        .serve(&routes::SIGNUP, signup)
        .serve(&routes::WELCOME_CHECK, welcome_check)
        .serve(&routes::SIGNUP_EXTERN, signup_extern)
        .serve(&routes::BUY_MULTISITE, buy_multisite)
        .serve(&routes::BUY_SINGLESITE, buy_singlesite)
        .serve(&routes::BUY_TRIAL_UPGRADE, buy_trial_upgrade)
        .serve(&routes::BUY_CREDITS, buy_credits)
        .serve(&routes::RETENTION_OFFER, retention_offer)
        .serve(&routes::REACTIVATE_CANCELLED_REBILL, reactivate_cancelled_rebill)
        .serve(&routes::CREDIT_CARD_UPDATE, credit_card_update)
        .serve(&routes::OUTGOING_UPSELL_ONECLICK, outgoing_upsell_oneclick)
        .serve(&routes::OUTGOING_UPSELL_TRACKING, outgoing_upsell_tracking);
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]). Biller
/// postbacks are no internal route: their signatures verify them.
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

pub use crate::error::ApiError;

fn body<T>(request: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    request.map(|Json(b)| b).map_err(|e| ApiError::BadRequest(e.body_text()))
}

/// `POST /billers/{BILLER}/postback`: answered with the biller's OK text, the same for a repeat.
#[tracing::instrument(name = "postback", skip_all, fields(biller = %biller))]
async fn postback(
    State(state): State<AppState>,
    Path(biller): Path<String>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let signature = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let received =
        postbacks::receive(&state, &biller, signature, content_type, &body, correlation.map(|Extension(c)| c.0)).await;
    match received {
        Ok(accepted) => Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], accepted.ok_text).into_response()),
        Err(e @ (PostbackError::Rejected(_) | PostbackError::UnknownBiller(_))) => {
            let address = vouched_address(&headers);
            if let Err(wait) = state.forged_postbacks.refused(address, &biller) {
                metrics::counter!("paysite_rate_limited_total", "route" => "postback").increment(1);
                return Ok(runtime::throttle::too_many_requests(wait));
            }
            Err(e.into())
        }
        Err(e) => Err(e.into()),
    }
}

/// The sender's address as the gateway states it: only on a call that carries the gateway's
/// service token for this service (the gateway drops any address the sender wrote); anyone else
/// reaching the port directly could name any address.
fn vouched_address(headers: &HeaderMap) -> Option<&str> {
    let token = headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ")?;
    runtime::auth::ServiceKey::deployment().verify(token.trim(), crate::SERVICE.name).ok()?;
    headers.get("x-forwarded-for")?.to_str().ok()
}

#[tracing::instrument(name = "subscription", skip_all)]
async fn my_subscription(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
) -> Result<Json<Value>, ApiError> {
    let read = queries::read(&state.pool, claims.sub, &claims.tenant, state.clock.now()).await?;
    Ok(Json(serde_json::to_value(read).expect("json")))
}

#[tracing::instrument(name = "light_subscription", skip_all)]
async fn my_light_subscription(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
) -> Result<Json<Value>, ApiError> {
    let read = queries::read(&state.pool, claims.sub, &claims.tenant, state.clock.now()).await?;
    Ok(Json(serde_json::to_value(read.light).expect("json")))
}

#[derive(Deserialize)]
struct UserQuery {
    tenant: String,
    #[serde(default)]
    light: bool,
}

/// For other services, or the user themself: a user's read by id (the gate checks which).
async fn user_subscription(
    State(state): State<AppState>,
    Path(user_id): Path<Uuid>,
    Query(q): Query<UserQuery>,
) -> Result<Json<Value>, ApiError> {
    let read = queries::read(&state.pool, user_id, &q.tenant, state.clock.now()).await?;
    let value = if q.light { serde_json::to_value(read.light) } else { serde_json::to_value(read) };
    Ok(Json(value.expect("json")))
}

#[derive(Deserialize)]
struct SiteQuery {
    site: String,
}

/// Join options of a brand with their example prices: its own, then the default package's.
async fn join_options(
    State(state): State<AppState>,
    Query(q): Query<SiteQuery>,
) -> Result<Json<joins::JoinOptions>, ApiError> {
    joins::options(&state.config, &q.site).map(Json).ok_or(ApiError::NotFound("no such site"))
}

async fn packages(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "default": state.config.packages.default,
        "packages": state.config.packages.packages,
        "multisiteSiteIds": state.config.multisite_site_ids,
    }))
}

async fn credit_packs(State(state): State<AppState>) -> Json<Value> {
    Json(json!({ "creditPacks": state.config.credit_packs }))
}

/// The join form: checks (product.md, "Sign-up and join"), records the signup, answers the biller's payment page.
#[tracing::instrument(name = "join", skip_all)]
async fn join(
    State(state): State<AppState>,
    request: Result<Json<JoinRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = body(request)?;
    let started = joins::start(&state, &request).await??;
    Ok((StatusCode::CREATED, Json(serde_json::to_value(started).expect("json"))))
}

async fn signup(State(state): State<AppState>, Path(signup_id): Path<Uuid>) -> Result<Json<Value>, ApiError> {
    let status = joins::signup_status(&state, signup_id).await?.ok_or(ApiError::NotFound("no such signup"))?;
    Ok(Json(serde_json::to_value(status).expect("json")))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WelcomeQuery {
    #[serde(default)]
    site: String,
    member_id: String,
    hashed_member_id: String,
}

fn welcome_error(e: WelcomeError) -> ApiError {
    match e {
        WelcomeError::NotFound => ApiError::NotFound("no such member"),
        WelcomeError::Denied(reason) => ApiError::SignupDenied(reason),
        WelcomeError::Database(e) => e.into(),
        WelcomeError::Profile(e) => ApiError::Unavailable(e.to_string()),
    }
}

/// `welcomeCheck`: autologinId, isWelcome, isTrial, traffikJunkyTransactionId (and the rest of
/// the welcome data).
async fn welcome_check(State(state): State<AppState>, Query(q): Query<WelcomeQuery>) -> Result<Json<Value>, ApiError> {
    let status =
        joins::welcome_check(&state, &q.site, &q.member_id, &q.hashed_member_id).await.map_err(welcome_error)?;
    Ok(Json(serde_json::to_value(status.welcome).expect("json")))
}

/// `/_signup-extern/{biller}`: `{data: welcome}`, or a 400 the page turns into signup denied.
async fn signup_extern(
    State(state): State<AppState>,
    Path(biller): Path<String>,
    Query(q): Query<WelcomeQuery>,
) -> Result<Json<Value>, ApiError> {
    let Some(b) = state.config.biller(&biller.to_ascii_uppercase()) else {
        return Err(ApiError::BadRequest("unknown biller".into()));
    };
    if !joins::member_id_matches(&state, &b.name, &q.member_id, &q.hashed_member_id) {
        return Err(ApiError::BadRequest("unknown member".into()));
    }
    let status =
        joins::welcome_check(&state, &q.site, &q.member_id, &q.hashed_member_id).await.map_err(welcome_error)?;
    Ok(Json(json!({ "data": status.welcome })))
}

fn buyer(claims: &runtime::auth::Claims) -> Buyer {
    Buyer { user_id: claims.sub, username: claims.username.clone(), tenant: claims.tenant.clone() }
}

fn answer((status, body): (u16, Value)) -> (StatusCode, Json<Value>) {
    (StatusCode::from_u16(status).unwrap_or(StatusCode::OK), Json(body))
}

#[tracing::instrument(name = "buy_multisite", skip_all)]
async fn buy_multisite(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<MultisitePurchase>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = body(request)?;
    Ok(answer(purchases::multisite(&state, &buyer(&claims), &request).await?))
}

#[tracing::instrument(name = "buy_singlesite", skip_all)]
async fn buy_singlesite(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<SinglesitePurchase>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = body(request)?;
    Ok(answer(purchases::singlesite(&state, &buyer(&claims), &request).await?))
}

/// The trial upgrade: for the signed-in user, or (from the welcome page, before any session)
/// for the member the welcome data names.
#[tracing::instrument(name = "buy_trial_upgrade", skip_all)]
async fn buy_trial_upgrade(
    State(state): State<AppState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    request: Result<Json<TrialUpgradePurchase>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = body(request)?;
    let buyer = match (&claims, &request.member_id, &request.hashed_member_id) {
        (Some(claims), _, _) => buyer(claims),
        (None, Some(member_id), Some(hashed)) => {
            let row: Option<(Uuid, String, String, Option<String>)> = sqlx::query_as(
                "select user_id, biller, site, username from signup where member_id = $1 and status = 'approved'
                 order by decided_at desc limit 1",
            )
            .bind(member_id)
            .fetch_optional(&state.pool)
            .await?;
            let Some((user_id, _, site, username)) =
                row.filter(|r| joins::member_id_matches(&state, &r.1, member_id, hashed))
            else {
                return Err(ApiError::NotFound("no such member"));
            };
            Buyer { user_id, username, tenant: site }
        }
        _ => return Err(ApiError::Unauthenticated),
    };
    Ok(answer(purchases::trial_upgrade(&state, &buyer, &request).await?))
}

#[tracing::instrument(name = "buy_credits", skip_all)]
async fn buy_credits(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<CreditsPurchase>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = body(request)?;
    Ok(answer(purchases::credits(&state, &buyer(&claims), &request).await?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RetentionQuery {
    #[serde(default)]
    user_uuid: Option<Uuid>,
}

/// `getRetentionOffer(userUuid)`: the offer, or null (a failure empties the offer).
async fn retention_offer(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    Query(q): Query<RetentionQuery>,
) -> Result<Json<Value>, ApiError> {
    if q.user_uuid.is_some_and(|u| u != claims.sub) {
        return Err(RetentionRefusal::NotYours.into());
    }
    let offer = retention::retention_offer(&state, claims.sub, &claims.tenant).await?;
    Ok(Json(json!({ "retentionOffer": offer })))
}

#[tracing::instrument(name = "reactivate_cancelled_rebill", skip_all)]
async fn reactivate_cancelled_rebill(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<ReactivateCancelledRebill>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    retention::reactivate_cancelled_rebill(&state, claims.sub, &claims.tenant, &request).await??;
    let read = queries::read(&state.pool, claims.sub, &claims.tenant, Utc::now()).await?;
    Ok(Json(success_with(read.light)))
}

#[tracing::instrument(name = "cancel", skip_all)]
async fn cancel(State(state): State<AppState>, Authenticated(claims): Authenticated) -> Result<Json<Value>, ApiError> {
    retention::cancel(&state, claims.sub, &claims.tenant).await??;
    let read = queries::read(&state.pool, claims.sub, &claims.tenant, Utc::now()).await?;
    Ok(Json(success_with(read.light)))
}

/// `{success: true}` and the light read after the change.
fn success_with(light: crate::view::LightRead) -> Value {
    let mut answer = serde_json::to_value(light).expect("json");
    answer["success"] = json!(true);
    answer
}

/// `creditCardUpdate`: `{url}` only for the biller path /vxnbill.
async fn credit_card_update(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
) -> Result<Json<Value>, ApiError> {
    let url = retention::credit_card_update(&state, claims.sub, &claims.tenant).await??;
    Ok(Json(json!({ "url": url })))
}

/// `outgoingUpsellOneclick`: sold to the signed-in member, or the fallback, or the
/// confirmation step.
#[tracing::instrument(name = "outgoing_upsell_oneclick", skip_all)]
async fn outgoing_upsell_oneclick(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<OutgoingUpsellRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    let answer = outgoing::oneclick(&state, claims.sub, &claims.tenant, &request).await??;
    Ok(Json(serde_json::to_value(answer).expect("json")))
}

/// `outgoingUpsellOneclickTracking(status)`.
async fn outgoing_upsell_tracking(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    request: Result<Json<TrackingRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let request = body(request)?;
    let answer = outgoing::tracking(&state, claims.sub, &request).await?;
    Ok(Json(serde_json::to_value(answer).expect("json")))
}
