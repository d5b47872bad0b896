//! The internal API: the gateway reads lists and pages and forwards members' community
//! actions with their access token. Answers use the spec's names; refusals are
//! `{code, message}` with a SCREAMING_SNAKE code and the spec's message.

use std::future::Future;
use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::{rejection::JsonRejection, rejection::QueryRejection, FromRef, Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Extension, Json, Router,
};
use proto_events::catalog::{CatalogEvent, CommentVote, ExpertReviewItem, FavouriteTarget, ReelAction};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Access, Admin, Authenticated, Claims, Gate, MaybeAuthenticated, Route, Verifier, TENANT_HEADER};
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
use crate::AppState;

/// Largest page a list answers.
pub const MAX_PAGE_SIZE: i64 = 100;
pub const DEFAULT_PAGE_SIZE: i64 = 12;
/// Page numbers are 32-bit (spec §9: max 2147483647).
pub const MAX_PAGE: i64 = 2_147_483_647;
/// The largest offset a list is asked for: the last page of the largest size.
pub const MAX_SKIP: i64 = (MAX_PAGE - 1) * MAX_PAGE_SIZE;
/// Favourites come in batches of at most 100 (spec §9).
pub const FAVOURITE_BATCH: i64 = 100;
/// The channel widget shows the last 6 videos (spec §9).
pub const CHANNEL_WIDGET: i64 = 6;
pub const MAX_BATCH_IDS: usize = 200;

impl FromRef<AppState> for Verifier {
    fn from_ref(state: &AppState) -> Verifier {
        state.verifier.clone()
    }
}

pub fn router(state: AppState) -> Router {
    let router = Router::new()
        .route("/internal/videos", get(list_videos))
        .route("/internal/videos/top-rated", get(top_rated))
        .route("/internal/videos/awarded", get(awarded))
        .route("/internal/videos/batch", post(videos_batch))
        .route("/internal/videos/by-slug/{slug}", get(get_video))
        .route("/internal/videos/by-slug/{slug}/picture-set", get(get_picture_set))
        .route("/internal/videos/{video_id}/comments", get(list_comments).post(add_comment))
        .route("/internal/videos/{video_id}/rating", post(rate_video))
        .route("/internal/videos/{video_id}/expert-review", get(get_expert_review))
        .route("/internal/expert-review", post(update_expert_review))
        .route("/internal/comments/{comment_id}", get(get_comment).delete(remove_comment))
        .route("/internal/comments/{comment_id}/replies", get(list_replies).post(reply))
        .route("/internal/comments/{comment_id}/votes", post(vote))
        .route("/internal/comments/{comment_id}/pin", post(pin))
        .route("/internal/comments/{comment_id}/unpin", post(unpin))
        .route("/internal/performers", get(list_performers))
        .route("/internal/performers/batch", post(performers_batch))
        .route("/internal/performers/{slug}", get(get_performer))
        .route("/internal/categories", get(list_categories))
        .route("/internal/filters", get(all_filters))
        .route("/internal/channels", get(list_channels))
        .route("/internal/channels/batch", post(channels_batch))
        .route("/internal/channels/all-videos", get(all_channel_videos))
        .route("/internal/channels/{slug}", get(get_channel))
        .route("/internal/channels/{slug}/videos", get(channel_videos))
        .route("/internal/channels/{slug}/latest-videos", get(latest_channel_videos))
        .route("/internal/channels/{slug}/packs/{pack_slug}", get(get_channel_pack))
        .route("/internal/search", get(search))
        .route("/internal/sites/{brand}/{kind}", get(sister_site))
        .route("/internal/recommendations", get(recommendations_shelf))
        .route("/internal/recommendations-tracking", post(recommendations_tracking))
        .route("/internal/reels", get(list_reels))
        .route("/internal/reels/{reel_id}", get(get_reel))
        .route("/internal/rest/reel/{action}", post(reel_tracking))
        .route("/internal/showcases", get(list_showcases))
        .route("/internal/showcases/{slug}", get(get_showcase))
        .route("/internal/angels", get(list_angels))
        .route("/internal/angels/{slug}", get(get_angel))
        .route("/internal/wall", get(get_wall))
        .route("/internal/favourites", get(list_favourites).post(add_favourite))
        .route("/internal/favourites/remove", post(remove_favourite))
        .route("/internal/favourites/ids", get(favourite_ids))
        .route("/internal/favourites/check", post(check_favourites))
        .route("/internal/admin/content", post(publish_content))
        .route("/media/placeholder/{kind}/{file}", get(crate::media::placeholder))
        .route("/media/trailers/{file}", get(crate::media::trailer_clip));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions.md, "trust model"): the catalog's pages
