//! Unlocks: channel-pack unlocks paid with gems, UnlockVideo paid with pay-per-video
//! credits or the free limited trial, video tokens (getToken), downloads under their quotas,
//! the unlocks part of the profile and the access of a page of videos at once.
//!
//! Every field acts for the signed-in user (the unlocks service answers nobody else); spends
//! (pack and video unlocks, download tokens) count against the `Spend` rate limit one by one.

use async_graphql::{Context, Enum, InputObject, Object, SimpleObject, ID};
use chrono::{DateTime, Utc};
use runtime::client::{CallContext, UpstreamError};
use unlocks_contract::api::{self as wire, Access, Denied};
use uuid::Uuid;

use super::{
    catalog::brand,
    context::{limit, request, upstreams},
    errors,
    limits::Bucket,
};

/// A video of the host's brand (NOT_FOUND otherwise). Whether the caller may play, download
/// or unlock it the unlocks service decides, with the access rules of services/access and the
/// owners' facts, and answers FORBIDDEN with its `denied` reason: one decision, not two.
async fn ours(ctx: &Context<'_>, video_id: Uuid) -> async_graphql::Result<()> {
    brand::video(ctx, video_id).await.map(|_| ())
}

#[derive(Default)]
pub struct UnlocksQuery;

#[derive(Default)]
pub struct UnlocksMutation;

/// Most videos one `videoAccess` may ask about (the service's batch limit).
pub const MAX_VIDEO_ACCESS: usize = 200;
/// The device getToken assumes when none is given.
pub const DEFAULT_DEVICE: &str = "desktop";
/// The device that asks for download tokens (and counts one download).
pub const DOWNLOAD_DEVICE: &str = "download";

/// A successful channel-pack unlock; the other outcomes are coded errors (ALREADY_UNLOCKED,
/// NOT_ENOUGH_GEMS with `daysUntilRefreshGems`, NO_TENANT_ACCESS, UNLOCK_FAILED, ...).
#[derive(SimpleObject)]
pub struct ChannelPackUnlock {
    /// `success`.
    pub status: String,
    pub unlock_id: ID,
    pub channel_pack_id: ID,
    pub unlocked_at: DateTime<Utc>,
    /// The gems left after the unlock.
    pub gems_balance: u64,
}

/// UnlockVideo's input.
#[derive(InputObject)]
pub struct UnlockVideoInput {
    pub video_id: ID,
    /// Where the front end fetches the sources once unlocked; echoed back.
    pub video_sources_url: Option<String>,
    pub video_new_id: String,
}

