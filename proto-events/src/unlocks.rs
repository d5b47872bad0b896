//! What a user has opened: channel packs bought with gems, videos bought with pay-per-video
//! credits or a free limited trial, and downloads counted against quotas. One stream per user
//! (`unlocks-<user uuid>`), so "already unlocked" and quota checks are decided on one stream.
//!
//! Gems and credits are the wallet's: an unlock is debit-then-record, and the wallet's debit
//! carries the `unlock_id` as its reference (the idempotency key), so a reconciler can pair them.
//!
//! Readers: profile (unlockedChannelPackIds, unlockedVideoIds, lastChannelPackUnlockDate,
//! downloadQuotas), the access rules (a video in a pack not yet unlocked), wallet (reconciliation).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::catalog::{ChannelCategory, VideoQuality};
use crate::EventFamily;

/// The unlocks stream of a user.
pub fn stream_id(user_id: Uuid) -> String {
    format!("unlocks-{user_id}")
}

/// Why unlocked channel packs were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    SubscriptionCancelled,
    SubscriptionChargedBack,
    SubscriptionRefunded,
    /// A subscription that ran out without a cancel first (a cancel has already forfeited).
    SubscriptionExpired,
}

/// What a video unlock was paid with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum VideoUnlockPayment {
    /// Pay-per-video credits, debited from the wallet.
    Credits { credits_spent: u32 },
    /// One of the free limited trial's full videos (3 in all).
    FreeLimitedTrial { free_videos_left: u32 },
}

/// The download quota a download counts against (spec §9, decisions table).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DownloadQuotaBucket {
    /// The site's quota (default 20 per 7 days).
    Site { site: String },
    /// The quota Compilations, Behind The Scenes and Intimates videos share (default 5 per 7
    /// days); `category` is the downloaded video's.
    ChannelCategory { category: ChannelCategory },
}

/// Events of the unlocks service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum UnlockEvent {
    /// A channel pack was bought with gems: its videos play until the packs are forfeited.
    ChannelPackUnlocked {
        /// Also the reference of the wallet's gem debit.
        unlock_id: Uuid,
        user_id: Uuid,
        channel_pack_id: Uuid,
        channel_id: Uuid,
        gems_spent: u32,
        unlocked_at: DateTime<Utc>,
    },
    /// A subscription was cancelled or ended: these unlocked packs are lost (spec §1).
    ChannelPacksForfeited {
        user_id: Uuid,
        channel_pack_ids: Vec<Uuid>,
        /// The subscription whose end caused it.
        subscription_id: Uuid,
        reason: ForfeitReason,
        forfeited_at: DateTime<Utc>,
    },
    /// A single video was opened for good.
    VideoUnlocked {
        /// Also the reference of the wallet's credit debit, when credits paid.
        unlock_id: Uuid,
        user_id: Uuid,
        video_id: Uuid,
        /// The video's `newId`, as UnlockVideo sends it.
        new_id: String,
        paid_with: VideoUnlockPayment,
        unlocked_at: DateTime<Utc>,
    },
    /// A download was allowed and counted against a quota; the counts are after this download.
    DownloadGranted {
        download_id: Uuid,
        user_id: Uuid,
        video_id: Uuid,
        resolution: VideoQuality,
        quota: DownloadQuotaBucket,
        /// Downloads of this bucket in the current window, this one included.
        downloads_in_window: u32,
        quota_max: u32,
        window_days: u32,
        /// The oldest download counted in the window: the quota frees up `window_days` after it.
        window_started_at: DateTime<Utc>,
        granted_at: DateTime<Utc>,
    },
}

impl UnlockEvent {
    pub fn user_id(&self) -> Uuid {
        match self {
            UnlockEvent::ChannelPackUnlocked { user_id, .. }
            | UnlockEvent::ChannelPacksForfeited { user_id, .. }
            | UnlockEvent::VideoUnlocked { user_id, .. }
            | UnlockEvent::DownloadGranted { user_id, .. } => *user_id,
        }
    }

    /// The wallet debit reference of an unlock.
    pub fn unlock_id(&self) -> Option<Uuid> {
        match self {
            UnlockEvent::ChannelPackUnlocked { unlock_id, .. } | UnlockEvent::VideoUnlocked { unlock_id, .. } => {
                Some(*unlock_id)
            }
            UnlockEvent::ChannelPacksForfeited { .. } | UnlockEvent::DownloadGranted { .. } => None,
        }
    }
}

impl EventFamily for UnlockEvent {
    const DOMAIN: &'static str = "unlocks";
    const TYPES: &'static [(&'static str, u32)] =
        &[("ChannelPackUnlocked", 1), ("ChannelPacksForfeited", 1), ("VideoUnlocked", 1), ("DownloadGranted", 1)];
}