/// for anyone the gateway vouches for (a user, or its service token for a visitor); what a
/// user writes or keeps (comments, votes, ratings, favourites) for that user's own token;
/// publishing for an admin's token.
pub const INTERNAL_ROUTES: &[Route] = &[
    Route::get("/internal/videos", Access::Any),
    Route::get("/internal/videos/top-rated", Access::Any),
    Route::get("/internal/videos/awarded", Access::Any),
    Route::post("/internal/videos/batch", Access::Any),
    Route::get("/internal/videos/by-slug/{slug}", Access::Any),
    Route::get("/internal/videos/by-slug/{slug}/picture-set", Access::Any),
    Route::get("/internal/videos/{video_id}/comments", Access::Any),
    Route::post("/internal/videos/{video_id}/comments", Access::User),
    Route::post("/internal/videos/{video_id}/rating", Access::User),
    Route::get("/internal/videos/{video_id}/expert-review", Access::User),
    Route::post("/internal/expert-review", Access::User),
    Route::get("/internal/comments/{comment_id}", Access::Any),
    Route::delete("/internal/comments/{comment_id}", Access::User),
    Route::get("/internal/comments/{comment_id}/replies", Access::Any),
    Route::post("/internal/comments/{comment_id}/replies", Access::User),
    Route::post("/internal/comments/{comment_id}/votes", Access::User),
    Route::post("/internal/comments/{comment_id}/pin", Access::User),
    Route::post("/internal/comments/{comment_id}/unpin", Access::User),
    Route::get("/internal/performers", Access::Any),
    Route::post("/internal/performers/batch", Access::Any),
    Route::get("/internal/performers/{slug}", Access::Any),
    Route::get("/internal/categories", Access::Any),
    Route::get("/internal/filters", Access::Any),
    Route::get("/internal/channels", Access::Any),
    Route::post("/internal/channels/batch", Access::Any),
    Route::get("/internal/channels/all-videos", Access::Any),
    Route::get("/internal/channels/{slug}", Access::Any),
    Route::get("/internal/channels/{slug}/videos", Access::Any),
    Route::get("/internal/channels/{slug}/latest-videos", Access::Any),
    Route::get("/internal/channels/{slug}/packs/{pack_slug}", Access::Any),
    Route::get("/internal/search", Access::Any),
    Route::get("/internal/sites/{brand}/{kind}", Access::Any),
    Route::get("/internal/recommendations", Access::Any),
    Route::post("/internal/recommendations-tracking", Access::User),
    Route::get("/internal/reels", Access::Any),
    Route::get("/internal/reels/{reel_id}", Access::Any),
    Route::post("/internal/rest/reel/{action}", Access::User),
    Route::get("/internal/showcases", Access::Any),
    Route::get("/internal/showcases/{slug}", Access::Any),
    Route::get("/internal/angels", Access::Any),
    Route::get("/internal/angels/{slug}", Access::Any),
    Route::get("/internal/wall", Access::Any),
    Route::get("/internal/favourites", Access::User),
    Route::post("/internal/favourites", Access::User),
    Route::post("/internal/favourites/remove", Access::User),
    Route::get("/internal/favourites/ids", Access::User),
    Route::post("/internal/favourites/check", Access::User),
    Route::post("/internal/admin/content", Access::User),
];

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
        match e {
            JsonRejection::JsonDataError(e) => ApiError::Invalid(e.body_text()),
            other => ApiError::BadRequest(other.body_text()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> Self {
        ApiError::BadRequest(e.body_text())
    }
}

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
    Ok(Json(api::VideoPage { videos, total_count, page, size }))
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

// ---------------------------------------------------------------------------------------
// Videos
// ---------------------------------------------------------------------------------------

/// The video listing: page, size, order (or filter) and the faceted filters.
async fn list_videos(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let order = order_of(q.order.as_deref(), q.filter.as_deref(), VideoOrder::Newest)?;
    let mut categories = q.categories.as_deref().map(queries::category_slugs).unwrap_or_default();
    if let Some(search) = q.search.as_deref().filter(|s| !s.trim().is_empty()) {
        categories.extend(queries::category_slugs(search));
    }
    let key = listing_key(&site, order, &categories, q.performer.as_deref(), q.page, q.size);
    let depends = Depends::listing(&site);
    cached(&state, key, depends, || async {
        let performer = match q.performer.as_deref() {
            None => None,
            Some(slug) => match queries::performer_by_slug(&state.pool, slug).await? {
                Some(p) => Some(p.id),
                None => {
                    return Ok(api::VideoPage {
                        videos: vec![],
                        total_count: 0,
                        page: q.page.unwrap_or(1),
                        size: q.size.unwrap_or(DEFAULT_PAGE_SIZE),
                    })
                }
            },
        };
        let filter = VideoFilter { site, categories, performer, ..Default::default() };
        let Json(page) = page_of(&state, filter, order, q.page, q.size).await?;
        Ok(page)
    })
    .await
}

async fn top_rated(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let key = listing_key(&site, VideoOrder::Rating, &[], None, q.page, q.size);
    let depends = Depends::listing(&site);
    cached(&state, key, depends, || async {
        let filter = VideoFilter { site, ..Default::default() };
        let Json(page) = page_of(&state, filter, VideoOrder::Rating, q.page, q.size).await?;
        Ok(page)
    })
    .await
}

#[derive(Debug, Deserialize)]
pub struct AwardedQuery {
    pub site: Option<String>,
    pub skip: Option<i64>,
    /// The awards page (1 to 2147483647), instead of a skip: the offset `(page - 1) * first`
    /// is computed here, in 64 bits, as a 32-bit skip cannot reach the spec's last page.
    pub page: Option<i64>,
    pub first: Option<i64>,
}

/// getAwardedVideos(skip or page, first, site): award = 1, newest first, with totalCount.
async fn awarded(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<AwardedQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let first = q.first.unwrap_or(DEFAULT_PAGE_SIZE);
    if !(1..=MAX_PAGE_SIZE).contains(&first) {
        return Err(ApiError::Invalid(format!("first must be between 1 and {MAX_PAGE_SIZE}")));
    }
    let skip = match (q.skip, q.page) {
        (Some(_), Some(_)) => return Err(ApiError::Invalid("give skip or page, not both".into())),
        (None, Some(page)) => paging(Some(page), Some(first), DEFAULT_PAGE_SIZE)?.0,
        (skip, None) => {
            let skip = skip.unwrap_or(0);
            if !(0..=MAX_SKIP).contains(&skip) {
                return Err(ApiError::Invalid(format!("skip must be between 0 and {MAX_SKIP}")));
            }
            skip
        }
    };
    let (key, depends) = (json!(["awarded", site, skip, first]), Depends::listing(&site));
    cached(&state, key, depends, || async {
        let filter = VideoFilter { site, award_only: true, ..Default::default() };
        let (videos, total_count) = tokio::try_join!(
            queries::list_videos(&state.pool, &filter, VideoOrder::Newest, skip, first),
            queries::count_videos(&state.pool, &filter)
        )?;
        Ok(api::AwardedVideos { videos, total_count })
    })
    .await
}

/// Videos by uuid for the gateway's DataLoader.
async fn videos_batch(
    State(state): State<AppState>,
    body: Result<Json<api::IdsRequest>, JsonRejection>,
) -> ApiResult<api::Videos> {
    let Json(request) = body?;
    if request.ids.len() > MAX_BATCH_IDS {
        return Err(ApiError::Invalid(format!("at most {MAX_BATCH_IDS} ids")));
    }
    Ok(Json(api::Videos { videos: queries::videos_by_ids(&state.pool, &request.ids).await? }))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoQuery {
    pub site: Option<String>,
    pub related_count: Option<i64>,
    #[serde(default)]
    pub cross_navigation: bool,
}

/// getVideo(videoSlug, site, relatedCount).
async fn get_video(
    State(state): State<AppState>,
    headers: HeaderMap,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    Path(slug): Path<String>,
    query: Result<Query<VideoQuery>, QueryRejection>,
) -> ApiResult<api::VideoDetail> {
    let Query(q) = query?;
    slug_or_404(&slug)?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let related_count = q.related_count.unwrap_or(0);
    if !(0..=MAX_PAGE_SIZE).contains(&related_count) {
        return Err(ApiError::Invalid(format!("relatedCount must be between 0 and {MAX_PAGE_SIZE}")));
    }
    let video = queries::video_by_slug(&state.pool, &site, &slug)
        .await?
        .ok_or_else(|| ApiError::NotFound("video not found".into()))?;
    let pool = &state.pool;
    let (related, has_picture_set, comment_count, user_rating, channel_name) = tokio::try_join!(
        queries::related(pool, &video, related_count, q.cross_navigation),
        queries::has_picture_set(pool, video.uuid),
        queries::comment_count(pool, video.uuid),
        async {
            match &claims {
                Some(c) => queries::user_rating(pool, c.sub, video.uuid).await,
                None => Ok(None),
            }
        },
        async {
            match &video.channel {
                Some(ch) => queries::channel_name(pool, ch.channel_id).await,
                None => Ok(None),
            }
        },
    )?;
    Ok(Json(api::VideoDetail {
        video,
        related,
        has_picture_set,
        comment_count,
        user_rating: user_rating.map(i32::from).unwrap_or(domain::DEFAULT_USER_RATING),
        channel_name,
    }))
}

#[derive(Debug, Deserialize)]
pub struct SiteQuery {
    pub site: Option<String>,
}

/// getPictureSet(videoSlug, site).
async fn get_picture_set(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::PictureSet> {
    let Query(q) = query?;
    slug_or_404(&slug)?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let video = queries::video_by_slug(&state.pool, &site, &slug)
        .await?
        .ok_or_else(|| ApiError::NotFound("video not found".into()))?;
    let set = queries::picture_set(&state.pool, &video)
        .await?
        .ok_or_else(|| ApiError::NotFound("picture set not found".into()))?;
    Ok(Json(set))
}

async fn published_video(state: &AppState, video_id: Uuid) -> Result<api::Video, ApiError> {
    queries::videos_by_ids(&state.pool, &[video_id])
        .await?
        .into_iter()
        .find(|v| v.published)
        .ok_or_else(|| ApiError::NotFound("video not found".into()))
}

// ---------------------------------------------------------------------------------------
// Comments
// ---------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
pub struct CommentsQuery {
    pub sort: Option<String>,
    /// The cursor of the previous page ("load more").
    pub after: Option<String>,
    pub size: Option<i64>,
}

fn comment_paging(q: &CommentsQuery) -> Result<(CommentSort, i64, i64), ApiError> {
    let sort = match q.sort.as_deref() {
        None => CommentSort::Newest,
        Some(s) => CommentSort::parse(s).ok_or_else(|| ApiError::Invalid(format!("unknown sort {s:?}")))?,
    };
    let offset = match q.after.as_deref() {
        None | Some("") => 0,
        Some(c) => c.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| ApiError::Invalid("bad cursor".into()))?,
    };
    let size = q.size.unwrap_or(10);
    if !(1..=MAX_PAGE_SIZE).contains(&size) {
        return Err(ApiError::Invalid(format!("size must be between 1 and {MAX_PAGE_SIZE}")));
    }
    Ok((sort, offset, size))
}

fn comment_page(comments: Vec<api::Comment>, total: i64, offset: i64) -> api::CommentPage {
    let end = offset + comments.len() as i64;
    api::CommentPage {
        next_cursor: (end < total && !comments.is_empty()).then(|| end.to_string()),
        comments,
        total_count: total,
    }
}

async fn list_comments(
    State(state): State<AppState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    Path(video_id): Path<Uuid>,
    query: Result<Query<CommentsQuery>, QueryRejection>,
) -> ApiResult<api::CommentPage> {
    let Query(q) = query?;
    let (sort, offset, size) = comment_paging(&q)?;
    let viewer = claims.map(|c| c.sub);
    let (comments, total) = queries::comments(&state.pool, viewer, video_id, None, sort, offset, size).await?;
    Ok(Json(comment_page(comments, total, offset)))
}

async fn list_replies(
    State(state): State<AppState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    Path(comment_id): Path<Uuid>,
    query: Result<Query<CommentsQuery>, QueryRejection>,
) -> ApiResult<api::CommentPage> {
    let Query(q) = query?;
    let (sort, offset, size) = comment_paging(&q)?;
    let viewer = claims.map(|c| c.sub);
    let parent = queries::comment(&state.pool, viewer, comment_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("comment not found".into()))?;
    let (comments, total) =
        queries::comments(&state.pool, viewer, parent.video_id, Some(comment_id), sort, offset, size).await?;
    Ok(Json(comment_page(comments, total, offset)))
}

async fn get_comment(
    State(state): State<AppState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    Path(comment_id): Path<Uuid>,
) -> ApiResult<api::CommentAnswer> {
    let comment = queries::comment(&state.pool, claims.map(|c| c.sub), comment_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("comment not found".into()))?;
    Ok(Json(api::CommentAnswer { comment }))
}

async fn new_comment(
    state: &AppState,
    claims: &Claims,
    correlation: Option<Extension<CorrelationId>>,
    video_id: Uuid,
    parent_id: Option<Uuid>,
    text: String,
) -> ApiResult<api::CommentAnswer> {
    let new = NewComment {
        comment_id: Uuid::now_v7(),
        video_id,
        user_id: claims.sub,
        author_name: claims.username.clone(),
        text,
        parent_id,
        banned_words: state.config.banned_words.clone(),
    };
    let id = new.comment_id;
    commands::add_comment(&state.store, &meta_for(claims, correlation), new).await??;
    let comment = queries::comment(&state.pool, Some(claims.sub), id)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("comment vanished")))?;
    Ok(Json(api::CommentAnswer { comment }))
}

