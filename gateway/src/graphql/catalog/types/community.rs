//! Comments, ratings and reviews.

use super::*;

/// How comments are ordered.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[graphql(rename_items = "lowercase")]
pub enum CommentSort {
    #[default]
    Newest,
    Oldest,
    /// Most liked first.
    Top,
}

impl CommentSort {
    pub fn key(self) -> &'static str {
        match self {
            CommentSort::Newest => "newest",
            CommentSort::Oldest => "oldest",
            CommentSort::Top => "top",
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "lowercase")]
pub enum CommentVote {
    Like,
    Dislike,
}

impl CommentVote {
    pub fn key(self) -> &'static str {
        match self {
            CommentVote::Like => "like",
            CommentVote::Dislike => "dislike",
        }
    }
}

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Comment {
    pub id: ID,
    pub video_id: ID,
    pub parent_id: Option<ID>,
    pub author_name: Option<String>,
    pub text: String,
    pub created_at: DateTime<Utc>,
    pub likes: i64,
    pub dislikes: i64,
    pub reply_count: i64,
    pub pinned: bool,
    /// The viewer's vote: `like`, `dislike` or none.
    pub user_vote: Option<String>,
    /// Written by the signed-in user.
    pub is_mine: bool,
    /// Who wrote it (their badges and user type: `author`, see [`super::authors`]).
    #[graphql(skip)]
    pub author_id: uuid::Uuid,
}

impl Comment {
    pub fn of(c: api::Comment, viewer: Option<uuid::Uuid>) -> Self {
        Comment {
            id: id(c.id),
            video_id: id(c.video_id),
            parent_id: c.parent_id.map(id),
            author_name: c.author_name,
            text: c.text,
            created_at: c.created_at,
            likes: c.likes,
            dislikes: c.dislikes,
            reply_count: c.reply_count,
            pinned: c.pinned,
            user_vote: c.user_vote,
            is_mine: viewer == Some(c.user_id),
            author_id: c.user_id,
        }
    }
}

#[derive(SimpleObject)]
pub struct CommentPage {
    pub comments: Vec<Comment>,
    pub total_count: i64,
    /// Pass as `after` to load more; none at the end.
    pub next_cursor: Option<String>,
}

impl CommentPage {
    pub fn of(p: api::CommentPage, viewer: Option<uuid::Uuid>) -> Self {
        CommentPage {
            comments: p.comments.into_iter().map(|c| Comment::of(c, viewer)).collect(),
            total_count: p.total_count,
            next_cursor: p.next_cursor,
        }
    }
}

#[derive(SimpleObject)]
pub struct RemovedComment {
    pub id: ID,
    pub removed: bool,
}

/// What an expert review item is.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "lowercase")]
pub enum ExpertReviewType {
    /// The overall rating (1 to 10); it comes first.
    Global,
    /// A criterion (1 to 5), named by its slug.
    Property,
    /// A performer of the video (1 to 5), named by their slug.
    Model,
}

impl ExpertReviewType {
    pub fn key(self) -> &'static str {
        match self {
            ExpertReviewType::Global => "global",
            ExpertReviewType::Property => "property",
            ExpertReviewType::Model => "model",
        }
    }
}

#[derive(SimpleObject)]
pub struct ExpertProperty {
    pub name: String,
    pub slug: String,
    pub tooltip: String,
    /// -1 when not rated.
    pub rating: i32,
}

#[derive(SimpleObject)]
pub struct ExpertModel {
    pub slug: String,
    pub name: String,
    pub rating: i32,
}

#[derive(SimpleObject)]
pub struct ExpertReview {
    /// The overall rating, -1 when none.
    pub global: i32,
    pub properties: Vec<ExpertProperty>,
    pub models: Vec<ExpertModel>,
}

#[derive(SimpleObject)]
pub struct UserVideoRating {
    pub video_id: ID,
    /// -1 when not rated.
    pub rating: i32,
}

/// updateExpertReview's answer (and the rating's).
#[derive(SimpleObject)]
pub struct ExpertReviewAnswer {
    pub expert_review: ExpertReview,
    pub user_video_ratings: UserVideoRating,
    /// The video's average after it.
    pub video_rating: f64,
}

impl From<api::ExpertReviewAnswer> for ExpertReviewAnswer {
    fn from(a: api::ExpertReviewAnswer) -> Self {
        let r = a.expert_review;
        ExpertReviewAnswer {
            expert_review: ExpertReview {
                global: r.global,
                properties: r
                    .properties
                    .into_iter()
                    .map(|p| ExpertProperty { name: p.name, slug: p.slug, tooltip: p.tooltip, rating: p.rating })
                    .collect(),
                models: r
                    .models
                    .into_iter()
                    .map(|m| ExpertModel { slug: m.slug, name: m.name, rating: m.rating })
                    .collect(),
            },
            user_video_ratings: UserVideoRating {
                video_id: id(a.user_video_ratings.video_id),
                rating: a.user_video_ratings.rating,
            },
            video_rating: a.video_rating,
        }
    }
}

/// A page of the signed-in user's favourites of one kind (the list matching the kind is filled).
#[derive(SimpleObject)]
pub struct FavoritePage {
    pub kind: FavoriteKind,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    pub videos: Vec<Video>,
    pub performers: Vec<Performer>,
    pub channels: Vec<Channel>,
}

/// A batch (up to 100) of favourite ids, most recent first.
#[derive(SimpleObject)]
pub struct FavoriteIds {
    pub kind: FavoriteKind,
    pub ids: Vec<ID>,
    pub total_count: i64,
}

#[derive(SimpleObject)]
pub struct FavoriteAnswer {
    pub kind: FavoriteKind,
    pub id: ID,
    /// Whether it is a favourite now.
    pub favorite: bool,
}

pub fn favorite_kind(kind: &str) -> FavoriteKind {
    match kind {
        "video" => FavoriteKind::Video,
        "performer" => FavoriteKind::Performer,
        _ => FavoriteKind::Channel,
    }
}

pub fn ids(v: Vec<uuid::Uuid>) -> Vec<ID> {
    v.into_iter().map(id).collect()
}
