//! The internal API. The gateway calls it for a signed-in user (the browser's access token
//! forwarded as `Authorization: Bearer`, the brand in `x-paysite-tenant`); the media
//! endpoint is reached by the player with a media token in the query.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State as AxumState};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Extension, Json, Router};
use chrono::Duration;
use proto_events::{Actor, EventMeta};
use runtime::auth::{Admin, Authenticated, Claims, Gate, Route, ServeRoute, TENANT_HEADER};
use runtime::http::CorrelationId;
use serde::Deserialize;
use uuid::Uuid;

use crate::api::*;
use crate::domain::process as unlock;
use crate::entitlement::Asker;
use crate::error::ApiError;
use crate::{media, queries, routes, State};

/// 'Recent' (product.md, "Unlocks"): 14 days, 1209600000 ms.
pub const RECENT: Duration = Duration::milliseconds(1_209_600_000);
/// Most videos one access check may ask about.
pub const MAX_BATCH: usize = 200;

pub fn router(state: State) -> Router {
    let router = Router::new()
        .serve(&routes::UNLOCK_CHANNEL_PACK, unlock_channel_pack)
        .serve(&routes::UNLOCK_VIDEO, unlock_video)
        .serve(&routes::UNLOCK_STATE, my_unlock_state)
        .serve(&routes::USER_UNLOCK_STATE, user_unlock_state)
        .serve(&routes::VIDEO_ACCESS, video_access)
        .serve(&routes::VIDEO_TOKENS, video_tokens)
        .serve(&routes::DOWNLOAD_RESOLUTIONS, download_resolutions)
        .serve(&routes::DOWNLOAD, download)
        .serve(&routes::DOWNLOAD_QUOTAS, download_quotas)
        .serve(&routes::ORPHANED_DEBITS, orphaned_debits)
        .route("/media/videos/{video_id}/{quality}", get(media::serve))
        .route("/media/videos/{video_id}/{quality}/{segment}", get(media::serve_segment));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]). Media is no
/// internal route: media tokens carry its checks.
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

/// The brand of the request: the gateway's header, else the token's.
fn tenant<'a>(headers: &'a HeaderMap, claims: &'a Claims) -> &'a str {
    headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok()).filter(|t| !t.is_empty()).unwrap_or(&claims.tenant)
}

/// Who asks, as the access rules need them (the raw token is forwarded to the owners).
fn asker(headers: &HeaderMap, claims: &Claims) -> Asker {
    let bearer = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    Asker::of(claims, tenant(headers, claims), bearer)
}

fn meta(claims: &Claims, tenant: &str, correlation: Option<Extension<CorrelationId>>) -> EventMeta {
    let mut meta = EventMeta::new(Actor::User(claims.sub)).with_tenant(tenant);
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    meta
}

#[tracing::instrument(name = "http_unlock_channel_pack", skip_all)]
async fn unlock_channel_pack(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    channel_pack_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
) -> Result<Json<PackUnlockResponse>, ApiError> {
    let Path(channel_pack_id) = channel_pack_id?;
    let asker = asker(&headers, &claims);
    let meta = meta(&claims, &asker.tenant, correlation);
    Ok(Json(unlock::unlock_channel_pack(&state, &asker, channel_pack_id, &meta).await?))
}

#[tracing::instrument(name = "http_unlock_video", skip_all)]
async fn unlock_video(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
    body: Result<Json<UnlockVideoInput>, JsonRejection>,
) -> Result<Json<UnlockVideoResponse>, ApiError> {
    let Json(input) = body?;
    let asker = asker(&headers, &claims);
    let meta = meta(&claims, &asker.tenant, correlation);
    Ok(Json(unlock::unlock_video(&state, &asker, input, &meta).await?))
}

/// Operator: debits that opened nothing (to refund).
#[tracing::instrument(name = "http_orphaned_debits", skip_all)]
async fn orphaned_debits(
    AxumState(state): AxumState<State>,
    Admin(_): Admin,
) -> Result<Json<Vec<queries::OrphanedDebit>>, ApiError> {
    Ok(Json(queries::orphaned_debits(&state.pool).await?))
}