async fn add_comment(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(video_id): Path<Uuid>,
    body: Result<Json<api::AddCommentRequest>, JsonRejection>,
) -> ApiResult<api::CommentAnswer> {
    let Json(request) = body?;
    published_video(&state, video_id).await?;
    new_comment(&state, &claims, correlation, video_id, None, request.text).await
}

async fn reply(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(parent_id): Path<Uuid>,
    body: Result<Json<api::AddCommentRequest>, JsonRejection>,
) -> ApiResult<api::CommentAnswer> {
    let Json(request) = body?;
    let parent = queries::comment(&state.pool, None, parent_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("comment not found".into()))?;
    new_comment(&state, &claims, correlation, parent.video_id, Some(parent_id), request.text).await
}

async fn comment_command(
    state: &AppState,
    claims: &Claims,
    correlation: Option<Extension<CorrelationId>>,
    comment_id: Uuid,
    command: CommentCommand,
) -> ApiResult<api::CommentAnswer> {
    commands::comment(&state.store, &meta_for(claims, correlation), comment_id, command).await??;
    let comment = queries::comment(&state.pool, Some(claims.sub), comment_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("comment not found".into()))?;
    Ok(Json(api::CommentAnswer { comment }))
}

async fn vote(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(comment_id): Path<Uuid>,
    body: Result<Json<api::VoteRequest>, JsonRejection>,
) -> ApiResult<api::CommentAnswer> {
    let Json(request) = body?;
    let vote = match request.vote.as_str() {
        "like" | "up" => CommentVote::Like,
        "dislike" | "down" => CommentVote::Dislike,
        other => return Err(ApiError::Invalid(format!("vote is like or dislike, not {other:?}"))),
    };
    let command = CommentCommand::Vote { user_id: claims.sub, vote, at: chrono::Utc::now() };
    comment_command(&state, &claims, correlation, comment_id, command).await
}

