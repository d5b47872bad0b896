//! Read models: the service's own (unlocks, pending unlocks, downloads; written in the
//! append's transaction) and the facts it hears of (catalog videos, channels and packs;
//! subscriptions; written by the consumers). Live writers call the same functions as a
//! rebuild, so a rebuilt model equals the live one.

use proto_events::catalog::{CatalogEvent, Video};
use proto_events::subscription::{StandingChange, SubscriptionEvent, SubscriptionStanding};
use proto_events::unlocks::{UnlockEvent, UnlockTarget, VideoUnlockPayment};
use proto_events::{Envelope, EventFamily};
use runtime::projection::{decode_known, ReadModel};
use runtime::StoreError;
use sqlx::PgConnection;

use crate::quota;

/// The read models of the service's own events.
pub const UNLOCKS: ReadModel = ReadModel::own_events(
    "unlocks.unlocks",
    &["unlocker", "pending_unlock", "channel_pack_unlock", "video_unlock", "download", "orphaned_debit"],
    |tx, event| Box::pin(async move { Ok(apply_unlock_events(tx, std::slice::from_ref(event)).await?) }),
);

/// Decodes an envelope of this service's family, or `None` for another family's (a test
/// schema may hold another service's events beside these).
fn decode_own<E: EventFamily>(envelope: &Envelope, prefix: &str) -> Result<Option<E>, StoreError> {
    if !envelope.stream_id.starts_with(prefix) {
        return Ok(None);
    }
    runtime::event_store::decode(envelope).map(Some)
}

/// Writes the read models of unlocks events.
pub async fn apply_unlock_events(conn: &mut PgConnection, envelopes: &[Envelope]) -> Result<(), StoreError> {
    for envelope in envelopes {
        let Some(event) = decode_own::<UnlockEvent>(envelope, "unlocks-")? else { continue };
        let user_id = event.user_id();
        let mut last_pack_unlock = None;
        let mut free_trial_taken = 0i32;
        match &event {
            UnlockEvent::UnlockRequested { unlock_id, target, asset, amount, requested_at, .. } => {
                let (kind, target_id, channel_id, new_id) = match target {
                    UnlockTarget::ChannelPack { channel_pack_id, channel_id } => {
                        ("channel_pack", *channel_pack_id, Some(*channel_id), None)
                    }
                    UnlockTarget::Video { video_id, new_id } => ("video", *video_id, None, Some(new_id.clone())),
                };
                sqlx::query(
                    "insert into pending_unlock (unlock_id, user_id, target_kind, target_id, channel_id, new_id, asset,
                         amount, requested_at, tenant)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .bind(unlock_id)
                .bind(user_id)
                .bind(kind)
                .bind(target_id)
                .bind(channel_id)
                .bind(new_id)
                .bind(asset.as_str())
                .bind(*amount as i32)
                .bind(requested_at)
                .bind(&envelope.tenant)
                .execute(&mut *conn)
                .await?;
            }
            UnlockEvent::UnlockRefused { unlock_id, .. } => {
                sqlx::query("delete from pending_unlock where unlock_id = $1")
                    .bind(unlock_id)
                    .execute(&mut *conn)
                    .await?;
            }
            UnlockEvent::ChannelPackUnlocked {
                unlock_id,
                channel_pack_id,
                channel_id,
                gems_spent,
                unlocked_at,
                ..
            } => {
                sqlx::query("delete from pending_unlock where unlock_id = $1")
                    .bind(unlock_id)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query(
                    "insert into channel_pack_unlock (user_id, channel_pack_id, unlock_id, channel_id, gems_spent, unlocked_at)
                     values ($1, $2, $3, $4, $5, $6)",
                )
                .bind(user_id)
                .bind(channel_pack_id)
                .bind(unlock_id)
                .bind(channel_id)
                .bind(*gems_spent as i32)
                .bind(unlocked_at)
                .execute(&mut *conn)
                .await?;
                last_pack_unlock = Some(*unlocked_at);
            }
            UnlockEvent::ChannelPacksForfeited { channel_pack_ids, forfeited_at, .. } => {
                sqlx::query(
                    "update channel_pack_unlock set forfeited_at = $3
                     where user_id = $1 and channel_pack_id = any($2) and forfeited_at is null",
                )
                .bind(user_id)
                .bind(channel_pack_ids)
                .bind(forfeited_at)
                .execute(&mut *conn)
                .await?;
            }
            UnlockEvent::VideoUnlocked { unlock_id, video_id, new_id, paid_with, unlocked_at, .. } => {
                sqlx::query("delete from pending_unlock where unlock_id = $1")
                    .bind(unlock_id)
                    .execute(&mut *conn)
                    .await?;
                let paid = match paid_with {
                    VideoUnlockPayment::Credits { .. } => "credits",
                    VideoUnlockPayment::FreeLimitedTrial { .. } => {
                        free_trial_taken = 1;
                        "free_limited_trial"
                    }
                };
                sqlx::query(
                    "insert into video_unlock (user_id, video_id, unlock_id, new_id, paid_with, unlocked_at)
                     values ($1, $2, $3, $4, $5, $6)",
                )
                .bind(user_id)
                .bind(video_id)
                .bind(unlock_id)
                .bind(new_id)
                .bind(paid)
                .bind(unlocked_at)
                .execute(&mut *conn)
                .await?;
            }
            UnlockEvent::UnlockDebitOrphaned { unlock_id, target, asset, amount, reason, orphaned_at, .. } => {
                sqlx::query("delete from pending_unlock where unlock_id = $1")
                    .bind(unlock_id)
                    .execute(&mut *conn)
                    .await?;
                let (kind, target_id) = match target {
                    UnlockTarget::ChannelPack { channel_pack_id, .. } => ("channel_pack", *channel_pack_id),
                    UnlockTarget::Video { video_id, .. } => ("video", *video_id),
                };
                sqlx::query(
                    "insert into orphaned_debit (unlock_id, user_id, target_kind, target_id, asset, amount, reason,
                         orphaned_at)
                     values ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(unlock_id)
                .bind(user_id)
                .bind(kind)
                .bind(target_id)
                .bind(asset.as_str())
                .bind(*amount as i32)
                .bind(wire(reason))
                .bind(orphaned_at)
                .execute(&mut *conn)
                .await?;
            }
            UnlockEvent::DownloadGranted { download_id, video_id, resolution, quota, granted_at, .. } => {
                sqlx::query(
                    "insert into download (download_id, user_id, video_id, resolution, bucket, granted_at)
                     values ($1, $2, $3, $4, $5, $6)",
                )
                .bind(download_id)
                .bind(user_id)
                .bind(video_id)
                .bind(quota::spec_of(*resolution).key)
                .bind(quota::bucket_key(quota))
                .bind(granted_at)
                .execute(&mut *conn)
                .await?;
            }
        }
        sqlx::query(
            "insert into unlocker (user_id, version, last_channel_pack_unlock_at, free_trial_videos_used)
             values ($1, $2, $3, $4)
             on conflict (user_id) do update set
                 version = excluded.version,
                 last_channel_pack_unlock_at = coalesce($3, unlocker.last_channel_pack_unlock_at),
                 free_trial_videos_used = unlocker.free_trial_videos_used + $4",
        )
        .bind(user_id)
        .bind(envelope.stream_version)
        .bind(last_pack_unlock)
        .bind(free_trial_taken)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Videos, channels and packs, from the catalog events the consumer reading `queue` received.
pub fn catalog(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox(
        "unlocks.catalog",
        queue,
        &["catalog_video", "catalog_channel", "catalog_channel_pack", "catalog_channel_pack_video"],
        |tx, envelope| {
            Box::pin(async move {
                let Some(event) = decode_known::<CatalogEvent>(envelope)? else { return Ok(()) };
                Ok(apply_catalog_event(tx, &event).await?)
            })
        },
    )
}

fn wire<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        other => format!("{other:?}"),
    }
}

