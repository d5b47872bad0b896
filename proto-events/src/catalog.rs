//! What there is to watch, and what members say about it.
//!
//! Streams: `video-<uuid>`, `performer-<uuid>`, `category-<uuid>`, `channel-<uuid>`,
//! `channel-pack-<uuid>`, `picture-set-<uuid>`, `comment-<uuid>` (a comment with its votes and
//! moderation), and `viewer-<user uuid>` (one member's ratings, expert reviews and favourites,
//! so "already rated" is decided on one stream).
//!
//! The `...Published` and `CategoryDefined` events carry the whole entity as it now is; a later
//! one of the same stream replaces the earlier, so readers upsert.
//!
//! Readers: unlocks (a pack's videos, a video's site and channel category for download quotas),
//! profile (percentage of unlocked channel packs), the gateway's read models (listings, pages,
//! comments, favourites, ratings) and the recommender feed.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::EventFamily;

pub fn video_stream_id(video_id: Uuid) -> String {
    format!("video-{video_id}")
}

pub fn performer_stream_id(performer_id: Uuid) -> String {
    format!("performer-{performer_id}")
}

pub fn category_stream_id(category_id: Uuid) -> String {
    format!("category-{category_id}")
}

pub fn channel_stream_id(channel_id: Uuid) -> String {
    format!("channel-{channel_id}")
}

pub fn channel_pack_stream_id(channel_pack_id: Uuid) -> String {
    format!("channel-pack-{channel_pack_id}")
}

pub fn picture_set_stream_id(picture_set_id: Uuid) -> String {
    format!("picture-set-{picture_set_id}")
}

/// A comment (or reply) with its votes and moderation.
pub fn comment_stream_id(comment_id: Uuid) -> String {
    format!("comment-{comment_id}")
}

/// One member's ratings, expert reviews and favourites.
pub fn viewer_stream_id(user_id: Uuid) -> String {
    format!("viewer-{user_id}")
}

/// A playable or downloadable quality of a video (spec: video tokens and download resolutions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VideoQuality {
    P270,
    P360,
    P480,
    /// 480 for mobile.
    P480l,
    P720,
    P1080,
    /// 4K UHD.
    P2160,
    /// Adaptive streaming; never a download.
    Hls,
}

impl VideoQuality {
    /// Every quality, in the order above.
    pub const ALL: [VideoQuality; 8] = [
        VideoQuality::P270,
        VideoQuality::P360,
        VideoQuality::P480,
        VideoQuality::P480l,
        VideoQuality::P720,
        VideoQuality::P1080,
        VideoQuality::P2160,
        VideoQuality::Hls,
    ];
}

/// The channel categories that share a separate download quota (product.md, "Downloads and quotas").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelCategory {
    Compilations,
    BehindTheScenes,
    Intimates,
}

/// Whether a channel is the studio's own or a partner's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    Internal,
    ThirdParty,
}

/// The channel a video belongs to, as the video carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VideoChannel {
    pub channel_id: Uuid,
    pub slug: String,
    /// The pack that must be unlocked to watch the video, when it is in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_pack_id: Option<Uuid>,
    /// The channel's category when the video was (re)published: it picks the download quota bucket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<ChannelCategory>,
}

/// A video as published: every field readers of the catalog need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Video {
    /// The video's `uuid`.
    pub video_id: Uuid,
    /// The video's `id` in the original catalogue (opaque).
    pub legacy_id: String,
    /// The video's `newId`, used as list key and in UnlockVideo (`videoNewId`).
    pub new_id: String,
    pub slug: String,
    /// Brand key of the site the video is released on.
    pub site: String,
    pub title: String,
    pub description: String,
    pub release_date: DateTime<Utc>,
    pub duration_seconds: u32,
    pub performer_ids: Vec<Uuid>,
    pub category_slugs: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<VideoChannel>,
    pub is_third_party_channel: bool,
    /// One of the videos a free limited trial may watch in full.
    pub is_free_limited_trial: bool,
    /// 1 for an awarded video (getAwardedVideos), 0 otherwise.
    pub award: u32,
    pub qualities: Vec<VideoQuality>,
}