/// Whether `claims` moderate the comment: a moderator's rights are per brand, over the videos
/// of the brand whose host they are signed in on (and the channel videos every brand shows).
async fn moderates(state: &AppState, claims: &Claims, comment_id: Uuid) -> Result<bool, ApiError> {
    if !domain::is_moderator(&claims.groups) {
        return Ok(false);
    }
    let Some(comment) = queries::comment(&state.pool, None, comment_id).await? else { return Ok(false) };
    let site = queries::videos_by_ids(&state.pool, &[comment.video_id]).await?.into_iter().next().map(|v| v.site);
    Ok(site.is_some_and(|site| site.eq_ignore_ascii_case(&claims.tenant) || site == domain::CHANNELS_SITE))
}

async fn pin(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(comment_id): Path<Uuid>,
) -> ApiResult<api::CommentAnswer> {
    let moderator = moderates(&state, &claims, comment_id).await?;
    let command = CommentCommand::Pin { by: claims.sub, moderator, at: chrono::Utc::now() };
    comment_command(&state, &claims, correlation, comment_id, command).await
}

async fn unpin(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(comment_id): Path<Uuid>,
) -> ApiResult<api::CommentAnswer> {
    let moderator = moderates(&state, &claims, comment_id).await?;
    let command = CommentCommand::Unpin { by: claims.sub, moderator, at: chrono::Utc::now() };
    comment_command(&state, &claims, correlation, comment_id, command).await
}

async fn remove_comment(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(comment_id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let moderator = moderates(&state, &claims, comment_id).await?;
    let command = CommentCommand::Remove { by: claims.sub, moderator, at: chrono::Utc::now() };
    commands::comment(&state.store, &meta_for(&claims, correlation), comment_id, command).await??;
    Ok(StatusCode::NO_CONTENT)
}

// ---------------------------------------------------------------------------------------
// Ratings and expert review
// ---------------------------------------------------------------------------------------

fn rating_u8(r: i64) -> u8 {
    r.clamp(0, 255) as u8
}

async fn rate_video(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(video_id): Path<Uuid>,
    body: Result<Json<api::RateRequest>, JsonRejection>,
) -> ApiResult<api::ExpertReviewAnswer> {
    let Json(request) = body?;
    let video = published_video(&state, video_id).await?;
    let command = ViewerCommandFor {
        user_id: claims.sub,
        command: ViewerCommand::RateVideo {
            video_id,
            rating: rating_u8(request.rating),
            recomm_id: request.recomm_id,
            at: chrono::Utc::now(),
        },
    };
    commands::viewer(&state.store, &meta_for(&claims, correlation), command).await??;
    Ok(Json(queries::expert_review(&state.pool, claims.sub, &video).await?))
}

async fn get_expert_review(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    Path(video_id): Path<Uuid>,
) -> ApiResult<api::ExpertReviewAnswer> {
    let video = published_video(&state, video_id).await?;
    Ok(Json(queries::expert_review(&state.pool, claims.sub, &video).await?))
}

/// updateExpertReview(videoId, slug, type, rating, recommId).
async fn update_expert_review(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<api::ExpertReviewRequest>, JsonRejection>,
) -> ApiResult<api::ExpertReviewAnswer> {
    let Json(request) = body?;
    let video = published_video(&state, request.video_id).await?;
    let slug = request.slug.clone().unwrap_or_default();
    let item = match request.kind.as_str() {
        "global" => ExpertReviewItem::Global {},
        "property" => ExpertReviewItem::Property {
            criterion: criterion_from_slug(&slug)
                .ok_or_else(|| ApiError::Invalid(format!("unknown criterion {slug:?}")))?,
        },
        "model" => {
            let performer = video
                .performers
                .iter()
                .find(|p| p.slug == slug)
                .ok_or_else(|| ApiError::Invalid(format!("{slug:?} is not a performer of this video")))?;
            ExpertReviewItem::Model { performer_id: performer.id, slug: performer.slug.clone() }
        }
        other => return Err(ApiError::Invalid(format!("type is global, property or model, not {other:?}"))),
    };
    let command = ViewerCommandFor {
        user_id: claims.sub,
        command: ViewerCommand::UpdateExpertReview {
            video_id: video.uuid,
            item,
            rating: rating_u8(request.rating),
            recomm_id: request.recomm_id,
            at: chrono::Utc::now(),
        },
    };
    commands::viewer(&state.store, &meta_for(&claims, correlation), command).await??;
    Ok(Json(queries::expert_review(&state.pool, claims.sub, &video).await?))
}

// ---------------------------------------------------------------------------------------
// Performers, categories, filters
// ---------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
pub struct PerformersQuery {
    pub site: Option<String>,
    pub order: Option<String>,
    pub gender: Option<String>,
    pub sex: Option<String>,
    pub page: Option<i64>,
    pub size: Option<i64>,
}

/// Performers: order default rating, gender default girls; `sex` (F, M) wins over gender.
async fn list_performers(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<PerformersQuery>, QueryRejection>,
) -> ApiResult<api::PerformerPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let order = match q.order.as_deref() {
        None | Some("") => PerformerOrder::Rating,
        Some(o) => PerformerOrder::parse(o).ok_or_else(|| ApiError::Invalid(format!("unknown order {o:?}")))?,
    };
    let sex = match (q.sex.as_deref(), q.gender.as_deref()) {
        (Some("F" | "f"), _) => Some("F"),
        (Some("M" | "m"), _) => Some("M"),
        (Some(other), _) => return Err(ApiError::Invalid(format!("sex is F or M, not {other:?}"))),
        (None, None | Some("girls") | Some("")) => Some("F"),
        (None, Some("guys")) => Some("M"),
        (None, Some("all")) => None,
        (None, Some(other)) => return Err(ApiError::Invalid(format!("gender is girls, guys or all, not {other:?}"))),
    };
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let (performers, total_count) = queries::list_performers(&state.pool, &site, sex, order, offset, limit).await?;
    Ok(Json(api::PerformerPage { performers, total_count, page, size }))
}

