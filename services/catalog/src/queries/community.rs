//! Comments and expert reviews.

use super::*;

// ----- comments -----

#[derive(sqlx::FromRow)]
struct CommentRow {
    comment_id: Uuid,
    video_id: Uuid,
    parent_comment_id: Option<Uuid>,
    user_id: Uuid,
    author_name: Option<String>,
    text: String,
    added_at: DateTime<Utc>,
    likes: i32,
    dislikes: i32,
    replies: i32,
    pinned: bool,
    user_vote: Option<String>,
}

impl CommentRow {
    fn into_api(self) -> api::Comment {
        api::Comment {
            id: self.comment_id,
            video_id: self.video_id,
            parent_id: self.parent_comment_id,
            user_id: self.user_id,
            author_name: self.author_name,
            text: self.text,
            created_at: self.added_at,
            likes: self.likes as i64,
            dislikes: self.dislikes as i64,
            reply_count: self.replies as i64,
            pinned: self.pinned,
            user_vote: self.user_vote,
        }
    }
}

const COMMENT_COLUMNS: &str = "c.comment_id, c.video_id, c.parent_comment_id, c.user_id, c.author_name, c.text, c.added_at,
    c.likes, c.dislikes, c.replies, c.pinned, (select vote from comment_vote cv where cv.comment_id = c.comment_id and cv.user_id = $1) as user_vote";

pub async fn comment(pool: &PgPool, viewer: Option<Uuid>, comment_id: Uuid) -> sqlx::Result<Option<api::Comment>> {
    let row: Option<CommentRow> =
        sqlx::query_as(&format!("select {COMMENT_COLUMNS} from comment c where c.comment_id = $2 and not c.removed"))
            .bind(viewer)
            .bind(comment_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(CommentRow::into_api))
}

/// How a thread is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentSort {
    Newest,
    Oldest,
    Top,
}

impl CommentSort {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "newest" | "new" => Some(CommentSort::Newest),
            "oldest" | "old" => Some(CommentSort::Oldest),
            "top" | "best" | "popular" => Some(CommentSort::Top),
            _ => None,
        }
    }
}

/// A page of a video's top-level comments (pinned first) or of a comment's replies
/// (oldest first), `offset` from the cursor.
pub async fn comments(
    pool: &PgPool,
    viewer: Option<Uuid>,
    video_id: Uuid,
    parent: Option<Uuid>,
    sort: CommentSort,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Comment>, i64)> {
    let (filter, order) = match parent {
        None => (
            "c.video_id = $2 and c.parent_comment_id is null and not c.removed",
            match sort {
                CommentSort::Newest => "c.pinned desc, c.pinned_at desc nulls last, c.added_at desc, c.comment_id desc",
                CommentSort::Oldest => "c.pinned desc, c.pinned_at desc nulls last, c.added_at asc, c.comment_id asc",
                CommentSort::Top => "c.pinned desc, c.pinned_at desc nulls last, c.likes - c.dislikes desc, c.added_at desc, c.comment_id desc",
            },
        ),
        Some(_) => ("c.parent_comment_id = $3 and not c.removed", "c.added_at asc, c.comment_id asc"),
    };
    let total: i64 = sqlx::query_scalar(&format!(
        "select count(*) from comment c where ($1::uuid is null or $1::uuid is not null) and {filter}"
    ))
    .bind(viewer)
    .bind(video_id)
    .bind(parent)
    .fetch_one(pool)
    .await?;
    let rows: Vec<CommentRow> = sqlx::query_as(&format!(
        "select {COMMENT_COLUMNS} from comment c where {filter} order by {order} limit $4 offset $5"
    ))
    .bind(viewer)
    .bind(video_id)
    .bind(parent)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((rows.into_iter().map(CommentRow::into_api).collect(), total))
}

// ----- ratings -----

pub async fn expert_review(pool: &PgPool, user_id: Uuid, video: &api::Video) -> sqlx::Result<api::ExpertReviewAnswer> {
    let rows: Vec<(String, i16)> =
        sqlx::query_as("select item, rating from expert_review where user_id = $1 and video_id = $2")
            .bind(user_id)
            .bind(video.uuid)
            .fetch_all(pool)
            .await?;
    let items: HashMap<String, i32> = rows.into_iter().map(|(k, r)| (k, r as i32)).collect();
    let overall =
        user_rating(pool, user_id, video.uuid).await?.map(|r| r as i32).unwrap_or(crate::domain::DEFAULT_USER_RATING);
    let video_rating: f64 =
        sqlx::query_scalar("select rating from video where video_id = $1").bind(video.uuid).fetch_one(pool).await?;
    let properties = CRITERIA
        .iter()
        .map(|(c, name, tooltip)| {
            let slug = crate::domain::criterion_slug(*c);
            api::ExpertProperty {
                name: (*name).into(),
                slug: slug.into(),
                tooltip: (*tooltip).into(),
                rating: items.get(&format!("property:{slug}")).copied().unwrap_or(-1),
            }
        })
        .collect();
    let models = video
        .performers
        .iter()
        .map(|p| api::ExpertModel {
            slug: p.slug.clone(),
            name: p.name.clone(),
            rating: items.get(&format!("model:{}", p.id)).copied().unwrap_or(-1),
        })
        .collect();
    Ok(api::ExpertReviewAnswer {
        expert_review: api::ExpertReview { global: overall, properties, models },
        user_video_ratings: api::UserVideoRating { video_id: video.uuid, rating: overall },
        video_rating: round1(video_rating),
    })
}
