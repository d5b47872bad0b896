//! The shapes of the internal API, shared by the handlers and the typed client. Answers use
//! the spec's names (camelCase), so the gateway passes them through.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The port the service listens on by default (`PAYSITE_CATALOG_URL` overrides the address).
pub const PORT: u16 = 8106;

/// One image in the sizes the front end picks from (spec: src, placeholder, width, height,
/// fileExtensions, highdpi double and triple).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    pub src: String,
    pub placeholder: String,
    pub width: u32,
    pub height: u32,
    pub file_extensions: Vec<String>,
    pub highdpi: HighDpi,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HighDpi {
    pub double: String,
    pub triple: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerformerRef {
    pub id: Uuid,
    pub slug: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategoryRef {
    pub slug: String,
    pub name: String,
}

/// The channel a video is in, as the video carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoChannelRef {
    pub channel_id: Uuid,
    pub slug: String,
    pub channel_pack_id: Option<Uuid>,
    /// `Compilations`, `Behind The Scenes`, `Intimates`, or none.
    pub category: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trailer {
    pub src: String,
    pub poster: String,
}

/// A video as lists and pages show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Video {
    pub uuid: Uuid,
    pub id: String,
    pub new_id: String,
    pub slug: String,
    pub site: String,
    pub title: String,
    pub description: String,
    pub release_date: DateTime<Utc>,
    /// Seconds.
    pub duration: u32,
    pub performers: Vec<PerformerRef>,
    pub categories: Vec<CategoryRef>,
    pub channel: Option<VideoChannelRef>,
    pub is_third_party_channel: bool,
    pub is_free_limited_trial: bool,
    pub award: u32,
    /// Average overall rating, one decimal; -1 when nobody rated it.
    pub rating: f64,
    pub rating_count: i64,
    pub qualities: Vec<String>,
    pub images: VideoImages,
    pub trailer: Trailer,
    pub published: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VideoImages {
    pub poster: Image,
    pub listing: Image,
}

/// A page of videos.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoPage {
    pub videos: Vec<Video>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    /// The whole cards of the page's performers, when the listing was asked for them
    /// (`performerCards`): one call where a page with its performers' cards took two.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub performers: Vec<Performer>,
}

/// getVideo: the video, the viewer's rating and the related videos.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoDetail {
    pub video: Video,
    pub related: Vec<Video>,
    pub has_picture_set: bool,
    pub comment_count: i64,
    /// The viewer's overall rating, -1 when none (or anonymous).
    pub user_rating: i32,
    pub channel_name: Option<String>,
}