/// One image of a picture set; its address is derived from the name by the CDN configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picture {
    pub name: String,
    pub width: u32,
    pub height: u32,
}

/// A comment vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommentVote {
    Like,
    Dislike,
}

/// The criteria of an expert review (product.md, "Comments, ratings and favourites"), each rated up to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpertReviewCriterion {
    PerformerChemistry,
    PhotoSet,
    SexPosition,
    SexScene,
    Lighting,
    Storyline,
    Location,
    CameraAngles,
}

/// What one updateExpertReview rated: the whole video, one criterion, or one performer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExpertReviewItem {
    /// The overall rating, up to 10; required before the others.
    Global {},
    Property {
        criterion: ExpertReviewCriterion,
    },
    Model {
        performer_id: Uuid,
        slug: String,
    },
}

/// What a member favourited.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FavouriteTarget {
    Video { video_id: Uuid },
    Performer { performer_id: Uuid },
    Channel { channel_id: Uuid },
}

/// Events of the catalog service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum CatalogEvent {
    /// A video became visible.
    VideoPublished {
        video: Video,
        published_at: DateTime<Utc>,
    },
    /// A published video changed: the whole video as it now is.
    VideoUpdated {
        video: Video,
        updated_at: DateTime<Utc>,
    },
    /// A video was withdrawn; unlocks and favourites of it stay recorded.
    VideoUnpublished {
        video_id: Uuid,
        unpublished_at: DateTime<Utc>,
    },
    PerformerPublished {
        performer_id: Uuid,
        slug: String,
        name: String,
        /// The faceted-search letter (`F`, `M`).
        sex: String,
        /// Brand keys the performer appears on.
        sites: Vec<String>,
        published_at: DateTime<Utc>,
    },
    CategoryDefined {
        category_id: Uuid,
        slug: String,
        name: String,
        /// Brand keys whose category list holds it.
        sites: Vec<String>,
        defined_at: DateTime<Utc>,
    },
    ChannelPublished {
        channel_id: Uuid,
        slug: String,
        name: String,
        kind: ChannelKind,
        /// `None` for a channel outside the three quota categories.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<ChannelCategory>,
        /// Brand keys that carry the channel.
        sites: Vec<String>,
        published_at: DateTime<Utc>,
    },
    /// A pack of a channel's videos, unlocked together with gems.
    ChannelPackPublished {
        channel_pack_id: Uuid,
        channel_id: Uuid,
        slug: String,
        name: String,
        video_ids: Vec<Uuid>,
        published_at: DateTime<Utc>,
    },
    PictureSetPublished {
        picture_set_id: Uuid,
        /// The video it belongs to (its page is reached by the video's slug).
        video_id: Uuid,
        site: String,
        pictures: Vec<Picture>,
        published_at: DateTime<Utc>,
    },
    CommentAdded {
        comment_id: Uuid,
        video_id: Uuid,
        user_id: Uuid,
        text: String,
        added_at: DateTime<Utc>,
        /// The name the comment is shown under (the author's username when written).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        author_name: Option<String>,
    },
    CommentReplied {
        comment_id: Uuid,
        /// The comment answered.
        parent_comment_id: Uuid,
        video_id: Uuid,
        user_id: Uuid,
        text: String,
        replied_at: DateTime<Utc>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        author_name: Option<String>,
    },
    /// A member liked or disliked a comment (once per member and comment).
    CommentVoted {
        comment_id: Uuid,
        video_id: Uuid,
        user_id: Uuid,
        vote: CommentVote,
        voted_at: DateTime<Utc>,
    },
    /// A moderator pinned a comment to the top of its video's thread.
    CommentPinned {
        comment_id: Uuid,
        video_id: Uuid,
        pinned_by: Uuid,
        pinned_at: DateTime<Utc>,
    },
    CommentUnpinned {
        comment_id: Uuid,
        video_id: Uuid,
        unpinned_by: Uuid,
        unpinned_at: DateTime<Utc>,
    },
    CommentRemoved {
        comment_id: Uuid,
        video_id: Uuid,
        removed_by: Uuid,
        removed_at: DateTime<Utc>,
    },
    /// A member rated a video (once; up to 10).
    VideoRated {
        video_id: Uuid,
        user_id: Uuid,
        rating: u8,
        /// The recommendation the video was reached from, for the recommender feed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recomm_id: Option<String>,
        rated_at: DateTime<Utc>,
    },
    /// A member rated one item of a video's expert review; a later rating of the same item replaces it.
    ExpertReviewUpdated {
        video_id: Uuid,
        user_id: Uuid,
        item: ExpertReviewItem,
        rating: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recomm_id: Option<String>,
        updated_at: DateTime<Utc>,
    },
    FavouriteAdded {
        user_id: Uuid,
        target: FavouriteTarget,
        added_at: DateTime<Utc>,
    },
    FavouriteRemoved {
        user_id: Uuid,
        target: FavouriteTarget,
        removed_at: DateTime<Utc>,
    },
    /// A short clip (reel, shown as a quickie) cut from a video.
    ReelPublished {
        reel_id: Uuid,
        site: String,
        title: String,
        /// The video the clip is cut from.
        video_id: Uuid,
        duration_seconds: u32,
        published_at: DateTime<Utc>,
    },
    /// A member's interaction with a reel (the reels tracking calls; the recommender feed).
    ReelTracked {
        reel_id: Uuid,
        user_id: Uuid,
        action: ReelAction,
        /// Only for `rating`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recomm_id: Option<String>,
        /// When the browser says it happened.
        tracked_at: DateTime<Utc>,
    },
    /// A member clicked an element of a recommendation shelf (POST /recommendations-tracking).
    RecommendationClicked {
        user_id: Uuid,
        recomm_id: String,
        element_clicked: String,
        clicked_at: DateTime<Utc>,
    },
    /// A curated page of videos (the showcases page).
    ShowcasePublished {
        showcase_id: Uuid,
        slug: String,
        title: String,
        description: String,
        sites: Vec<String>,
        video_ids: Vec<Uuid>,
        published_at: DateTime<Utc>,
    },
    /// A featured performer profile (the angels pages).
    AngelPublished {
        angel_id: Uuid,
        slug: String,
        name: String,
        performer_id: Uuid,
        bio: String,
        sites: Vec<String>,
        published_at: DateTime<Utc>,
    },
    /// A post on a brand's curator wall.
    CuratorPostPublished {
        post_id: Uuid,
        site: String,
        title: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        video_id: Option<Uuid>,
        published_at: DateTime<Utc>,
    },
}

