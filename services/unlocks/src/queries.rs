//! Read-side SQL: catalog and subscription facts for the rules, and the user's unlock state.

use chrono::{DateTime, Utc};
use proto_events::catalog::{ChannelCategory, VideoQuality};
use sqlx::PgPool;
use uuid::Uuid;

use crate::entitlement::{Holdings, VideoUnlockKind};

/// A published video as this service knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogVideo {
    pub video_id: Uuid,
    pub new_id: String,
    pub site: String,
    pub channel_pack_id: Option<Uuid>,
    pub channel_category: Option<ChannelCategory>,
    pub is_third_party_channel: bool,
    pub is_free_limited_trial: bool,
    pub qualities: Vec<VideoQuality>,
}

fn from_wire<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).ok()
}

#[derive(sqlx::FromRow)]
struct VideoRow {
    video_id: Uuid,
    new_id: String,
    site: String,
    channel_pack_id: Option<Uuid>,
    channel_category: Option<String>,
    is_third_party_channel: bool,
    is_free_limited_trial: bool,
    qualities: Vec<String>,
}

const VIDEO_SELECT: &str = "select v.video_id, v.new_id, v.site,
        coalesce(v.channel_pack_id,
                 (select p.channel_pack_id from catalog_channel_pack_video p where p.video_id = v.video_id
                  order by p.channel_pack_id limit 1)) as channel_pack_id,
        coalesce(v.channel_category, c.category) as channel_category,
        v.is_third_party_channel, v.is_free_limited_trial, v.qualities
    from catalog_video v left join catalog_channel c on c.channel_id = v.channel_id
    where v.published";

impl From<VideoRow> for CatalogVideo {
    fn from(r: VideoRow) -> Self {
        CatalogVideo {
            video_id: r.video_id,
            new_id: r.new_id,
            site: r.site,
            channel_pack_id: r.channel_pack_id,
            channel_category: r.channel_category.as_deref().and_then(from_wire),
            is_third_party_channel: r.is_third_party_channel,
            is_free_limited_trial: r.is_free_limited_trial,
            qualities: r.qualities.iter().filter_map(|q| from_wire(q)).collect(),
        }
    }
}

/// A published video.
pub async fn video(pool: &PgPool, video_id: Uuid) -> Result<Option<CatalogVideo>, sqlx::Error> {
    let row: Option<VideoRow> =
        sqlx::query_as(&format!("{VIDEO_SELECT} and v.video_id = $1")).bind(video_id).fetch_optional(pool).await?;
    Ok(row.map(Into::into))
}

/// Published videos among `ids`.
pub async fn videos(pool: &PgPool, ids: &[Uuid]) -> Result<Vec<CatalogVideo>, sqlx::Error> {
    let rows: Vec<VideoRow> =
        sqlx::query_as(&format!("{VIDEO_SELECT} and v.video_id = any($1)")).bind(ids).fetch_all(pool).await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

/// A channel pack's channel, if the pack is published in a channel `tenant` carries (the
/// catalog's rule, read from this service's copy of its channels: a brand carries the channels
/// that list it among their sites).
pub async fn carried_channel_pack(
    pool: &PgPool,
    channel_pack_id: Uuid,
    tenant: &str,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "select p.channel_id from catalog_channel_pack p join catalog_channel c using (channel_id)
         where p.channel_pack_id = $1 and $2 = any(c.sites)",
    )
    .bind(channel_pack_id)
    .bind(tenant)
    .fetch_optional(pool)
    .await
}