/// A successful video unlock; refusals are coded errors (NOT_ENOUGH_CREDITS, ALREADY_UNLOCKED,
/// UNLOCK_FAILED with 'Failed to unlock the video. Please try again later.', ...). A free
/// limited trial user is never refused for credits, but with the trial's own reason:
/// NO_FREE_TRIAL_VIDEOS_LEFT, NOT_A_FREE_TRIAL_VIDEO, FREE_TRIAL_VIDEO_OF_ANOTHER_SITE or
/// FREE_TRIAL_EXPIRED, each with its message (the unlocks service's, kept as it is).
#[derive(SimpleObject)]
pub struct VideoUnlock {
    /// `success`.
    pub status: String,
    pub unlock_id: ID,
    pub video_id: ID,
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

/// One quality's media token: `cdn` and `token` (product.md, "Unlocks"), and `url`, the two put together.
#[derive(SimpleObject)]
pub struct VideoToken {
    pub token: String,
    pub cdn: String,
    pub url: String,
}

impl From<wire::TokenView> for VideoToken {
    fn from(t: wire::TokenView) -> Self {
        VideoToken { token: t.token, cdn: t.cdn, url: t.url }
    }
}

/// getToken's answer: a token per quality the video has, and with device `download` the
/// quota after the download it counted.
#[derive(SimpleObject)]
pub struct VideoTokens {
    pub p270: Option<VideoToken>,
    pub p360: Option<VideoToken>,
    pub p480: Option<VideoToken>,
    /// 480 mobile.
    #[graphql(name = "p480l")]
    pub p480l: Option<VideoToken>,
    pub p720: Option<VideoToken>,
    pub p1080: Option<VideoToken>,
    pub p2160: Option<VideoToken>,
    pub hls: Option<VideoToken>,
    pub download_quotas: Option<DownloadQuotas>,
}

/// A download bucket's standing (product.md, "Downloads and quotas" downloadQuotas).
#[derive(SimpleObject)]
pub struct DownloadQuotas {
    pub threshold_reached: bool,
    pub downloads_number: u32,
    pub download_quota_max: u32,
    pub download_days_period: u32,
    pub quota_left: u32,
    /// Whole days until the oldest download in the window stops counting.
    pub remaining_days: u32,
    /// The quota allows no download at all.
    pub zero_quota: bool,
    /// The site of a site bucket, `channels` for the channel categories' shared bucket.
    pub site: String,
}

impl From<wire::DownloadQuotas> for DownloadQuotas {
    fn from(q: wire::DownloadQuotas) -> Self {
        DownloadQuotas {
            threshold_reached: q.threshold_reached,
            downloads_number: q.downloads_number,
            download_quota_max: q.download_quota_max,
            download_days_period: q.download_days_period,
            quota_left: q.quota_left,
            remaining_days: q.remaining_days,
            zero_quota: q.zero_quota,
            site: q.site,
        }
    }
}

/// One downloadable resolution (product.md, "Downloads and quotas").
#[derive(SimpleObject)]
pub struct DownloadResolution {
    /// `4K MP4 UHD`, `HD MP4 1080P`, ...
    pub label: String,
    /// The size to ask `downloadVideo` for (`p1080`).
    pub size: String,
    pub width: u32,
    pub res: String,
}

impl From<wire::DownloadResolution> for DownloadResolution {
    fn from(r: wire::DownloadResolution) -> Self {
        DownloadResolution { label: r.label, size: r.size, width: r.width, res: r.res }
    }
}

/// The download resolutions of a video and the quota its downloads count in.
#[derive(SimpleObject)]
pub struct DownloadResolutions {
    pub resolutions: Vec<DownloadResolution>,
    pub download_quotas: DownloadQuotas,
}

/// A download: its token and the quota after it.
#[derive(SimpleObject)]
pub struct VideoDownload {
    pub download_id: ID,
    pub resolution: DownloadResolution,
    pub token: VideoToken,
    pub download_quotas: DownloadQuotas,
}

/// A video unlocked on its own (credits or the free limited trial).
#[derive(SimpleObject)]
pub struct UnlockedVideo {
    pub video_id: ID,
    pub new_id: String,
    /// `credits` or `free_limited_trial`.
    pub paid_with: String,
    pub unlocked_at: DateTime<Utc>,
}

/// The unlocks part of the profile (product.md, "Unlocks").
#[derive(SimpleObject)]
pub struct UnlockState {
    pub unlocked_channel_pack_ids: Vec<ID>,
    /// Held packs over published packs, 0 to 100, rounded down.
    pub percentage_of_unlocked_channel_packs: u32,
    pub last_channel_pack_unlock_date: Option<DateTime<Utc>>,
    pub has_unlocked_channel_pack_in_last_two_weeks: bool,
    pub unlocked_video_ids: Vec<ID>,
    pub unlocked_videos: Vec<UnlockedVideo>,
    pub free_limited_trial_videos_left: u32,
    /// What a channel pack unlock costs, in gems (product.md, "Unlocks"): the unlocks service's configured
    /// price, the one the unlock debits.
    pub channel_pack_cost_gems: u32,
    /// What a video unlock costs, in pay-per-video credits: the unlocks service's configured
    /// price.
    pub video_unlock_cost_credits: u32,
    /// The full videos a free limited trial opens (product.md, "Unlocks"), of which
    /// `freeLimitedTrialVideosLeft` remain.
    pub free_limited_trial_videos: u32,
}

/// Why the user may watch a video.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "snake_case")]
pub enum VideoAccessKind {
    /// An active subscription covering the video's site.
    Subscription,
    /// The video's channel pack is unlocked.
    ChannelPack,
    /// Bought with pay-per-video credits.
    Credits,
    /// One of the free limited trial's full videos.
    FreeLimitedTrial,
}

impl From<Access> for VideoAccessKind {
    fn from(a: Access) -> Self {
        match a {
            Access::Subscription => VideoAccessKind::Subscription,
            Access::ChannelPack => VideoAccessKind::ChannelPack,
            Access::Credits => VideoAccessKind::Credits,
            Access::FreeLimitedTrial => VideoAccessKind::FreeLimitedTrial,
        }
    }
}

/// Why a video is refused, and so the step the page offers (product.md, "Access-denied routing" and
/// membership; the reason is services/access's `denied_reason`).
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "snake_case")]
pub enum AccessDeniedReason {
    /// A channel video whose pack is not unlocked: the unlock-channel modal.
    ChannelPackLocked,
    /// One of the free limited trial's full videos, still to take: UnlockVideo.
    FreeTrialVideo,
    /// The free limited trial is over or its videos are taken: 'limited trial expired', the upgrade.
    FreeTrialExpired,
    /// A lapsed membership: reactivation.
    Reactivate,
    /// The user pays for the video's site and is still refused: support.
    Support,
    /// Nothing opens it: the purchase (or unlock-or-upgrade) modal.
    NoAccess,
}

