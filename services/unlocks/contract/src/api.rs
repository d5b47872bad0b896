//! Request and answer shapes of the internal API, shared by the handlers and the client.
//! Answers use the spec's camelCase names so the gateway passes them through.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use access::Denied;

/// The port the service listens on by default (`PAYSITE_UNLOCKS_URL` overrides the address).
pub const PORT: u16 = 8104;

/// The spec's copy for a failed video unlock (video_unlock_modal.error).
pub const VIDEO_UNLOCK_FAILED: &str = "Failed to unlock the video. Please try again later.";
pub const PACK_UNLOCK_FAILED: &str = "Failed to unlock the channel pack. Please try again later.";
/// The code of an unlock that could not be finished now (a 503 the gateway shows as it is).
pub const UNLOCK_FAILED: &str = "UNLOCK_FAILED";
/// The code of a pack that is not published in a channel the asker's brand carries (a 404).
pub const CHANNEL_PACK_NOT_FOUND: &str = "CHANNEL_PACK_NOT_FOUND";

/// The user a media token (`/media/…?token=`) names, read without checking it (the gateway
/// compares it with the request's session before passing the request on; the signature is
/// this service's to check).
pub fn token_holder(token: &str) -> Option<Uuid> {
    let payload = URL_SAFE_NO_PAD.decode(token.split_once('.')?.0).ok()?;
    let payload = String::from_utf8(payload).ok()?;
    let mut parts = payload.split(':');
    (parts.next()? == "v2").then_some(())?;
    parts.next()?.parse().ok()
}

/// What opened a video the rules let the user watch: the answer's `access`, and what a media
/// token is bound to (so a revocation of that ground ends the token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// A subscription covering the video's site (the user's, or a tandem parent's).
    Subscription,
    /// The video's channel pack is unlocked.
    ChannelPack,
    /// Bought with pay-per-video credits: for good.
    Credits,
    /// One of the free limited trial's full videos, while the trial runs.
    FreeLimitedTrial,
}

/// A bucket's standing: the spec's downloadQuotas.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadQuotas {
    pub threshold_reached: bool,
    pub downloads_number: u32,
    pub download_quota_max: u32,
    pub download_days_period: u32,
    pub quota_left: u32,
    /// Whole days until a download may be made again: until the oldest download in the window
    /// stops counting, or, over a lowered limit, until enough have (0 with none).
    pub remaining_days: u32,
    /// The quota allows no download at all.
    pub zero_quota: bool,
    /// The site of a site bucket, `channels` for the channel categories' bucket.
    pub site: String,
}

/// One downloadable resolution (product.md, "Downloads and quotas").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadResolution {
    pub label: String,
    /// The size to ask a download for (`p1080`).
    pub size: String,
    pub width: u32,
    pub res: String,
}

/// The outcome of a channel pack unlock that succeeded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PackUnlockResponse {
    /// Always `success` (the other outcomes are errors: ALREADY_UNLOCKED, NOT_ENOUGH_GEMS, UNLOCK_FAILED).
    pub status: String,
    pub unlock_id: Uuid,
    pub channel_pack_id: Uuid,
    pub unlocked_at: DateTime<Utc>,
    /// The gems left after the debit.
    pub gems_balance: u64,
}