async fn get_performer(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::PerformerDetail> {
    let Query(q) = query?;
    slug_or_404(&slug)?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let performer = queries::performer_by_slug(&state.pool, &slug)
        .await?
        .ok_or_else(|| ApiError::NotFound("performer not found".into()))?;
    let order = order_of(q.order.as_deref(), q.filter.as_deref(), VideoOrder::Newest)?;
    let filter = VideoFilter { site, performer: Some(performer.id), ..Default::default() };
    let Json(videos) = page_of(&state, filter, order, q.page, q.size).await?;
    Ok(Json(api::PerformerDetail { performer, videos }))
}

async fn performers_batch(
    State(state): State<AppState>,
    body: Result<Json<api::IdsRequest>, JsonRejection>,
) -> ApiResult<serde_json::Value> {
    let Json(request) = body?;
    if request.ids.len() + request.slugs.len() > MAX_BATCH_IDS {
        return Err(ApiError::Invalid(format!("at most {MAX_BATCH_IDS} ids and slugs")));
    }
    let performers = queries::performers_by(&state.pool, &request.ids, &request.slugs).await?;
    Ok(Json(json!({ "performers": performers })))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FiltersQuery {
    pub site: Option<String>,
    /// `categories`, `performers` or `channels`: only that list (others empty).
    pub filter: Option<String>,
    pub min_scenes: Option<i64>,
}

async fn list_categories(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<FiltersQuery>, QueryRejection>,
) -> ApiResult<api::Categories> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let min = q.min_scenes.unwrap_or(0).max(0);
    Ok(Json(api::Categories { categories: queries::categories(&state.pool, &site, min).await? }))
}

/// getAllFilters(site, filter, minScenes).
async fn all_filters(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<FiltersQuery>, QueryRejection>,
) -> ApiResult<api::Filters> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let min = q.min_scenes.unwrap_or(0);
    if min < 0 {
        return Err(ApiError::Invalid("minScenes must not be negative".into()));
    }
    let mut filters = queries::filters(&state.pool, &site, min).await?;
    match q.filter.as_deref() {
        None | Some("") | Some("all") => {}
        Some("categories") => {
            filters.performers.clear();
            filters.channels.clear();
        }
        Some("performers") | Some("models") => {
            filters.categories.clear();
            filters.channels.clear();
        }
        Some("channels") => {
            filters.categories.clear();
            filters.performers.clear();
        }
        Some(other) => return Err(ApiError::Invalid(format!("unknown filter {other:?}"))),
    }
    Ok(Json(filters))
}

// ---------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------

async fn list_channels(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::ChannelPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let (channels, total_count) = queries::channels(&state.pool, &site, offset, limit).await?;
    Ok(Json(api::ChannelPage { channels, total_count, page, size }))
}

async fn channels_batch(
    State(state): State<AppState>,
    body: Result<Json<api::IdsRequest>, JsonRejection>,
) -> ApiResult<api::Channels> {
    let Json(request) = body?;
    if request.ids.len() + request.slugs.len() > MAX_BATCH_IDS {
        return Err(ApiError::Invalid(format!("at most {MAX_BATCH_IDS} ids and slugs")));
    }
    Ok(Json(api::Channels { channels: queries::channels_by_ids(&state.pool, &request.ids, &request.slugs).await? }))
}

async fn channel_of(state: &AppState, site: &str, slug: &str) -> Result<api::Channel, ApiError> {
    slug_or_404(slug)?;
    queries::channel_by_slug(&state.pool, site, slug)
        .await?
        .ok_or_else(|| ApiError::NotFound("channel not found".into()))
}

async fn get_channel(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::Channel> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    Ok(Json(channel_of(&state, &site, &slug).await?))
}

async fn channel_videos(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::VideoPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let channel = channel_of(&state, &site, &slug).await?;
    let order = order_of(q.order.as_deref(), q.filter.as_deref(), VideoOrder::Newest)?;
    page_of(
        &state,
        VideoFilter { site, channel: Some(channel.channel_id), ..Default::default() },
        order,
        q.page,
        q.size,
    )
    .await
}

