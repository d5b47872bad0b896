//! The internal API: the gateway reads lists and pages and forwards members' community
//! actions with their access token. Answers use the spec's names; refusals are
//! `{code, message}` with a SCREAMING_SNAKE code and the spec's message.
//!
//! This file holds the router, the trust table, the error type and the helpers every
//! handler shares; the handlers are split by subject: `content` and `discovery` (the
//! content subject), `community` and `favourites`.

use std::future::Future;
use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::{
        rejection::{JsonRejection, QueryRejection},
        Path, Query, State,
    },
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Extension, Json, Router,
};
use proto_events::catalog::{CatalogEvent, CommentVote, ExpertReviewItem, FavouriteTarget, ReelAction};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Admin, Authenticated, Claims, Gate, MaybeAuthenticated, Route, ServeRoute, TENANT_HEADER};
use runtime::http::CorrelationId;
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::api;
use crate::commands::{self, NewComment, PublishError};
use crate::domain::{
    self, criterion_from_slug, is_brand, is_content_site, is_valid_slug, CommentCommand, CommentError, ViewerCommand,
    ViewerCommandFor, ViewerError,
};
use crate::queries::{self, CommentSort, PerformerOrder, VideoFilter, VideoOrder};
use crate::read_cache::{self, Depends};
use crate::recommendations;
use crate::routes;
use crate::AppState;

mod community;
mod content;
mod discovery;
mod favourites;
mod sitemap;

pub use community::CommentsQuery;
pub use content::{AwardedQuery, FiltersQuery, LatestQuery, PerformersQuery, SiteQuery, VideoQuery};
pub use discovery::{RecommendationsQuery, SearchQuery};
pub use favourites::{CheckRequest, FavouritesQuery};

/// Largest page a list answers.
pub const MAX_PAGE_SIZE: i64 = 100;
pub const DEFAULT_PAGE_SIZE: i64 = 12;
/// Page numbers are 32-bit (product.md, "Business constants and limits": max 2147483647).
pub const MAX_PAGE: i64 = 2_147_483_647;
/// The largest offset a list is asked for: the last page of the largest size.
pub const MAX_SKIP: i64 = (MAX_PAGE - 1) * MAX_PAGE_SIZE;
/// Favourites come in batches of at most 100 (product.md, "Comments, ratings and favourites").
pub const FAVOURITE_BATCH: i64 = 100;
/// The channel widget shows the last 6 videos (product.md, "Business constants and limits").
pub const CHANNEL_WIDGET: i64 = 6;
pub const MAX_BATCH_IDS: usize = 200;

runtime::verifier_in_state!(AppState);

pub fn router(state: AppState) -> Router {
    let router = Router::new()
        .merge(content::router())
        .merge(discovery::router())
        .merge(community::router())
        .merge(favourites::router())
        .merge(sitemap::router())
        .route("/media/placeholder/{kind}/{file}", get(crate::media::placeholder));
    #[cfg(feature = "demo")]
    let router = router.route("/media/trailers/{file}", get(crate::media::trailer_clip));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]).
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    NotFound(String),
    /// Well-formed but not acceptable (bad page, size, slug, rating ...).
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("{message}")]
    Refused { status: StatusCode, code: &'static str, message: String },
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Refused { status, .. } => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::Invalid(_) => "INVALID_REQUEST",
            ApiError::BadRequest(_) => "BAD_REQUEST",
            ApiError::Refused { code, .. } => code,
            ApiError::Internal(_) => "INTERNAL",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(e) = &self {
            tracing::error!(error = %format!("{e:#}"), "catalog request failed");
        }
        (self.status_code(), Json(json!({ "code": self.code(), "message": self.to_string() }))).into_response()
    }
}

runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error, anyhow::Error);
runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable Invalid);

impl From<ViewerError> for ApiError {
    fn from(e: ViewerError) -> Self {
        let (status, code) = match e {
            ViewerError::AlreadyRated => (StatusCode::CONFLICT, "ALREADY_RATED"),
            ViewerError::OverallRatingFirst => (StatusCode::UNPROCESSABLE_ENTITY, "OVERALL_RATING_FIRST"),
            ViewerError::RatingOutOfRange { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "RATING_OUT_OF_RANGE"),
        };
        ApiError::Refused { status, code, message: e.to_string() }
    }
}

