//! Finding content: search and sister sites, recommendation shelves and their tracking,
//! reels, showcases, angels and the curator wall (the content subject, split off by size).

use super::*;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .serve(&routes::SEARCH, search)
        .serve(&routes::SISTER_SITE, sister_site)
        .serve(&routes::RECOMMENDATIONS, recommendations_shelf)
        .serve(&routes::TRACK_RECOMMENDATION, recommendations_tracking)
        .serve(&routes::REELS, list_reels)
        .serve(&routes::REEL, get_reel)
        .serve(&routes::TRACK_REEL, reel_tracking)
        .serve(&routes::SHOWCASES, list_showcases)
        .serve(&routes::SHOWCASE, get_showcase)
        .serve(&routes::ANGELS, list_angels)
        .serve(&routes::ANGEL, get_angel)
        .serve(&routes::WALL, get_wall)
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
    /// The brand's sister sites, comma-separated: what the cross-navigation shelf picks from.
    pub sisters: Option<String>,
}

/// The most sister sites a shelf is asked about (every brand but one).
const MAX_SISTERS: usize = 16;

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
    let sisters: Vec<String> =
        q.sisters.as_deref().unwrap_or_default().split(',').filter(|s| !s.is_empty()).map(str::to_lowercase).collect();
    if sisters.len() > MAX_SISTERS {
        return Err(ApiError::Invalid(format!("at most {MAX_SISTERS} sisters")));
    }
    if let Some(unknown) = sisters.iter().find(|s| !is_brand(s)) {
        return Err(ApiError::Invalid(format!("unknown site {unknown:?}")));
    }
    let ask = recommendations::Ask {
        shelf,
        site: &site,
        video: video.as_ref(),
        limit,
        user: claims.map(|c| c.sub),
        sisters: &sisters,
    };
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