#[derive(Debug, Deserialize)]
pub struct LatestQuery {
    pub site: Option<String>,
    pub limit: Option<i64>,
}

/// getChannelVideos(channelSlug): the last 6 videos of the channel on the channels site.
async fn latest_channel_videos(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<LatestQuery>, QueryRejection>,
) -> ApiResult<api::Videos> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let channel = channel_of(&state, &site, &slug).await?;
    let limit = q.limit.unwrap_or(CHANNEL_WIDGET);
    if !(1..=MAX_PAGE_SIZE).contains(&limit) {
        return Err(ApiError::Invalid(format!("limit must be between 1 and {MAX_PAGE_SIZE}")));
    }
    let filter = VideoFilter { site, channel: Some(channel.channel_id), ..Default::default() };
    Ok(Json(api::Videos { videos: queries::list_videos(&state.pool, &filter, VideoOrder::Newest, 0, limit).await? }))
}

async fn get_channel_pack(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((slug, pack_slug)): Path<(String, String)>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::ChannelPackDetail> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    slug_or_404(&pack_slug)?;
    let channel = channel_of(&state, &site, &slug).await?;
    let pack = channel
        .packs
        .iter()
        .find(|p| p.slug == pack_slug)
        .cloned()
        .ok_or_else(|| ApiError::NotFound("channel pack not found".into()))?;
    let filter = VideoFilter {
        site,
        channel: Some(channel.channel_id),
        ids: Some(pack.video_ids.clone()),
        ..Default::default()
    };
    let Json(videos) = page_of(&state, filter, VideoOrder::Newest, q.page, q.size).await?;
    Ok(Json(api::ChannelPackDetail { channel, pack, videos }))
}

async fn all_channel_videos(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::VideoPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let (videos, total_count) = queries::all_channel_videos(&state.pool, &site, offset, limit).await?;
    Ok(Json(api::VideoPage { videos, total_count, page, size }))
}

// ---------------------------------------------------------------------------------------
// Search and sister sites
// ---------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
pub struct SearchQuery {
    pub site: Option<String>,
    pub q: Option<String>,
    pub page: Option<i64>,
    pub size: Option<i64>,
}

/// search(q, page, size): ranked over titles, performers and categories, typo-tolerant.
async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<SearchQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let text = q.q.unwrap_or_default();
    if text.chars().count() > 200 {
        return Err(ApiError::Invalid("q has at most 200 characters".into()));
    }
    let words = queries::query_words(&text);
    if words.is_empty() {
        return Ok(Json(api::SearchResult {
            q: text,
            videos: vec![],
            total_count: 0,
            page,
            size,
            performers: vec![],
            categories: vec![],
            terms: vec![],
        })
        .into_response());
    }
    let (key, depends) = (json!(["search", site, text, page, size]), Depends::search(&site));
    let lower = text.trim().to_lowercase();
    let set_key = json!(["search-set", site, lower]).to_string();
    let state = &state;
    cached_under(state, key, depends.clone(), |generations| async move {
        // Every page (and spelling) of the query reads one set, ranked once.
        let set = state
            .read_cache
            .get_or_compute_under(&generations, set_key, &depends, || async {
                let set = queries::search_set(&state.pool, &site, &lower, &words).await?;
                Ok::<_, ApiError>(read_cache::encode(&set)?)
            })
            .await?;
        let set: queries::SearchSet = serde_json::from_slice(&set).map_err(anyhow::Error::from)?;
        let (videos, total_count) = match set.page(offset, limit) {
            Some(ids) => (queries::videos_by_ids(&state.pool, ids).await?, set.total),
            // Past the set's pages: ranked for this page alone.
            None => queries::search_videos(&state.pool, &site, &words, &set.expanded, offset, limit).await?,
        };
        let terms = set.expanded.iter().filter_map(|c| c.first().cloned()).collect();
        let (performers, categories) = (set.performers, set.categories);
        Ok(api::SearchResult { q: text, videos, total_count, page, size, performers, categories, terms })
    })
    .await
}

/// `/sites/{brand}/{type}`: a sister brand's videos or performers. The gateway checks the
/// brand is one of the tenant's standalone sites and not the tenant itself.
async fn sister_site(
    State(state): State<AppState>,
    Path((brand, kind)): Path<(String, String)>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    if !is_brand(&brand) {
        return Err(ApiError::NotFound(format!("no brand {brand:?}")));
    }
    match kind.as_str() {
        "videos" => {
            let order = order_of(q.order.as_deref(), q.filter.as_deref(), VideoOrder::Newest)?;
            let key = listing_key(&brand, order, &[], None, q.page, q.size);
            let depends = Depends::listing(&brand);
            cached(&state, key, depends, || async {
                let Json(page) =
                    page_of(&state, VideoFilter { site: brand, ..Default::default() }, order, q.page, q.size).await?;
                Ok(page)
            })
            .await
        }
        "performers" => {
            let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
            let (performers, total_count) =
                queries::list_performers(&state.pool, &brand, None, PerformerOrder::Rating, offset, limit).await?;
            Ok(Json(api::PerformerPage { performers, total_count, page, size }).into_response())
        }
        _ => Err(ApiError::NotFound(format!("no list {kind:?}"))),
    }
}

// ---------------------------------------------------------------------------------------
// Recommendations and tracking
// ---------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecommendationsQuery {
    pub site: Option<String>,
    pub shelf: Option<String>,
    pub video_id: Option<Uuid>,
    pub limit: Option<i64>,
    #[serde(default)]
    pub cross_navigation: bool,
}