impl From<Denied> for AccessDeniedReason {
    fn from(d: Denied) -> Self {
        match d {
            Denied::ChannelPackLocked => AccessDeniedReason::ChannelPackLocked,
            Denied::FreeTrialVideo => AccessDeniedReason::FreeTrialVideo,
            Denied::FreeTrialExpired => AccessDeniedReason::FreeTrialExpired,
            Denied::Reactivate => AccessDeniedReason::Reactivate,
            Denied::Support => AccessDeniedReason::Support,
            Denied::NoAccess => AccessDeniedReason::NoAccess,
        }
    }
}

/// Whether the signed-in user may watch a video.
#[derive(SimpleObject)]
pub struct VideoAccess {
    pub video_id: ID,
    /// The video's `denied` field.
    pub denied: bool,
    pub access: Option<VideoAccessKind>,
    pub denied_reason: Option<AccessDeniedReason>,
    /// Unlocked on its own (credits or the free trial).
    pub unlocked: bool,
    pub channel_pack_id: Option<ID>,
    pub is_free_limited_trial: bool,
    /// One of the caller's free limited trial's videos that the trial may take now (the
    /// access rules decide, for this user and this video; not the flag alone).
    pub free_for_your_trial: bool,
}

fn id(u: Uuid) -> ID {
    ID(u.to_string())
}

fn parse(value: &ID, what: &str) -> async_graphql::Result<Uuid> {
    Uuid::parse_str(value).map_err(|_| errors::bad_input(format!("{} is not a {what} id", value.as_str())))
}

fn caller(ctx: &Context<'_>) -> CallContext {
    request(ctx).call()
}

/// The service's refusals keep their code, message and extra fields (`daysUntilRefreshGems`,
/// `downloadQuotaMax`, `remainingDays`, `denied`); UNLOCK_FAILED keeps its copy although it is
/// a 503; a pack the brand does not carry is NOT_FOUND, as any item of another brand is;
/// anything else unexpected is masked.
fn refused(e: UpstreamError) -> async_graphql::Error {
    match (e.service_code(), e.service_message()) {
        (Some(code), Some(message)) if code == wire::UNLOCK_FAILED => errors::coded(code, message),
        (Some(code), _) if code == wire::CHANNEL_PACK_NOT_FOUND => super::catalog::not_found(),
        _ => errors::upstream(e),
    }
}

fn tokens(t: wire::VideoTokens, download_quotas: Option<wire::DownloadQuotas>) -> VideoTokens {
    VideoTokens {
        p270: t.p270.map(Into::into),
        p360: t.p360.map(Into::into),
        p480: t.p480.map(Into::into),
        p480l: t.p480l.map(Into::into),
        p720: t.p720.map(Into::into),
        p1080: t.p1080.map(Into::into),
        p2160: t.p2160.map(Into::into),
        hls: t.hls.map(Into::into),
        download_quotas: download_quotas.map(Into::into),
    }
}