/// UnlockVideo's input.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UnlockVideoInput {
    pub video_id: Uuid,
    /// Where the front end fetches the sources once unlocked; echoed back.
    #[serde(default)]
    pub video_sources_url: Option<String>,
    pub video_new_id: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UnlockVideoResponse {
    pub status: String,
    pub unlock_id: Uuid,
    pub video_id: Uuid,
    pub video_new_id: String,
    pub video_sources_url: Option<String>,
    /// `credits` or `free_limited_trial`.
    pub paid_with: String,
    /// Credits left, when credits paid.
    pub pay_per_video_credits: Option<u64>,
    /// The free limited trial's full videos left, when the trial paid.
    pub free_videos_left: Option<u32>,
    pub unlocked_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UnlockedVideo {
    pub video_id: Uuid,
    pub new_id: String,
    pub paid_with: String,
    pub unlocked_at: DateTime<Utc>,
}

/// The unlocks part of the profile (product.md, "Unlocks"): gems fields, subscription fields, iterate
/// profile and customer-survey fields, and `downloadQuotas`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UnlockStateResponse {
    pub unlocked_channel_pack_ids: Vec<Uuid>,
    /// Held packs over published packs, 0 to 100, rounded down.
    pub percentage_of_unlocked_channel_packs: u32,
    pub last_channel_pack_unlock_date: Option<DateTime<Utc>>,
    /// A pack unlocked in the last 14 days (1209600000 ms).
    pub has_unlocked_channel_pack_in_last_two_weeks: bool,
    pub unlocked_video_ids: Vec<Uuid>,
    pub unlocked_videos: Vec<UnlockedVideo>,
    pub free_limited_trial_videos_left: u32,
    /// What a channel pack unlock costs, in gems (product.md, "Unlocks"; the service's `UNLOCKS_PACK_GEMS`):
    /// the front end shows this price and owns no copy of it.
    pub channel_pack_cost_gems: u32,
    /// What a video unlock costs, in pay-per-video credits (the service's `UNLOCKS_VIDEO_CREDITS`).
    pub video_unlock_cost_credits: u32,
    /// The full videos a free limited trial opens (product.md, "Unlocks": 3; `UNLOCKS_FREE_TRIAL_VIDEOS`), of
    /// which `free_limited_trial_videos_left` remain.
    pub free_limited_trial_videos: u32,
    /// The signed-in user's download quotas on the request's brand (its site bucket and the
    /// channel categories' one), so that findOneUserProfile asks this service once. Absent in
    /// the answer about another user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download_quotas: Option<DownloadQuotasResponse>,
}

/// One quality's token (product.md, "Unlocks": token and cdn); `url` is the two put together.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TokenView {
    pub token: String,
    pub cdn: String,
    pub url: String,
}

/// getToken's answer: a token per quality the video has.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct VideoTokens {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p270: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p360: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p480: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p480l: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p720: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p1080: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p2160: Option<TokenView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hls: Option<TokenView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TokenRequest {
    /// `desktop`, `mobile`, ... for playback; `download` counts one download and answers
    /// download tokens for every downloadable size.
    pub device: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TokenResponse {
    pub tokens: VideoTokens,
    /// The quota after this download, when `device` was `download`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download_quotas: Option<DownloadQuotas>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DownloadRequest {
    /// A download resolution's `size` (`p1080`).
    pub size: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DownloadResponse {
    pub download_id: Uuid,
    pub resolution: DownloadResolution,
    pub token: TokenView,
    pub download_quotas: DownloadQuotas,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DownloadResolutionsResponse {
    pub resolutions: Vec<DownloadResolution>,
    pub download_quotas: DownloadQuotas,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DownloadQuotasResponse {
    /// The site's bucket.
    pub site: DownloadQuotas,
    /// The bucket Compilations, Behind The Scenes and Intimates videos share.
    pub channels: DownloadQuotas,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct VideoAccessRequest {
    pub video_ids: Vec<Uuid>,
}

/// Whether the user may watch a video, for a page of videos at once.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct VideoAccess {
    pub video_id: Uuid,
    /// The video's `denied` field.
    pub denied: bool,
    pub access: Option<Access>,
    /// Where a denied user is sent (product.md, "Access-denied routing").
    pub denied_reason: Option<Denied>,
    /// Unlocked on its own (credits or the free trial).
    pub unlocked: bool,
    pub channel_pack_id: Option<Uuid>,
    pub is_free_limited_trial: bool,
    /// One of the user's free limited trial's videos that the trial may take now (a fact of
    /// the user and the video together: the access rules' `free_trial_take`), not merely
    /// flagged.
    #[serde(default)]
    pub free_for_your_trial: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct VideoAccessResponse {
    /// In the order asked; unknown videos are left out.
    pub videos: Vec<VideoAccess>,
}
