//! The catalog's internal routes, each declared once: the service's router mounts them, its
//! gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): the
//! catalog's pages for anyone the gateway vouches for (a user, or its service token for a
//! visitor); what a user writes or keeps (comments, votes, ratings, favourites) for that user's
//! own token; publishing for an admin's token.

use runtime::auth::{Access, Route};

// ----- videos -----

/// The video listing: anyone the gateway vouches for.
pub const VIDEOS: Route = Route::get("/internal/videos", Access::Any);
/// The top-rated videos: anyone the gateway vouches for.
pub const TOP_RATED_VIDEOS: Route = Route::get("/internal/videos/top-rated", Access::Any);
/// getAwardedVideos: anyone the gateway vouches for.
pub const AWARDED_VIDEOS: Route = Route::get("/internal/videos/awarded", Access::Any);
/// The free limited trial's videos: anyone the gateway vouches for.
pub const FREE_TRIAL_VIDEOS: Route = Route::get("/internal/videos/free-trial", Access::Any);
/// Videos by id (a read sent as a POST): anyone the gateway vouches for.
pub const VIDEOS_BATCH: Route = Route::post("/internal/videos/batch", Access::Any);
/// getVideo by slug: anyone the gateway vouches for.
pub const VIDEO: Route = Route::get("/internal/videos/by-slug/{slug}", Access::Any);
/// getPictureSet by the video's slug: anyone the gateway vouches for.
pub const PICTURE_SET: Route = Route::get("/internal/videos/by-slug/{slug}/picture-set", Access::Any);

// ----- community -----

/// A video's comments: anyone the gateway vouches for.
pub const COMMENTS: Route = Route::get("/internal/videos/{video_id}/comments", Access::Any);
/// Comments on a video: the member's own token.
pub const ADD_COMMENT: Route = Route::post("/internal/videos/{video_id}/comments", Access::User);
/// Rates a video: the member's own token.
pub const RATE_VIDEO: Route = Route::post("/internal/videos/{video_id}/rating", Access::User);
/// The member's expert review of a video: the member's own token.
pub const EXPERT_REVIEW: Route = Route::get("/internal/videos/{video_id}/expert-review", Access::User);
/// updateExpertReview: the member's own token.
pub const UPDATE_EXPERT_REVIEW: Route = Route::post("/internal/expert-review", Access::User);
/// One comment, wherever it is: anyone the gateway vouches for.
pub const COMMENT: Route = Route::get("/internal/comments/{comment_id}", Access::Any);
/// Removes a comment: the member's own token (its author, or a moderator of its brand).
pub const REMOVE_COMMENT: Route = Route::delete("/internal/comments/{comment_id}", Access::User);
/// A comment's replies: anyone the gateway vouches for.
pub const REPLIES: Route = Route::get("/internal/comments/{comment_id}/replies", Access::Any);
/// Replies to a comment: the member's own token.
pub const REPLY: Route = Route::post("/internal/comments/{comment_id}/replies", Access::User);
/// Likes or dislikes a comment: the member's own token.
pub const VOTE: Route = Route::post("/internal/comments/{comment_id}/votes", Access::User);
/// Pins a comment: the member's own token (the handler checks who may).
pub const PIN: Route = Route::post("/internal/comments/{comment_id}/pin", Access::User);
/// Unpins a comment: the member's own token (the handler checks who may).
pub const UNPIN: Route = Route::post("/internal/comments/{comment_id}/unpin", Access::User);

// ----- performers, categories, filters, channels -----

/// The performer listing: anyone the gateway vouches for.
pub const PERFORMERS: Route = Route::get("/internal/performers", Access::Any);
/// Performers by id or slug (a read sent as a POST): anyone the gateway vouches for.
pub const PERFORMERS_BATCH: Route = Route::post("/internal/performers/batch", Access::Any);
/// One performer by slug: anyone the gateway vouches for.
pub const PERFORMER: Route = Route::get("/internal/performers/{slug}", Access::Any);
/// The categories: anyone the gateway vouches for.
pub const CATEGORIES: Route = Route::get("/internal/categories", Access::Any);
/// getAllFilters: anyone the gateway vouches for.
pub const FILTERS: Route = Route::get("/internal/filters", Access::Any);
/// The channel listing: anyone the gateway vouches for.
pub const CHANNELS: Route = Route::get("/internal/channels", Access::Any);
/// Channels by id or slug (a read sent as a POST): anyone the gateway vouches for.
pub const CHANNELS_BATCH: Route = Route::post("/internal/channels/batch", Access::Any);
/// Every channel's videos: anyone the gateway vouches for.
pub const ALL_CHANNEL_VIDEOS: Route = Route::get("/internal/channels/all-videos", Access::Any);
/// One channel by slug: anyone the gateway vouches for.
pub const CHANNEL: Route = Route::get("/internal/channels/{slug}", Access::Any);
/// A page of a channel's videos: anyone the gateway vouches for.
pub const CHANNEL_VIDEOS: Route = Route::get("/internal/channels/{slug}/videos", Access::Any);
/// getChannelVideos, a channel's last videos: anyone the gateway vouches for.
pub const LATEST_CHANNEL_VIDEOS: Route = Route::get("/internal/channels/{slug}/latest-videos", Access::Any);
/// One channel pack by its channel's and its own slug: anyone the gateway vouches for.
pub const CHANNEL_PACK: Route = Route::get("/internal/channels/{slug}/packs/{pack_slug}", Access::Any);