/// What a reels tracking call reports (product.md, "Recommendations": view, rating, add bookmark, delete bookmark,
/// delete rating, purchase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReelAction {
    View,
    Rating,
    AddBookmark,
    DeleteBookmark,
    DeleteRating,
    Purchase,
}

/// A reel's stream.
pub fn reel_stream_id(reel_id: Uuid) -> String {
    format!("reel-{reel_id}")
}

/// A showcase's stream.
pub fn showcase_stream_id(showcase_id: Uuid) -> String {
    format!("showcase-{showcase_id}")
}

/// An angel's stream.
pub fn angel_stream_id(angel_id: Uuid) -> String {
    format!("angel-{angel_id}")
}

/// A curator post's stream.
pub fn curator_post_stream_id(post_id: Uuid) -> String {
    format!("curator-post-{post_id}")
}

/// One member's tracking calls (reels, recommendation clicks): kept apart from the viewer
/// stream so the rules of ratings and favourites never fold a long click history.
pub fn tracking_stream_id(user_id: Uuid) -> String {
    format!("tracking-{user_id}")
}

impl CatalogEvent {
    /// The video the event is about, when it is about one.
    pub fn video_id(&self) -> Option<Uuid> {
        match self {
            CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => {
                Some(video.video_id)
            }
            CatalogEvent::VideoUnpublished { video_id, .. }
            | CatalogEvent::PictureSetPublished { video_id, .. }
            | CatalogEvent::CommentAdded { video_id, .. }
            | CatalogEvent::CommentReplied { video_id, .. }
            | CatalogEvent::CommentVoted { video_id, .. }
            | CatalogEvent::CommentPinned { video_id, .. }
            | CatalogEvent::CommentUnpinned { video_id, .. }
            | CatalogEvent::CommentRemoved { video_id, .. }
            | CatalogEvent::VideoRated { video_id, .. }
            | CatalogEvent::ExpertReviewUpdated { video_id, .. }
            | CatalogEvent::ReelPublished { video_id, .. } => Some(*video_id),
            CatalogEvent::CuratorPostPublished { video_id, .. } => *video_id,
            CatalogEvent::FavouriteAdded { target: FavouriteTarget::Video { video_id }, .. }
            | CatalogEvent::FavouriteRemoved { target: FavouriteTarget::Video { video_id }, .. } => Some(*video_id),
            CatalogEvent::PerformerPublished { .. }
            | CatalogEvent::CategoryDefined { .. }
            | CatalogEvent::ChannelPublished { .. }
            | CatalogEvent::ChannelPackPublished { .. }
            | CatalogEvent::FavouriteAdded { .. }
            | CatalogEvent::FavouriteRemoved { .. }
            | CatalogEvent::ReelTracked { .. }
            | CatalogEvent::RecommendationClicked { .. }
            | CatalogEvent::ShowcasePublished { .. }
            | CatalogEvent::AngelPublished { .. } => None,
        }
    }

