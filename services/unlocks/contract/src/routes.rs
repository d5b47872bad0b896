//! The unlocks service's internal routes, each declared once: the service's router mounts
//! them, its gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
//! unlocks, access, tokens and downloads for the member's own token; a user's unlocks by id for
//! that user or a service; the orphaned debits for an admin's token. Media is no internal
//! route: media tokens carry its checks.

use runtime::auth::{Access, Route};

/// Unlocks a channel pack for gems: the member's own token.
pub const UNLOCK_CHANNEL_PACK: Route = Route::post("/internal/unlocks/channel-packs/{channel_pack_id}", Access::User);
/// Unlocks a video for credits: the member's own token.
pub const UNLOCK_VIDEO: Route = Route::post("/internal/unlocks/videos", Access::User);
/// The signed-in user's unlocks and download quotas: the member's own token.
pub const UNLOCK_STATE: Route = Route::get("/internal/unlocks/state", Access::User);
/// The unlocks of `{user_id}`: that user's own token, or a service.
pub const USER_UNLOCK_STATE: Route = Route::get("/internal/users/{user_id}/unlocks", Access::OwnUser("user_id"));
/// Access to a page of videos at once: the member's own token.
pub const VIDEO_ACCESS: Route = Route::post("/internal/videos/access", Access::User);
/// Media tokens for a video: the member's own token.
pub const VIDEO_TOKENS: Route = Route::post("/internal/videos/{video_id}/tokens", Access::User);
/// A video's download resolutions: the member's own token.
pub const DOWNLOAD_RESOLUTIONS: Route = Route::get("/internal/videos/{video_id}/download-resolutions", Access::User);
/// A video download: the member's own token.
pub const DOWNLOAD: Route = Route::post("/internal/videos/{video_id}/downloads", Access::User);
/// The download quotas of a site: the member's own token.
pub const DOWNLOAD_QUOTAS: Route = Route::get("/internal/download-quotas", Access::User);
/// The debits that opened nothing (to refund): an admin's token (the handler checks the group).
pub const ORPHANED_DEBITS: Route = Route::get("/internal/admin/orphaned-debits", Access::User);

/// The trust table: every internal route of the unlocks service.
pub const ALL: &[Route] = &[
    UNLOCK_CHANNEL_PACK,
    UNLOCK_VIDEO,
    UNLOCK_STATE,
    USER_UNLOCK_STATE,
    VIDEO_ACCESS,
    VIDEO_TOKENS,
    DOWNLOAD_RESOLUTIONS,
    DOWNLOAD,
    DOWNLOAD_QUOTAS,
    ORPHANED_DEBITS,
];