#[Object]
impl UnlocksQuery {
    /// The signed-in user's unlocks: packs held and their share, the last pack unlock, videos
    /// unlocked on their own and the free limited trial's videos left.
    async fn unlock_state(&self, ctx: &Context<'_>) -> async_graphql::Result<UnlockState> {
        request(ctx).viewer()?;
        let s = upstreams(ctx).unlocks.unlock_state(&caller(ctx)).await.map_err(refused)?;
        Ok(UnlockState {
            unlocked_channel_pack_ids: s.unlocked_channel_pack_ids.into_iter().map(id).collect(),
            percentage_of_unlocked_channel_packs: s.percentage_of_unlocked_channel_packs,
            last_channel_pack_unlock_date: s.last_channel_pack_unlock_date,
            has_unlocked_channel_pack_in_last_two_weeks: s.has_unlocked_channel_pack_in_last_two_weeks,
            unlocked_video_ids: s.unlocked_video_ids.into_iter().map(id).collect(),
            unlocked_videos: s
                .unlocked_videos
                .into_iter()
                .map(|v| UnlockedVideo {
                    video_id: id(v.video_id),
                    new_id: v.new_id,
                    paid_with: v.paid_with,
                    unlocked_at: v.unlocked_at,
                })
                .collect(),
            free_limited_trial_videos_left: s.free_limited_trial_videos_left,
            channel_pack_cost_gems: s.channel_pack_cost_gems,
            video_unlock_cost_credits: s.video_unlock_cost_credits,
            free_limited_trial_videos: s.free_limited_trial_videos,
        })
    }

    /// Access of a page of videos at once (their `denied` and where a denied user goes), in
    /// the order asked; unknown videos are left out.
    async fn video_access(&self, ctx: &Context<'_>, video_ids: Vec<ID>) -> async_graphql::Result<Vec<VideoAccess>> {
        request(ctx).viewer()?;
        if video_ids.len() > MAX_VIDEO_ACCESS {
            return Err(errors::bad_input(format!("at most {MAX_VIDEO_ACCESS} videoIds")));
        }
        if video_ids.is_empty() {
            return Ok(vec![]);
        }
        let ids = video_ids.iter().map(|v| parse(v, "video")).collect::<Result<Vec<_>, _>>()?;
        // Another brand's videos are unknown here, and left out like unknown ones.
        let ids = brand::own_videos(ctx, &ids).await?;
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let answer = upstreams(ctx).unlocks.video_access(&caller(ctx), &ids).await.map_err(refused)?;
        Ok(answer
            .videos
            .into_iter()
            .map(|v| VideoAccess {
                video_id: id(v.video_id),
                denied: v.denied,
                access: v.access.map(Into::into),
                denied_reason: v.denied_reason.map(Into::into),
                unlocked: v.unlocked,
                channel_pack_id: v.channel_pack_id.map(id),
                is_free_limited_trial: v.is_free_limited_trial,
                free_for_your_trial: v.free_for_your_trial,
            })
            .collect())
    }

    /// getToken: a media token per quality of a video the user may watch (FORBIDDEN with
    /// `denied` otherwise). Device `download` counts one download against the quota and
    /// answers download tokens with the quota after it.
    async fn get_token(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
        device: Option<String>,
    ) -> async_graphql::Result<VideoTokens> {
        request(ctx).viewer()?;
        let device = device.filter(|d| !d.is_empty()).unwrap_or_else(|| DEFAULT_DEVICE.to_owned());
        if device.len() > 32 {
            return Err(errors::bad_input("device must have at most 32 characters"));
        }
        if device == DOWNLOAD_DEVICE {
            limit(ctx, Bucket::Spend)?;
        }
        let video_id = parse(&video_id, "video")?;
        ours(ctx, video_id).await?;
        let answer = upstreams(ctx).unlocks.video_tokens(&caller(ctx), video_id, &device).await.map_err(refused)?;
        Ok(tokens(answer.tokens, answer.download_quotas))
    }