// ----- search, sister sites, recommendations, reels, showcases, angels, wall, sitemaps -----

/// search: anyone the gateway vouches for.
pub const SEARCH: Route = Route::get("/internal/search", Access::Any);
/// A sister brand's videos or performers (`{kind}`): anyone the gateway vouches for.
pub const SISTER_SITE: Route = Route::get("/internal/sites/{brand}/{kind}", Access::Any);
/// A recommendations shelf: anyone the gateway vouches for.
pub const RECOMMENDATIONS: Route = Route::get("/internal/recommendations", Access::Any);
/// A click on a recommendation: the member's own token.
pub const TRACK_RECOMMENDATION: Route = Route::post("/internal/recommendations-tracking", Access::User);
/// The reel listing: anyone the gateway vouches for.
pub const REELS: Route = Route::get("/internal/reels", Access::Any);
/// One reel: anyone the gateway vouches for.
pub const REEL: Route = Route::get("/internal/reels/{reel_id}", Access::Any);
/// A reel action (`{action}`: view, rating, add-bookmark, ...): the member's own token.
pub const TRACK_REEL: Route = Route::post("/internal/rest/reel/{action}", Access::User);
/// The showcases: anyone the gateway vouches for.
pub const SHOWCASES: Route = Route::get("/internal/showcases", Access::Any);
/// One showcase by slug: anyone the gateway vouches for.
pub const SHOWCASE: Route = Route::get("/internal/showcases/{slug}", Access::Any);
/// The angels: anyone the gateway vouches for.
pub const ANGELS: Route = Route::get("/internal/angels", Access::Any);
/// One angel by slug: anyone the gateway vouches for.
pub const ANGEL: Route = Route::get("/internal/angels/{slug}", Access::Any);
/// The wall: anyone the gateway vouches for.
pub const WALL: Route = Route::get("/internal/wall", Access::Any);
/// What the brand's sitemaps list: anyone the gateway vouches for (the gateway builds them).
pub const SITEMAP: Route = Route::get("/internal/sitemap", Access::Any);
/// A page of the sitemap entries of `{kind}`: anyone the gateway vouches for.
pub const SITEMAP_ENTRIES: Route = Route::get("/internal/sitemap/{kind}", Access::Any);

// ----- favourites, publishing -----

/// The member's favourites page: the member's own token.
pub const FAVOURITES: Route = Route::get("/internal/favourites", Access::User);
/// Adds a favourite: the member's own token.
pub const ADD_FAVOURITE: Route = Route::post("/internal/favourites", Access::User);
/// Removes a favourite: the member's own token.
pub const REMOVE_FAVOURITE: Route = Route::post("/internal/favourites/remove", Access::User);
/// A batch of the member's favourite ids: the member's own token.
pub const FAVOURITE_IDS: Route = Route::get("/internal/favourites/ids", Access::User);
/// Which of some items the member favourited: the member's own token.
pub const CHECK_FAVOURITES: Route = Route::post("/internal/favourites/check", Access::User);
/// Publishes catalog content (`paysite publish`): an admin's token (the handler checks the
/// group).
pub const PUBLISH_CONTENT: Route = Route::post("/internal/admin/content", Access::User);

/// The trust table: every internal route of the catalog.
pub const ALL: &[Route] = &[
    VIDEOS,
    TOP_RATED_VIDEOS,
    AWARDED_VIDEOS,
    FREE_TRIAL_VIDEOS,
    VIDEOS_BATCH,
    VIDEO,
    PICTURE_SET,
    COMMENTS,
    ADD_COMMENT,
    RATE_VIDEO,
    EXPERT_REVIEW,
    UPDATE_EXPERT_REVIEW,
    COMMENT,
    REMOVE_COMMENT,
    REPLIES,
    REPLY,
    VOTE,
    PIN,
    UNPIN,
    PERFORMERS,
    PERFORMERS_BATCH,
    PERFORMER,
    CATEGORIES,
    FILTERS,
    CHANNELS,
    CHANNELS_BATCH,
    ALL_CHANNEL_VIDEOS,
    CHANNEL,
    CHANNEL_VIDEOS,
    LATEST_CHANNEL_VIDEOS,
    CHANNEL_PACK,
    SEARCH,
    SISTER_SITE,
    RECOMMENDATIONS,
    TRACK_RECOMMENDATION,
    REELS,
    REEL,
    TRACK_REEL,
    SHOWCASES,
    SHOWCASE,
    ANGELS,
    ANGEL,
    WALL,
    SITEMAP,
    SITEMAP_ENTRIES,
    FAVOURITES,
    ADD_FAVOURITE,
    REMOVE_FAVOURITE,
    FAVOURITE_IDS,
    CHECK_FAVOURITES,
    PUBLISH_CONTENT,
];
