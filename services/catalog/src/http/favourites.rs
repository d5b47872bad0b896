//! A member's favourites: videos, performers and channels kept, listed and checked.

use super::*;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .serve(&routes::FAVOURITES, list_favourites)
        .serve(&routes::ADD_FAVOURITE, add_favourite)
        .serve(&routes::REMOVE_FAVOURITE, remove_favourite)
        .serve(&routes::FAVOURITE_IDS, favourite_ids)
        .serve(&routes::CHECK_FAVOURITES, check_favourites)
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