/// recommendations(site, videoId, limit), plain or with cross-navigation, for any shelf.
async fn recommendations_shelf(
    State(state): State<AppState>,
    headers: HeaderMap,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    query: Result<Query<RecommendationsQuery>, QueryRejection>,
) -> ApiResult<api::Recommendations> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let default_shelf = match (q.video_id.is_some(), q.cross_navigation) {
        (true, true) => "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION",
        (true, false) => "VIDEO_PAGE_RECOMMENDATIONS",
        (false, _) => "HOME_RECOMMENDATIONS",
    };
    let shelf = q.shelf.as_deref().unwrap_or(default_shelf);
    if !recommendations::SHELVES.contains(&shelf) {
        return Err(ApiError::Invalid(format!("unknown shelf {shelf:?}")));
    }
    let limit = q.limit.unwrap_or(9);
    if !(1..=MAX_PAGE_SIZE).contains(&limit) {
        return Err(ApiError::Invalid(format!("limit must be between 1 and {MAX_PAGE_SIZE}")));
    }
    let video = match q.video_id {
        Some(id) => Some(published_video(&state, id).await?),
        None if recommendations::needs_video(shelf) => return Err(ApiError::Invalid(format!("{shelf} needs videoId"))),
        None => None,
    };
    let ask = recommendations::Ask { shelf, site: &site, video: video.as_ref(), limit, user: claims.map(|c| c.sub) };
    Ok(Json(recommendations::recommend(&state.pool, ask).await?))
}

fn same_user(claims: &Claims, body_user: Option<Uuid>) -> Result<(), ApiError> {
    match body_user {
        Some(u) if u != claims.sub => Err(ApiError::Refused {
            status: StatusCode::FORBIDDEN,
            code: "FORBIDDEN",
            message: "userId is not the signed-in user".into(),
        }),
        _ => Ok(()),
    }
}

/// POST /recommendations-tracking {email, userId, elementClicked, recommId}.
async fn recommendations_tracking(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<api::RecommendationTrackingRequest>, JsonRejection>,
) -> ApiResult<api::Tracked> {
    let Json(request) = body?;
    same_user(&claims, request.user_id)?;
    if request.recomm_id.is_empty()
        || request.recomm_id.len() > 100
        || request.element_clicked.is_empty()
        || request.element_clicked.len() > 200
    {
        return Err(ApiError::Invalid("recommId and elementClicked are required".into()));
    }
    let event = CatalogEvent::RecommendationClicked {
        user_id: claims.sub,
        recomm_id: request.recomm_id,
        element_clicked: request.element_clicked,
        clicked_at: chrono::Utc::now(),
    };
    commands::track(&state.store, &meta_for(&claims, correlation), claims.sub, event).await?;
    Ok(Json(api::Tracked { success: true }))
}

/// POST /rest/reel/{view|rating|add-bookmark|delete-bookmark|delete-rating|purchase}.
async fn reel_tracking(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    Path(action): Path<String>,
    body: Result<Json<api::ReelTrackingRequest>, JsonRejection>,
) -> ApiResult<api::Tracked> {
    let Some(action) = api::reel_action(&action) else {
        return Err(ApiError::NotFound(format!("no reel action {action:?}")));
    };
    let Json(request) = body?;
    same_user(&claims, request.user_id)?;
    let rating = match (action, request.rating) {
        (ReelAction::Rating, Some(r)) if (1..=domain::MAX_RATING as i64).contains(&r) => Some(r as u8),
        (ReelAction::Rating, _) => {
            return Err(ApiError::Invalid(format!("rating must be between 1 and {}", domain::MAX_RATING)))
        }
        _ => None,
    };
    if !queries::reel_exists(&state.pool, request.item_id).await? {
        return Err(ApiError::NotFound("reel not found".into()));
    }
    let event = CatalogEvent::ReelTracked {
        reel_id: request.item_id,
        user_id: claims.sub,
        action,
        rating,
        recomm_id: request.recomm_id,
        tracked_at: request.timestamp.unwrap_or_else(chrono::Utc::now),
    };
    commands::track(&state.store, &meta_for(&claims, correlation), claims.sub, event).await?;
    Ok(Json(api::Tracked { success: true }))
}

// ---------------------------------------------------------------------------------------
// Reels, showcases, angels, wall
// ---------------------------------------------------------------------------------------

async fn list_reels(
    State(state): State<AppState>,
    headers: HeaderMap,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<api::ReelPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let (reels, total_count) = queries::reels(&state.pool, claims.map(|c| c.sub), &site, offset, limit).await?;
    Ok(Json(api::ReelPage { reels, total_count, page, size }))
}

async fn get_reel(
    State(state): State<AppState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    Path(reel_id): Path<Uuid>,
) -> ApiResult<api::Reel> {
    let reel = queries::reel(&state.pool, claims.map(|c| c.sub), reel_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("reel not found".into()))?;
    Ok(Json(reel))
}

async fn list_showcases(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::Showcases> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    Ok(Json(api::Showcases { showcases: queries::showcases(&state.pool, &site, None).await? }))
}

async fn get_showcase(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::Showcase> {
    let Query(q) = query?;
    slug_or_404(&slug)?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let showcase = queries::showcases(&state.pool, &site, Some(&slug))
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::NotFound("showcase not found".into()))?;
    Ok(Json(showcase))
}

async fn list_angels(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::Angels> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    Ok(Json(api::Angels { angels: queries::angels(&state.pool, &site, None, 3).await? }))
}

async fn get_angel(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(slug): Path<String>,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::Angel> {
    let Query(q) = query?;
    slug_or_404(&slug)?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let angel = queries::angels(&state.pool, &site, Some(&slug), DEFAULT_PAGE_SIZE)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::NotFound("angel not found".into()))?;
    Ok(Json(angel))
}

async fn get_wall(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<LatestQuery>, QueryRejection>,
) -> ApiResult<api::Wall> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let limit = q.limit.unwrap_or(30);
    if !(1..=MAX_PAGE_SIZE).contains(&limit) {
        return Err(ApiError::Invalid(format!("limit must be between 1 and {MAX_PAGE_SIZE}")));
    }
    Ok(Json(api::Wall { posts: queries::wall(&state.pool, &site, limit).await? }))
}

// ---------------------------------------------------------------------------------------
// Favourites
// ---------------------------------------------------------------------------------------

fn favourite_kind(kind: &str) -> Result<&'static str, ApiError> {
    match kind {
        "video" | "videos" => Ok("video"),
        "performer" | "performers" | "model" | "models" => Ok("performer"),
        "channel" | "channels" => Ok("channel"),
        other => Err(ApiError::Invalid(format!("kind is video, performer or channel, not {other:?}"))),
    }
}