    /// The download resolutions of a video and the quota its downloads count in.
    async fn download_resolutions(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
    ) -> async_graphql::Result<DownloadResolutions> {
        request(ctx).viewer()?;
        let video_id = parse(&video_id, "video")?;
        ours(ctx, video_id).await?;
        let answer = upstreams(ctx).unlocks.download_resolutions(&caller(ctx), video_id).await.map_err(refused)?;
        Ok(DownloadResolutions {
            resolutions: answer.resolutions.into_iter().map(Into::into).collect(),
            download_quotas: answer.download_quotas.into(),
        })
    }

    /// The download quota of a site (default: the host's brand), or with `channels` the one
    /// Compilations, Behind The Scenes and Intimates videos share.
    async fn download_quotas(
        &self,
        ctx: &Context<'_>,
        site: Option<String>,
        #[graphql(default)] channels: bool,
    ) -> async_graphql::Result<DownloadQuotas> {
        request(ctx).viewer()?;
        let site = site.filter(|s| !s.is_empty());
        let answer = upstreams(ctx).unlocks.download_quotas(&caller(ctx), site.as_deref()).await.map_err(refused)?;
        Ok(if channels { answer.channels } else { answer.site }.into())
    }
}

#[Object]
impl UnlocksMutation {
    /// Unlock a channel pack with gems (10 per pack).
    async fn unlock_channel_pack(
        &self,
        ctx: &Context<'_>,
        channel_pack_id: ID,
    ) -> async_graphql::Result<ChannelPackUnlock> {
        limit(ctx, Bucket::Spend)?;
        let pack = parse(&channel_pack_id, "channel pack")?;
        request(ctx).viewer()?;
        // The unlocks service answers which brand carries the pack (NOT_FOUND on another's)
        // and asks the access rules for "unlock ChannelPack" (an active member with access to
        // this brand, a pack not held: NO_TENANT_ACCESS, ALREADY_UNLOCKED).
        let r = upstreams(ctx).unlocks.unlock_channel_pack(&caller(ctx), pack).await.map_err(refused)?;
        Ok(ChannelPackUnlock {
            status: r.status,
            unlock_id: id(r.unlock_id),
            channel_pack_id: id(r.channel_pack_id),
            unlocked_at: r.unlocked_at,
            gems_balance: r.gems_balance,
        })
    }

    /// Unlock a video with pay-per-video credits (or one of the free limited trial's videos).
    #[graphql(name = "UnlockVideo")]
    async fn unlock_video(&self, ctx: &Context<'_>, input: UnlockVideoInput) -> async_graphql::Result<VideoUnlock> {
        limit(ctx, Bucket::Spend)?;
        let video_id = parse(&input.video_id, "video")?;
        brand::video(ctx, video_id).await?;
        let input = wire::UnlockVideoInput {
            video_id,
            video_sources_url: input.video_sources_url,
            video_new_id: input.video_new_id,
        };
        let r = upstreams(ctx).unlocks.unlock_video(&caller(ctx), &input).await.map_err(refused)?;
        Ok(VideoUnlock {
            status: r.status,
            unlock_id: id(r.unlock_id),
            video_id: id(r.video_id),
            video_new_id: r.video_new_id,
            video_sources_url: r.video_sources_url,
            paid_with: r.paid_with,
            pay_per_video_credits: r.pay_per_video_credits,
            free_videos_left: r.free_videos_left,
            unlocked_at: r.unlocked_at,
        })
    }

    /// The video download (id and size): a download token, counted against the quota;
    /// REACHED_DOWNLOAD_QUOTA ('limit exceeded, try again in N days', with `downloadQuotaMax`
    /// and `remainingDays`) past it.
    async fn download_video(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
        size: String,
    ) -> async_graphql::Result<VideoDownload> {
        limit(ctx, Bucket::Spend)?;
        let video_id = parse(&video_id, "video")?;
        if size.is_empty() || size.len() > 16 {
            return Err(errors::bad_input("size must have 1 to 16 characters"));
        }
        ours(ctx, video_id).await?;
        let r = upstreams(ctx).unlocks.download(&caller(ctx), video_id, &size).await.map_err(refused)?;
        Ok(VideoDownload {
            download_id: id(r.download_id),
            resolution: r.resolution.into(),
            token: r.token.into(),
            download_quotas: r.download_quotas.into(),
        })
    }
}