    /// The member who acted, for the events a member (not the studio) causes.
    pub fn user_id(&self) -> Option<Uuid> {
        match self {
            CatalogEvent::CommentAdded { user_id, .. }
            | CatalogEvent::CommentReplied { user_id, .. }
            | CatalogEvent::CommentVoted { user_id, .. }
            | CatalogEvent::VideoRated { user_id, .. }
            | CatalogEvent::ExpertReviewUpdated { user_id, .. }
            | CatalogEvent::FavouriteAdded { user_id, .. }
            | CatalogEvent::FavouriteRemoved { user_id, .. }
            | CatalogEvent::ReelTracked { user_id, .. }
            | CatalogEvent::RecommendationClicked { user_id, .. } => Some(*user_id),
            CatalogEvent::CommentPinned { pinned_by, .. } => Some(*pinned_by),
            CatalogEvent::CommentUnpinned { unpinned_by, .. } => Some(*unpinned_by),
            CatalogEvent::CommentRemoved { removed_by, .. } => Some(*removed_by),
            CatalogEvent::VideoPublished { .. }
            | CatalogEvent::VideoUpdated { .. }
            | CatalogEvent::VideoUnpublished { .. }
            | CatalogEvent::PerformerPublished { .. }
            | CatalogEvent::CategoryDefined { .. }
            | CatalogEvent::ChannelPublished { .. }
            | CatalogEvent::ChannelPackPublished { .. }
            | CatalogEvent::PictureSetPublished { .. }
            | CatalogEvent::ReelPublished { .. }
            | CatalogEvent::ShowcasePublished { .. }
            | CatalogEvent::AngelPublished { .. }
            | CatalogEvent::CuratorPostPublished { .. } => None,
        }
    }
}

impl EventFamily for CatalogEvent {
    const DOMAIN: &'static str = "catalog";
    const TYPES: &'static [(&'static str, u32)] = &[
        ("VideoPublished", 1),
        ("VideoUpdated", 1),
        ("VideoUnpublished", 1),
        ("PerformerPublished", 1),
        ("CategoryDefined", 1),
        ("ChannelPublished", 1),
        ("ChannelPackPublished", 1),
        ("PictureSetPublished", 1),
        ("CommentAdded", 1),
        ("CommentReplied", 1),
        ("CommentVoted", 1),
        ("CommentPinned", 1),
        ("CommentUnpinned", 1),
        ("CommentRemoved", 1),
        ("VideoRated", 1),
        ("ExpertReviewUpdated", 1),
        ("FavouriteAdded", 1),
        ("FavouriteRemoved", 1),
        ("ReelPublished", 1),
        ("ReelTracked", 1),
        ("RecommendationClicked", 1),
        ("ShowcasePublished", 1),
        ("AngelPublished", 1),
        ("CuratorPostPublished", 1),
    ];
}