fn target(kind: &str, id: Uuid) -> FavouriteTarget {
    match kind {
        "video" => FavouriteTarget::Video { video_id: id },
        "performer" => FavouriteTarget::Performer { performer_id: id },
        _ => FavouriteTarget::Channel { channel_id: id },
    }
}

async fn target_exists(state: &AppState, kind: &str, id: Uuid) -> Result<bool, ApiError> {
    let sql = match kind {
        "video" => "select exists (select 1 from video where video_id = $1 and published)",
        "performer" => "select exists (select 1 from performer where performer_id = $1)",
        _ => "select exists (select 1 from channel where channel_id = $1)",
    };
    Ok(sqlx::query_scalar(sql).bind(id).fetch_one(&state.pool).await?)
}

async fn change_favourite(
    state: &AppState,
    claims: &Claims,
    correlation: Option<Extension<CorrelationId>>,
    request: api::FavouriteRequest,
    add: bool,
) -> ApiResult<api::FavouriteAnswer> {
    let kind = favourite_kind(&request.kind)?;
    if add && !target_exists(state, kind, request.id).await? {
        return Err(ApiError::NotFound(format!("{kind} not found")));
    }
    let at = chrono::Utc::now();
    let t = target(kind, request.id);
    let command = if add {
        ViewerCommand::AddFavourite { target: t, at }
    } else {
        ViewerCommand::RemoveFavourite { target: t, at }
    };
    commands::viewer(&state.store, &meta_for(claims, correlation), ViewerCommandFor { user_id: claims.sub, command })
        .await??;
    Ok(Json(api::FavouriteAnswer { kind: kind.into(), id: request.id, favourite: add }))
}

async fn add_favourite(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<api::FavouriteRequest>, JsonRejection>,
) -> ApiResult<api::FavouriteAnswer> {
    let Json(request) = body?;
    change_favourite(&state, &claims, correlation, request, true).await
}

async fn remove_favourite(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<api::FavouriteRequest>, JsonRejection>,
) -> ApiResult<api::FavouriteAnswer> {
    let Json(request) = body?;
    change_favourite(&state, &claims, correlation, request, false).await
}

#[derive(Debug, Deserialize)]
pub struct FavouritesQuery {
    pub kind: String,
    pub page: Option<i64>,
    pub size: Option<i64>,
}

async fn favourite_ids(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    query: Result<Query<FavouritesQuery>, QueryRejection>,
) -> ApiResult<api::FavouriteIds> {
    let Query(q) = query?;
    let kind = favourite_kind(&q.kind)?;
    let (offset, limit, _, _) = paging(q.page, Some(q.size.unwrap_or(FAVOURITE_BATCH)), FAVOURITE_BATCH)?;
    let (ids, total_count) = queries::favourite_ids(&state.pool, claims.sub, kind, offset, limit).await?;
    Ok(Json(api::FavouriteIds { kind: kind.into(), ids, total_count }))
}

/// The favourites page: the items themselves, most recent first.
async fn list_favourites(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    query: Result<Query<FavouritesQuery>, QueryRejection>,
) -> ApiResult<api::FavouritePage> {
    let Query(q) = query?;
    let kind = favourite_kind(&q.kind)?;
    let (offset, limit, page, size) = paging(q.page, q.size, DEFAULT_PAGE_SIZE)?;
    let (ids, total_count) = queries::favourite_ids(&state.pool, claims.sub, kind, offset, limit).await?;
    let mut answer = api::FavouritePage {
        kind: kind.into(),
        total_count,
        page,
        size,
        videos: vec![],
        performers: vec![],
        channels: vec![],
    };
    match kind {
        "video" => answer.videos = queries::videos_by_ids(&state.pool, &ids).await?,
        "performer" => {
            let mut found = queries::performers_by(&state.pool, &ids, &[]).await?;
            found.sort_by_key(|p| ids.iter().position(|i| *i == p.id));
            answer.performers = found;
        }
        _ => {
            let mut found = queries::channels_by_ids(&state.pool, &ids, &[]).await?;
            found.sort_by_key(|c| ids.iter().position(|i| *i == c.channel_id));
            answer.channels = found;
        }
    }
    Ok(Json(answer))
}

#[derive(Debug, Deserialize)]
pub struct CheckRequest {
    pub kind: String,
    pub ids: Vec<Uuid>,
}

/// Which of up to 100 items the member favourited.
async fn check_favourites(
    State(state): State<AppState>,
    Authenticated(claims): Authenticated,
    body: Result<Json<CheckRequest>, JsonRejection>,
) -> ApiResult<api::FavouriteIds> {
    let Json(request) = body?;
    let kind = favourite_kind(&request.kind)?;
    if request.ids.len() as i64 > FAVOURITE_BATCH {
        return Err(ApiError::Invalid(format!("at most {FAVOURITE_BATCH} ids")));
    }
    let ids = queries::favourites_among(&state.pool, claims.sub, kind, &request.ids).await?;
    Ok(Json(api::FavouriteIds { kind: kind.into(), total_count: ids.len() as i64, ids }))
}

// ---------------------------------------------------------------------------------------
// Publishing (operators)
// ---------------------------------------------------------------------------------------

/// An operator publishes content: each item is a catalog content event (VideoPublished,
/// PerformerPublished, ...), decided and validated like the seed's.
async fn publish_content(
    State(state): State<AppState>,
    Admin(claims): Admin,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<Vec<CatalogEvent>>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(content) = body?;
    let mut meta = EventMeta::new(Actor::Admin(claims.sub));
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    match commands::publish_all(&state.store, &meta, &content, 500, false).await {
        Ok(report) => Ok(Json(json!({ "written": report.written, "unchanged": report.unchanged }))),
        Err(PublishError::Refused { stream, error }) => Err(ApiError::Invalid(format!("{stream}: {error}"))),
        Err(PublishError::Failed(e)) => Err(ApiError::Internal(e)),
    }
}