/// getAwardedVideos.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AwardedVideos {
    pub videos: Vec<Video>,
    pub total_count: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Videos {
    pub videos: Vec<Video>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Performer {
    pub id: Uuid,
    pub slug: String,
    pub name: String,
    /// `girls` or `guys`.
    pub gender: String,
    /// `F` or `M` (faceted search).
    pub sex: String,
    pub rating: f64,
    pub video_count: i64,
    pub sites: Vec<String>,
    pub image: Image,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PerformerPage {
    pub performers: Vec<Performer>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

/// A performer's page: the performer and a page of their videos.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PerformerDetail {
    pub performer: Performer,
    pub videos: VideoPage,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub slug: String,
    pub name: String,
    /// Published videos of the category on the site.
    pub video_count: i64,
    pub image: Image,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Categories {
    pub categories: Vec<Category>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelPack {
    pub channel_pack_id: Uuid,
    pub channel_id: Uuid,
    pub slug: String,
    pub name: String,
    pub video_ids: Vec<Uuid>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Channel {
    pub channel_id: Uuid,
    pub slug: String,
    pub name: String,
    pub is_third_party: bool,
    /// `Compilations`, `Behind The Scenes`, `Intimates`, or none.
    pub category: Option<String>,
    pub sites: Vec<String>,
    pub video_count: i64,
    pub packs: Vec<ChannelPack>,
    pub image: Image,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelPage {
    pub channels: Vec<Channel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Channels {
    pub channels: Vec<Channel>,
}

/// A channel pack's page: the pack, its channel and a page of its videos.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelPackDetail {
    pub channel: Channel,
    pub pack: ChannelPack,
    pub videos: VideoPage,
}

/// getPictureSet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PictureSet {
    pub id: Uuid,
    pub video_id: Uuid,
    pub video_slug: String,
    pub site: String,
    pub title: String,
    pub images: Vec<Image>,
}

/// getAllFilters: the filter lists of a site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Filters {
    pub categories: Vec<FilterItem>,
    pub performers: Vec<FilterItem>,
    pub channels: Vec<FilterItem>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterItem {
    pub slug: String,
    pub name: String,
    /// Published scenes with it on the site.
    pub scenes: i64,
}

/// Search results: videos ranked over titles, performers and categories, plus the
/// performers and categories whose names match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub q: String,
    pub videos: Vec<Video>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    pub performers: Vec<PerformerRef>,
    pub categories: Vec<CategoryRef>,
    /// The words searched for after typo correction.
    pub terms: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendations {
    pub recomm_id: String,
    pub shelf: String,
    pub videos: Vec<Video>,
    /// RECOMMENDED_MODELS recommends performers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub performers: Vec<Performer>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    pub id: Uuid,
    pub video_id: Uuid,
    pub parent_id: Option<Uuid>,
    pub user_id: Uuid,
    pub author_name: Option<String>,
    pub text: String,
    pub created_at: DateTime<Utc>,
    pub likes: i64,
    pub dislikes: i64,
    pub reply_count: i64,
    pub pinned: bool,
    /// The viewer's vote: `like`, `dislike` or none.
    pub user_vote: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentPage {
    pub comments: Vec<Comment>,
    pub total_count: i64,
    /// Pass as `after` to load more; none at the end.
    pub next_cursor: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommentAnswer {
    pub comment: Comment,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpertProperty {
    pub name: String,
    pub slug: String,
    pub tooltip: String,
    /// -1 when not rated.
    pub rating: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpertModel {
    pub slug: String,
    pub name: String,
    pub rating: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpertReview {
    /// The overall rating, -1 when none.
    pub global: i32,
    pub properties: Vec<ExpertProperty>,
    pub models: Vec<ExpertModel>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserVideoRating {
    pub video_id: Uuid,
    /// -1 when not rated.
    pub rating: i32,
}

/// updateExpertReview's answer (also the rating read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpertReviewAnswer {
    pub expert_review: ExpertReview,
    pub user_video_ratings: UserVideoRating,
    /// The video's average after it.
    pub video_rating: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FavouriteIds {
    pub kind: String,
    pub ids: Vec<Uuid>,
    pub total_count: i64,
}

/// A page of favourites with the items themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FavouritePage {
    pub kind: String,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    #[serde(default)]
    pub videos: Vec<Video>,
    #[serde(default)]
    pub performers: Vec<Performer>,
    #[serde(default)]
    pub channels: Vec<Channel>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FavouriteAnswer {
    pub kind: String,
    pub id: Uuid,
    pub favourite: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reel {
    pub uuid: Uuid,
    pub site: String,
    pub title: String,
    pub video_id: Uuid,
    pub video_slug: Option<String>,
    pub duration: u32,
    pub published_at: DateTime<Utc>,
    pub views: i64,
    pub bookmarks: i64,
    pub image: Image,
    pub clip: Trailer,
    /// Whether the viewer bookmarked it.
    pub bookmarked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReelPage {
    pub reels: Vec<Reel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Showcase {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub videos: Vec<Video>,
    pub image: Image,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Showcases {
    pub showcases: Vec<Showcase>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Angel {
    pub slug: String,
    pub name: String,
    pub bio: String,
    pub performer: PerformerRef,
    pub image: Image,
    pub videos: Vec<Video>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Angels {
    pub angels: Vec<Angel>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CuratorPost {
    pub id: Uuid,
    pub title: String,
    pub text: String,
    pub published_at: DateTime<Utc>,
    pub video: Option<Video>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wall {
    pub posts: Vec<CuratorPost>,
}

/// What a tracking call answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tracked {
    pub success: bool,
}

// ----- requests -----

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct IdsRequest {
    #[serde(default)]
    pub ids: Vec<Uuid>,
    #[serde(default)]
    pub slugs: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AddCommentRequest {
    pub text: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VoteRequest {
    /// `like` or `dislike`.
    pub vote: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RateRequest {
    pub rating: i64,
    #[serde(default)]
    pub recomm_id: Option<String>,
}

/// updateExpertReview's input.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpertReviewRequest {
    pub video_id: Uuid,
    /// The criterion's or the performer's slug; ignored for `global`.
    #[serde(default)]
    pub slug: Option<String>,
    /// `global`, `property` or `model`.
    #[serde(rename = "type")]
    pub kind: String,
    pub rating: i64,
    #[serde(default)]
    pub recomm_id: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FavouriteRequest {
    /// `video`, `performer` or `channel`.
    pub kind: String,
    pub id: Uuid,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecommendationTrackingRequest {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub user_id: Option<Uuid>,
    pub element_clicked: String,
    pub recomm_id: String,
}

/// The reel action of `POST /rest/reel/{action}` (product.md, "Recommendations"): the one list,
/// which the gateway's edge and this service both read.
pub fn reel_action(path: &str) -> Option<proto_events::catalog::ReelAction> {
    use proto_events::catalog::ReelAction;
    Some(match path {
        "view" => ReelAction::View,
        "rating" => ReelAction::Rating,
        "add-bookmark" => ReelAction::AddBookmark,
        "delete-bookmark" => ReelAction::DeleteBookmark,
        "delete-rating" => ReelAction::DeleteRating,
        "purchase" => ReelAction::Purchase,
        _ => return None,
    })
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReelTrackingRequest {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub user_id: Option<Uuid>,
    #[serde(default)]
    pub timestamp: Option<DateTime<Utc>>,
    pub item_id: Uuid,
    #[serde(default)]
    pub recomm_id: Option<String>,
    #[serde(default)]
    pub rating: Option<i64>,
}

// ----- sitemaps -----

/// The most URLs one sitemap file holds (the sitemaps.org protocol's limit).
pub const SITEMAP_FILE_URLS: usize = 50_000;
/// The most entries one `/internal/sitemap/{kind}` answer holds: a file is a few calls.
pub const SITEMAP_PAGE_ENTRIES: usize = 10_000;

/// What a brand's sitemaps list, one kind per file family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SitemapKind {
    Videos,
    Performers,
    Categories,
    Channels,
    Showcases,
}

impl SitemapKind {
    pub const ALL: [SitemapKind; 5] = [
        SitemapKind::Videos,
        SitemapKind::Performers,
        SitemapKind::Categories,
        SitemapKind::Channels,
        SitemapKind::Showcases,
    ];

    /// Its name in paths (`/internal/sitemap/videos`, `/sitemaps/videos-1.xml`).
    pub fn as_str(self) -> &'static str {
        match self {
            SitemapKind::Videos => "videos",
            SitemapKind::Performers => "performers",
            SitemapKind::Categories => "categories",
            SitemapKind::Channels => "channels",
            SitemapKind::Showcases => "showcases",
        }
    }

    pub fn parse(s: &str) -> Option<SitemapKind> {
        SitemapKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// How many of each kind a brand has, and when the newest of them was published; with the
/// generation of everything the sitemaps list, which moves on every change to it (and only
/// then), so an answer computed under one generation holds until it moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapManifest {
    pub generation: i64,
    pub sections: Vec<SitemapSection>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapSection {
    pub kind: SitemapKind,
    pub count: u64,
    pub last_modified: Option<DateTime<Utc>>,
}

/// One page of a kind's entries, oldest published first (so a new one lands in the last file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapPage {
    pub generation: i64,
    pub entries: Vec<SitemapEntry>,
}

/// What a sitemap says of one page: its slug (the path is the edge's to make), when it last
/// changed, and for a video what Google's video extension asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapEntry {
    pub slug: String,
    pub last_modified: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<SitemapVideo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SitemapVideo {
    pub title: String,
    pub description: String,
    /// The poster, as the catalog addresses it (relative to the brand's origin).
    pub thumbnail: String,
    /// The public trailer.
    pub trailer: String,
    /// Seconds.
    pub duration: u32,
    pub release_date: DateTime<Utc>,
}
