//! Content pages: videos, picture sets, performers, categories and filters, channels and
//! their packs, and operators' publishing.

use super::*;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .serve(&routes::VIDEOS, list_videos)
        .serve(&routes::TOP_RATED_VIDEOS, top_rated)
        .serve(&routes::AWARDED_VIDEOS, awarded)
        .serve(&routes::FREE_TRIAL_VIDEOS, free_trial_videos)
        .serve(&routes::VIDEOS_BATCH, videos_batch)
        .serve(&routes::VIDEO, get_video)
        .serve(&routes::PICTURE_SET, get_picture_set)
        .serve(&routes::PERFORMERS, list_performers)
        .serve(&routes::PERFORMERS_BATCH, performers_batch)
        .serve(&routes::PERFORMER, get_performer)
        .serve(&routes::CATEGORIES, list_categories)
        .serve(&routes::FILTERS, all_filters)
        .serve(&routes::CHANNELS, list_channels)
        .serve(&routes::CHANNELS_BATCH, channels_batch)
        .serve(&routes::ALL_CHANNEL_VIDEOS, all_channel_videos)
        .serve(&routes::CHANNEL, get_channel)
        .serve(&routes::CHANNEL_VIDEOS, channel_videos)
        .serve(&routes::LATEST_CHANNEL_VIDEOS, latest_channel_videos)
        .serve(&routes::CHANNEL_PACK, get_channel_pack)
        .serve(&routes::PUBLISH_CONTENT, publish_content)
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
    if q.performer_cards {
        // Not kept in the read cache: the cards move with every rating of the performers'
        // videos, which the listing's generations do not follow.
        let mut page = listing_page(&state, site, order, categories, &q).await?;
        let mut ids: Vec<Uuid> = page.videos.iter().flat_map(|v| v.performers.iter().map(|p| p.id)).collect();
        ids.sort_unstable();
        ids.dedup();
        page.performers = queries::performers_by(&state.pool, &ids, &[]).await?;
        return Ok(Json(page).into_response());
    }
    let key = listing_key(&site, order, &categories, q.performer.as_deref(), q.page, q.size);
    let depends = Depends::listing(&site);
    cached(&state, key, depends, || listing_page(&state, site, order, categories, &q)).await
}

/// A page of the listing: the videos of a site (and of a performer, when one is named) with
/// the given categories, in `order`.
async fn listing_page(
    state: &AppState,
    site: String,
    order: VideoOrder,
    categories: Vec<String>,
    q: &ListQuery,
) -> Result<api::VideoPage, ApiError> {
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
                    performers: Vec::new(),
                })
            }
        },
    };
    let filter = VideoFilter { site, categories, performer, ..Default::default() };
    let Json(page) = page_of(state, filter, order, q.page, q.size).await?;
    Ok(page)
}

/// The free limited trial's videos of the sites a user's trial covers (`sites`, comma
/// separated, as the access rules' `free_trial_sites` name them), within the brand's listing,
/// newest first. Not kept in the read cache: the answer depends on the user's sites.
async fn free_trial_videos(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<FreeTrialQuery>, QueryRejection>,
) -> ApiResult<api::VideoPage> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let sites: Vec<String> = q
        .sites
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if sites.len() > 50 || sites.iter().any(|s| s.len() > 64) {
        return Err(ApiError::Invalid("at most 50 sites of at most 64 characters".into()));
    }
    let filter = VideoFilter { site, free_trial_of: Some(sites), ..Default::default() };
    page_of(&state, filter, VideoOrder::Newest, q.page, q.size).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FreeTrialQuery {
    pub site: Option<String>,
    pub sites: Option<String>,
    pub page: Option<i64>,
    pub size: Option<i64>,
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
    Ok(Json(api::VideoPage { videos, total_count, page, size, performers: Vec::new() }))
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