async fn upsert_video(conn: &mut PgConnection, video: &Video) -> Result<(), sqlx::Error> {
    let qualities: Vec<String> = video.qualities.iter().map(wire).collect();
    let channel = video.channel.as_ref();
    sqlx::query(
        "insert into catalog_video (video_id, new_id, site, channel_id, channel_pack_id, channel_category,
             is_third_party_channel, is_free_limited_trial, qualities, published)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, true)
         on conflict (video_id) do update set new_id = excluded.new_id, site = excluded.site,
             channel_id = excluded.channel_id, channel_pack_id = excluded.channel_pack_id,
             channel_category = excluded.channel_category, is_third_party_channel = excluded.is_third_party_channel,
             is_free_limited_trial = excluded.is_free_limited_trial, qualities = excluded.qualities, published = true",
    )
    .bind(video.video_id)
    .bind(&video.new_id)
    .bind(&video.site)
    .bind(channel.map(|c| c.channel_id))
    .bind(channel.and_then(|c| c.channel_pack_id))
    .bind(channel.and_then(|c| c.category).map(|c| wire(&c)))
    .bind(video.is_third_party_channel)
    .bind(video.is_free_limited_trial)
    .bind(&qualities)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn apply_catalog_event(conn: &mut PgConnection, event: &CatalogEvent) -> Result<(), sqlx::Error> {
    match event {
        CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => {
            upsert_video(conn, video).await?;
        }
        CatalogEvent::VideoUnpublished { video_id, .. } => {
            sqlx::query("update catalog_video set published = false where video_id = $1")
                .bind(video_id)
                .execute(conn)
                .await?;
        }
        CatalogEvent::ChannelPublished { channel_id, slug, kind, category, sites, .. } => {
            sqlx::query(
                "insert into catalog_channel (channel_id, slug, kind, category, sites) values ($1, $2, $3, $4, $5)
                 on conflict (channel_id) do update set slug = excluded.slug, kind = excluded.kind,
                     category = excluded.category, sites = excluded.sites",
            )
            .bind(channel_id)
            .bind(slug)
            .bind(wire(kind))
            .bind(category.map(|c| wire(&c)))
            .bind(sites)
            .execute(conn)
            .await?;
        }
        CatalogEvent::ChannelPackPublished { channel_pack_id, channel_id, video_ids, .. } => {
            sqlx::query(
                "insert into catalog_channel_pack (channel_pack_id, channel_id, video_ids) values ($1, $2, $3)
                 on conflict (channel_pack_id) do update set channel_id = excluded.channel_id, video_ids = excluded.video_ids",
            )
            .bind(channel_pack_id)
            .bind(channel_id)
            .bind(video_ids)
            .execute(&mut *conn)
            .await?;
            sqlx::query("delete from catalog_channel_pack_video where channel_pack_id = $1")
                .bind(channel_pack_id)
                .execute(&mut *conn)
                .await?;
            sqlx::query(
                "insert into catalog_channel_pack_video (video_id, channel_pack_id)
                 select distinct v, $1 from unnest($2::uuid[]) as v",
            )
            .bind(channel_pack_id)
            .bind(video_ids)
            .execute(&mut *conn)
            .await?;
        }
        _ => {}
    }
    Ok(())
}