/// Every pack (not forfeited) and video the user unlocked.
pub async fn held(pool: &PgPool, user_id: Uuid) -> Result<Holdings, sqlx::Error> {
    let packs: Vec<Uuid> = sqlx::query_scalar(
        "select channel_pack_id from channel_pack_unlock where user_id = $1 and forfeited_at is null",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    let videos: Vec<(Uuid, String)> = sqlx::query_as("select video_id, paid_with from video_unlock where user_id = $1")
        .bind(user_id)
        .fetch_all(pool)
        .await?;
    let videos = videos
        .into_iter()
        .map(|(v, paid)| {
            (v, if paid == "credits" { VideoUnlockKind::Credits } else { VideoUnlockKind::FreeLimitedTrial })
        })
        .collect();
    let free_trial_videos_used: Option<i32> =
        sqlx::query_scalar("select free_trial_videos_used from unlocker where user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    Ok(Holdings { packs, videos, free_trial_videos_used: free_trial_videos_used.unwrap_or(0).max(0) as u32 })
}

/// Whether what opened a media token has been taken away since `issued` (unix seconds): a
/// subscription it rests on ended (expiry, chargeback, refund), or its channel pack was
/// forfeited. The media endpoint asks this of every request.
pub async fn revoked_since(
    pool: &PgPool,
    user_id: Uuid,
    subscriptions: &[Uuid],
    channel_pack: Option<Uuid>,
    issued: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from member_subscription where subscription_id = any($2) and ended_at >= $4)
             or exists (select 1 from channel_pack_unlock
                        where user_id = $1 and channel_pack_id = $3 and forfeited_at >= $4)",
    )
    .bind(user_id)
    .bind(subscriptions)
    .bind(channel_pack)
    .bind(issued)
    .fetch_one(pool)
    .await
}

/// A user's unlocks as the profile reads them.
#[derive(Clone, Debug, Default)]
pub struct UnlockRows {
    pub channel_packs: Vec<(Uuid, DateTime<Utc>)>,
    pub last_channel_pack_unlock_at: Option<DateTime<Utc>>,
    pub free_trial_videos_used: u32,
    /// (video, newId, paid with, unlocked at), oldest first.
    pub videos: Vec<(Uuid, String, String, DateTime<Utc>)>,
    pub total_channel_packs: i64,
}

pub async fn unlock_rows(pool: &PgPool, user_id: Uuid) -> Result<UnlockRows, sqlx::Error> {
    let channel_packs: Vec<(Uuid, DateTime<Utc>)> = sqlx::query_as(
        "select channel_pack_id, unlocked_at from channel_pack_unlock where user_id = $1 and forfeited_at is null
         order by unlocked_at, channel_pack_id",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    let row: Option<(Option<DateTime<Utc>>, i32)> =
        sqlx::query_as("select last_channel_pack_unlock_at, free_trial_videos_used from unlocker where user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    let videos: Vec<(Uuid, String, String, DateTime<Utc>)> = sqlx::query_as(
        "select video_id, new_id, paid_with, unlocked_at from video_unlock where user_id = $1 order by unlocked_at, video_id",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    let total_channel_packs: i64 =
        sqlx::query_scalar("select count(*) from catalog_channel_pack").fetch_one(pool).await?;
    let (last, used) = row.unwrap_or((None, 0));
    Ok(UnlockRows {
        channel_packs,
        last_channel_pack_unlock_at: last,
        free_trial_videos_used: used as u32,
        videos,
        total_channel_packs,
    })
}

/// Download instants of a bucket after `since`.
pub async fn downloads_since(
    pool: &PgPool,
    user_id: Uuid,
    bucket: &str,
    since: DateTime<Utc>,
) -> Result<Vec<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar("select granted_at from download where user_id = $1 and bucket = $2 and granted_at > $3")
        .bind(user_id)
        .bind(bucket)
        .bind(since)
        .fetch_all(pool)
        .await
}

/// A debit that went through but opened nothing (`UnlockDebitOrphaned`): for an operator to refund.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct OrphanedDebit {
    /// The wallet debit's reference (its idempotency key).
    pub unlock_id: Uuid,
    pub user_id: Uuid,
    pub target_kind: String,
    pub target_id: Uuid,
    pub asset: String,
    pub amount: i32,
    /// `given_up` or `already_held`.
    pub reason: String,
    pub orphaned_at: DateTime<Utc>,
}

/// Orphaned debits, newest first (at most 500).
pub async fn orphaned_debits(pool: &PgPool) -> Result<Vec<OrphanedDebit>, sqlx::Error> {
    sqlx::query_as(
        "select unlock_id, user_id, target_kind, target_id, asset, amount, reason, orphaned_at
         from orphaned_debit order by orphaned_at desc limit 500",
    )
    .fetch_all(pool)
    .await
}

/// Whether a credits unlock of `video_id` by `user_id` is pending (requested, not finished).
pub async fn credits_unlock_pending(pool: &PgPool, user_id: Uuid, video_id: Uuid) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from pending_unlock
         where user_id = $1 and target_kind = 'video' and target_id = $2 and asset = 'credits')",
    )
    .bind(user_id)
    .bind(video_id)
    .fetch_one(pool)
    .await
}