/// The unlocks part of a user's profile.
pub async fn unlock_state(state: &State, user_id: Uuid) -> Result<UnlockStateResponse, ApiError> {
    let rows = queries::unlock_rows(&state.pool, user_id).await?;
    let held = rows.channel_packs.len() as i64;
    let percentage =
        if rows.total_channel_packs > 0 { (held * 100 / rows.total_channel_packs).min(100) as u32 } else { 0 };
    let now = state.now();
    Ok(UnlockStateResponse {
        unlocked_channel_pack_ids: rows.channel_packs.iter().map(|(id, _)| *id).collect(),
        percentage_of_unlocked_channel_packs: percentage,
        last_channel_pack_unlock_date: rows.last_channel_pack_unlock_at,
        has_unlocked_channel_pack_in_last_two_weeks: rows
            .last_channel_pack_unlock_at
            .is_some_and(|at| now - at <= RECENT),
        unlocked_video_ids: rows.videos.iter().map(|v| v.0).collect(),
        unlocked_videos: rows
            .videos
            .into_iter()
            .map(|(video_id, new_id, paid_with, unlocked_at)| UnlockedVideo {
                video_id,
                new_id,
                paid_with,
                unlocked_at,
            })
            .collect(),
        free_limited_trial_videos_left: state.config.free_trial_videos.saturating_sub(rows.free_trial_videos_used),
        channel_pack_cost_gems: state.config.pack_gems,
        video_unlock_cost_credits: state.config.video_credits,
        free_limited_trial_videos: state.config.free_trial_videos,
        download_quotas: None,
    })
}

/// The signed-in user's unlocks and download quotas on the request's brand.
async fn my_unlock_state(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    headers: HeaderMap,
) -> Result<Json<UnlockStateResponse>, ApiError> {
    let tenant = tenant(&headers, &claims).to_owned();
    let (unlocks, quotas) = futures::try_join!(
        unlock_state(&state, claims.sub),
        media::download_quotas(&state, claims.sub, &tenant, Some(&tenant))
    )?;
    Ok(Json(UnlockStateResponse { download_quotas: Some(quotas), ..unlocks }))
}

/// For other services, or the user themself (the gate checks which).
async fn user_unlock_state(
    AxumState(state): AxumState<State>,
    user_id: Result<Path<Uuid>, PathRejection>,
) -> Result<Json<UnlockStateResponse>, ApiError> {
    let Path(user_id) = user_id?;
    Ok(Json(unlock_state(&state, user_id).await?))
}

async fn video_access(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    headers: HeaderMap,
    body: Result<Json<VideoAccessRequest>, JsonRejection>,
) -> Result<Json<VideoAccessResponse>, ApiError> {
    let Json(request) = body?;
    if request.video_ids.len() > MAX_BATCH {
        return Err(ApiError::Invalid(format!("at most {MAX_BATCH} videoIds")));
    }
    let found = queries::videos(&state.pool, &request.video_ids).await?;
    let access = media::access_of(&state, &asker(&headers, &claims), &found).await?;
    let videos = request.video_ids.iter().filter_map(|id| access.iter().find(|a| a.video_id == *id).cloned()).collect();
    Ok(Json(VideoAccessResponse { videos }))
}

#[tracing::instrument(name = "http_video_tokens", skip_all)]
async fn video_tokens(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    video_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
    body: Result<Json<TokenRequest>, JsonRejection>,
) -> Result<Json<TokenResponse>, ApiError> {
    let Path(video_id) = video_id?;
    let Json(request) = body?;
    let asker = asker(&headers, &claims);
    let meta = meta(&claims, &asker.tenant, correlation);
    Ok(Json(media::video_tokens(&state, &asker, video_id, &request.device, &meta).await?))
}

async fn download_resolutions(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    video_id: Result<Path<Uuid>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<DownloadResolutionsResponse>, ApiError> {
    let Path(video_id) = video_id?;
    Ok(Json(media::download_resolutions(&state, &asker(&headers, &claims), video_id).await?))
}

#[tracing::instrument(name = "http_download", skip_all)]
async fn download(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    video_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
    body: Result<Json<DownloadRequest>, JsonRejection>,
) -> Result<Json<DownloadResponse>, ApiError> {
    let Path(video_id) = video_id?;
    let Json(request) = body?;
    let asker = asker(&headers, &claims);
    let meta = meta(&claims, &asker.tenant, correlation);
    Ok(Json(media::download(&state, &asker, video_id, &request.size, &meta).await?))
}

#[derive(Deserialize)]
struct QuotaQuery {
    site: Option<String>,
}

async fn download_quotas(
    AxumState(state): AxumState<State>,
    Authenticated(claims): Authenticated,
    headers: HeaderMap,
    query: Result<Query<QuotaQuery>, QueryRejection>,
) -> Result<Json<DownloadQuotasResponse>, ApiError> {
    let Query(query) = query?;
    let tenant = tenant(&headers, &claims).to_owned();
    let site = query.site.unwrap_or_else(|| tenant.clone());
    if site.is_empty() || site.len() > 64 {
        return Err(ApiError::Invalid("site must have 1 to 64 characters".into()));
    }
    Ok(Json(media::download_quotas(&state, claims.sub, &site, Some(&tenant)).await?))
}