impl From<CommentError> for ApiError {
    fn from(e: CommentError) -> Self {
        let (status, code) = match e {
            CommentError::Duplicate => (StatusCode::CONFLICT, "DUPLICATE_COMMENT"),
            CommentError::BannedWord => (StatusCode::UNPROCESSABLE_ENTITY, "BANNED_WORD"),
            CommentError::AlreadyLiked => (StatusCode::CONFLICT, "ALREADY_LIKED"),
            CommentError::AlreadyDisliked => (StatusCode::CONFLICT, "ALREADY_DISLIKED"),
            CommentError::BadLength => (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_COMMENT"),
            CommentError::NotFound => (StatusCode::NOT_FOUND, "NOT_FOUND"),
            CommentError::NotModerator => (StatusCode::FORBIDDEN, "FORBIDDEN"),
            CommentError::ReplyNotPinnable | CommentError::ReplyToReply => {
                (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_REQUEST")
            }
            CommentError::AlreadyExists => (StatusCode::CONFLICT, "CONFLICT"),
        };
        ApiError::Refused { status, code, message: e.to_string() }
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

// ---------------------------------------------------------------------------------------
// Shared parameters
// ---------------------------------------------------------------------------------------

/// The site a read is for: the `site` parameter, else the tenant the gateway names.
fn site_of(param: Option<&str>, headers: &HeaderMap) -> Result<String, ApiError> {
    let site = param
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .or_else(|| headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned))
        .ok_or_else(|| ApiError::Invalid("site is required".into()))?
        .to_lowercase();
    if !is_content_site(&site) {
        return Err(ApiError::Invalid(format!("unknown site {site:?}")));
    }
    Ok(site)
}

/// `(offset, limit)` of a page, checked: page 1 to 2147483647, size 1 to 100.
fn paging(page: Option<i64>, size: Option<i64>, default_size: i64) -> Result<(i64, i64, i64, i64), ApiError> {
    let page = page.unwrap_or(1);
    let size = size.unwrap_or(default_size);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::Invalid(format!("page must be between 1 and {MAX_PAGE}")));
    }
    if !(1..=MAX_PAGE_SIZE).contains(&size) {
        return Err(ApiError::Invalid(format!("size must be between 1 and {MAX_PAGE_SIZE}")));
    }
    Ok(((page - 1) * size, size, page, size))
}

fn slug_or_404(slug: &str) -> Result<(), ApiError> {
    if is_valid_slug(slug) {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!("no such slug {slug:?}")))
    }
}

fn meta_for(claims: &Claims, correlation: Option<Extension<CorrelationId>>) -> EventMeta {
    let mut meta = EventMeta::new(Actor::User(claims.sub)).with_tenant(claims.tenant.clone());
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    meta
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    pub site: Option<String>,
    pub page: Option<i64>,
    pub size: Option<i64>,
    pub order: Option<String>,
    pub filter: Option<String>,
    pub categories: Option<String>,
    pub performer: Option<String>,
    pub search: Option<String>,
    /// The listing only: answer the page's performers' whole cards with it.
    #[serde(default)]
    pub performer_cards: bool,
}

async fn page_of(
    state: &AppState,
    filter: VideoFilter,
    order: VideoOrder,
    page: Option<i64>,
    size: Option<i64>,
) -> ApiResult<api::VideoPage> {
    let (offset, limit, page, size) = paging(page, size, DEFAULT_PAGE_SIZE)?;
    let (videos, total_count) = queries::list_page(&state.pool, &filter, order, offset, limit).await?;
    Ok(Json(api::VideoPage { videos, total_count, page, size, performers: Vec::new() }))
}

/// Pre-encoded JSON, as `Json` would answer it.
fn json_bytes(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response()
}

/// An answer through the read cache: `key` names everything the answer depends on besides
/// the read models `depends` lists; `compute` makes it on a miss.
async fn cached<T, F, Fut>(
    state: &AppState,
    key: serde_json::Value,
    depends: Depends,
    compute: F,
) -> Result<Response, ApiError>
where
    T: Serialize,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    cached_under(state, key, depends, |_| compute()).await
}

/// [`cached`], with the generations the answer is kept under handed to `compute`, for the
/// parts it reads through the cache itself.
async fn cached_under<T, F, Fut>(
    state: &AppState,
    key: serde_json::Value,
    depends: Depends,
    compute: F,
) -> Result<Response, ApiError>
where
    T: Serialize,
    F: FnOnce(Arc<read_cache::Generations>) -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let body = state
        .read_cache
        .get_or_compute(&state.pool, key.to_string(), &depends, |generations| async {
            let answer = compute(generations).await?;
            Ok::<_, ApiError>(read_cache::encode(&answer)?)
        })
        .await?;
    Ok(json_bytes(body))
}

/// The cache key of a page of videos (the listing, top rated and a sister brand's videos
/// share it when they ask the same).
fn listing_key(
    site: &str,
    order: VideoOrder,
    categories: &[String],
    performer: Option<&str>,
    page: Option<i64>,
    size: Option<i64>,
) -> serde_json::Value {
    json!([
        "videos",
        site,
        format!("{order:?}"),
        categories,
        performer,
        page.unwrap_or(1),
        size.unwrap_or(DEFAULT_PAGE_SIZE)
    ])
}

fn order_of(order: Option<&str>, filter: Option<&str>, default: VideoOrder) -> Result<VideoOrder, ApiError> {
    match order.or(filter.filter(|f| VideoOrder::parse(f).is_some())) {
        None => Ok(default),
        Some(o) => VideoOrder::parse(o).ok_or_else(|| ApiError::Invalid(format!("unknown order {o:?}"))),
    }
}

/// A published video by id, or 404 (what comments, ratings and recommendations hang on).
async fn published_video(state: &AppState, video_id: Uuid) -> Result<api::Video, ApiError> {
    queries::videos_by_ids(&state.pool, &[video_id])
        .await?
        .into_iter()
        .find(|v| v.published)
        .ok_or_else(|| ApiError::NotFound("video not found".into()))
}
