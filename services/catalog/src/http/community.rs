//! The community around a video: comments (replies, votes, pins, removal), ratings and
//! expert reviews.

use super::*;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .serve(&routes::COMMENTS, list_comments)
        .serve(&routes::ADD_COMMENT, add_comment)
        .serve(&routes::RATE_VIDEO, rate_video)
        .serve(&routes::EXPERT_REVIEW, get_expert_review)
        .serve(&routes::UPDATE_EXPERT_REVIEW, update_expert_review)
        .serve(&routes::COMMENT, get_comment)
        .serve(&routes::REMOVE_COMMENT, remove_comment)
        .serve(&routes::REPLIES, list_replies)
        .serve(&routes::REPLY, reply)
        .serve(&routes::VOTE, vote)
        .serve(&routes::PIN, pin)
        .serve(&routes::UNPIN, unpin)
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
