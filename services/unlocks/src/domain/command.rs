//! What may be asked of a user's unlocks ([`Command`]) and the answers that refuse
//! ([`DomainError`]).

use chrono::{DateTime, Utc};
use proto_events::catalog::VideoQuality;
use proto_events::unlocks::{DownloadQuotaBucket, ForfeitReason, UnlockRefusal};
use uuid::Uuid;

use super::PendingUnlock;
use crate::quota::{self, DownloadQuotas, QuotaRule};

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Begin a pack unlock paid with gems.
    RequestPackUnlock {
        unlock_id: Uuid,
        channel_pack_id: Uuid,
        channel_id: Uuid,
        gems: u32,
        /// The user has tenant access (an active membership or trial).
        may_unlock: bool,
        now: DateTime<Utc>,
    },
    /// Begin a video unlock paid with pay-per-video credits.
    RequestVideoUnlock { unlock_id: Uuid, video_id: Uuid, new_id: String, credits: u32, now: DateTime<Utc> },
    /// Open a video as one of the free limited trial's full videos (no wallet involved).
    TakeFreeTrialVideo {
        unlock_id: Uuid,
        video_id: Uuid,
        new_id: String,
        /// The trial's allowance (3).
        allowance: u32,
        now: DateTime<Utc>,
    },
    /// The wallet debited the unlock (or answered its receipt again); `paid` is what the
    /// debit was sent for. A pending unlock is recorded, unless its target is held meanwhile
    /// (then the debit is recorded as orphaned). One given up meanwhile is recorded when its
    /// target is free and (for a pack) `may_unlock` still holds; otherwise orphaned.
    CompleteUnlock { unlock_id: Uuid, paid: PendingUnlock, may_unlock: bool, now: DateTime<Utc> },
    /// The wallet refused the pending unlock's debit.
    RefuseUnlock { unlock_id: Uuid, reason: UnlockRefusal, now: DateTime<Utc> },
    /// A subscription ended: every pack held is lost (product.md, "Unlocks"), and every pending pack unlock
    /// is given up (`UnlockRefused`, `no_tenant_access`).
    ForfeitPacks { subscription_id: Uuid, reason: ForfeitReason, now: DateTime<Utc> },
    /// Count a download against its bucket, if the quota allows.
    GrantDownload {
        download_id: Uuid,
        video_id: Uuid,
        resolution: VideoQuality,
        bucket: DownloadQuotaBucket,
        rule: QuotaRule,
        now: DateTime<Utc>,
    },
}

/// An answer, not a failure: nothing is recorded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("already unlocked")]
    AlreadyUnlocked,
    #[error("channel packs are unlocked by members with access")]
    NoTenantAccess,
    #[error("the free limited trial's {allowance} full videos are taken")]
    NoFreeTrialVideosLeft { allowance: u32 },
    #[error("{}", quota::reached_message(.0.remaining_days))]
    ReachedDownloadQuota(DownloadQuotas),
    #[error("no pending unlock {0}")]
    UnknownUnlock(Uuid),
    /// A credits unlock of the video is pending: the free trial does not race it.
    #[error("an unlock of this video is pending")]
    UnlockPending,
}