/// Where a subscription stands, as far as this service's own business goes: which ending
/// forfeits the packs (a cancel, or an end not preceded by a cancel) and since when media
/// tokens resting on it are void (`ended_at`). Whether it opens a video is not decided here:
/// the subscription service's read answers that (see [`crate::entitlement`]).
pub use proto_events::subscription::SubscriptionStatus as Standing;

/// Subscriptions' standings and ends, from the subscription events the consumer reading
/// `queue` received.
pub fn subscriptions(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox("unlocks.subscriptions", queue, &["member_subscription"], |tx, envelope| {
        Box::pin(async move {
            let Some(event) = decode_known::<SubscriptionEvent>(envelope)? else { return Ok(()) };
            apply_subscription_event(tx, &event, envelope.occurred_at).await?;
            Ok(())
        })
    })
}

/// A stored standing; a name this build does not know reads as ended (the cautious side).
pub fn parse_standing(s: &str) -> Standing {
    Standing::from_name(s).unwrap_or(Standing::Ended)
}

/// Folds `event`, which its owner recorded at `recorded`, into its subscription's row (locked
/// first) and returns the standing before it (`None` for a subscription not heard of). The
/// standing after it is the events' one rule ([`SubscriptionStanding::after`]).
pub async fn apply_subscription_event(
    conn: &mut PgConnection,
    event: &SubscriptionEvent,
    recorded: chrono::DateTime<chrono::Utc>,
) -> Result<Option<Standing>, sqlx::Error> {
    let id = event.subscription_id();
    let before: Option<(String, bool)> =
        sqlx::query_as("select standing, cancelled from member_subscription where subscription_id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let before = before.map(|(standing, cancelled)| SubscriptionStanding::stored(parse_standing(&standing), cancelled));
    match event {
        SubscriptionEvent::SubscriptionStarted { user_id, sites, kind, is_free_limited_trial, .. } => {
            // A start told again leaves the standing the later events gave it.
            sqlx::query(
                "insert into member_subscription (subscription_id, user_id, kind, sites, is_free_limited_trial, standing)
                 values ($1, $2, $3, $4, $5, 'active')
                 on conflict (subscription_id) do update set kind = excluded.kind, sites = excluded.sites,
                     is_free_limited_trial = excluded.is_free_limited_trial",
            )
            .bind(id)
            .bind(user_id)
            .bind(kind.as_str())
            .bind(sites)
            .bind(is_free_limited_trial)
            .execute(&mut *conn)
            .await?;
            return Ok(before.map(SubscriptionStanding::status));
        }
        SubscriptionEvent::SubscriptionUpgraded { to, .. } => {
            sqlx::query(
                "update member_subscription set kind = $2, is_free_limited_trial = false where subscription_id = $1",
            )
            .bind(id)
            .bind(to.as_str())
            .execute(&mut *conn)
            .await?;
        }
        _ => {}
    }
    // One write for the standing, and for an end also since when tokens resting on it are
    // void: media tokens issued before the owner recorded the end are void (a token asked for
    // after it was refused by the owner's read). The biller's own time of the end may be
    // earlier; a late postback must not leave tokens issued meanwhile.
    let ended_at = (StandingChange::of(event).ended == Some(true)).then(|| event.happened_at());
    if let Some(before) = before {
        let after = before.after(event);
        if after != before || ended_at.is_some() {
            sqlx::query(
                "update member_subscription set standing = $2, cancelled = $3,
                     ended_at = case when $4::timestamptz is null then ended_at else greatest(ended_at, $4, $5) end
                 where subscription_id = $1",
            )
            .bind(id)
            .bind(after.status().as_str())
            .bind(after.cancelled)
            .bind(ended_at)
            .bind(recorded)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(before.map(SubscriptionStanding::status))
}
