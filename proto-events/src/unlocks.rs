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
use crate::wallet::Asset;
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

/// The download quota a download counts against (product.md, "Downloads and quotas", decisions table).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DownloadQuotaBucket {
    /// The site's quota (default 20 per 7 days).
    Site { site: String },
    /// The quota Compilations, Behind The Scenes and Intimates videos share (default 5 per 7
    /// days); `category` is the downloaded video's.
    ChannelCategory { category: ChannelCategory },
}

/// What an unlock paid from the wallet opens.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnlockTarget {
    ChannelPack { channel_pack_id: Uuid, channel_id: Uuid },
    Video { video_id: Uuid, new_id: String },
}

/// Why a requested unlock was given up: the wallet refused its debit, so nothing was spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnlockRefusal {
    NotEnoughGems,
    NotEnoughCredits,
    /// Any other refusal of the wallet (a reused key, an amount it does not accept).
    WalletRefused,
    /// Given up before any debit: the user no longer has the access a channel pack needs
    /// (the subscription ended while the unlock was pending).
    NoTenantAccess,
}

/// Why a debit that went through opened nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrphanReason {
    /// The unlock had been given up (refused) before its debit went through.
    GivenUp,
    /// The target was already held (or pending under another unlock) when the debit went through.
    AlreadyHeld,
}

/// Events of the unlocks service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum UnlockEvent {
    /// An unlock paid from the wallet began: written before the debit, whose idempotency key
    /// is `unlock_id`. Until `ChannelPackUnlocked`/`VideoUnlocked` or `UnlockRefused` with
    /// this id follows, the unlock is pending and the reconciler finishes it.
    UnlockRequested {
        unlock_id: Uuid,
        user_id: Uuid,
        target: UnlockTarget,
        asset: Asset,
        amount: u32,
        requested_at: DateTime<Utc>,
    },
    /// The wallet refused the debit of a pending unlock: nothing was spent, nothing opened.
    UnlockRefused { unlock_id: Uuid, user_id: Uuid, reason: UnlockRefusal, refused_at: DateTime<Utc> },
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
    /// A subscription was cancelled or ended: these unlocked packs are lost (product.md, "Unlocks").
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
    /// The wallet debited an unlock that opened nothing (given up meanwhile, or its target
    /// already held): the debit (reference `unlock_id`, the idempotency key) needs an operator
    /// to refund it. Listed by `GET /internal/admin/orphaned-debits`.
    UnlockDebitOrphaned {
        unlock_id: Uuid,
        user_id: Uuid,
        target: UnlockTarget,
        asset: Asset,
        amount: u32,
        reason: OrphanReason,
        orphaned_at: DateTime<Utc>,
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
            UnlockEvent::UnlockRequested { user_id, .. }
            | UnlockEvent::UnlockRefused { user_id, .. }
            | UnlockEvent::ChannelPackUnlocked { user_id, .. }
            | UnlockEvent::ChannelPacksForfeited { user_id, .. }
            | UnlockEvent::VideoUnlocked { user_id, .. }
            | UnlockEvent::DownloadGranted { user_id, .. }
            | UnlockEvent::UnlockDebitOrphaned { user_id, .. } => *user_id,
        }
    }

    /// The wallet debit reference of an unlock.
    pub fn unlock_id(&self) -> Option<Uuid> {
        match self {
            UnlockEvent::UnlockRequested { unlock_id, .. }
            | UnlockEvent::UnlockRefused { unlock_id, .. }
            | UnlockEvent::ChannelPackUnlocked { unlock_id, .. }
            | UnlockEvent::VideoUnlocked { unlock_id, .. }
            | UnlockEvent::UnlockDebitOrphaned { unlock_id, .. } => Some(*unlock_id),
            UnlockEvent::ChannelPacksForfeited { .. } | UnlockEvent::DownloadGranted { .. } => None,
        }
    }
}

impl EventFamily for UnlockEvent {
    const DOMAIN: &'static str = "unlocks";
    const TYPES: &'static [(&'static str, u32)] = &[
        ("ChannelPackUnlocked", 1),
        ("ChannelPacksForfeited", 1),
        ("VideoUnlocked", 1),
        ("DownloadGranted", 1),
        ("UnlockRequested", 1),
        ("UnlockRefused", 1),
        ("UnlockDebitOrphaned", 1),
    ];
}
