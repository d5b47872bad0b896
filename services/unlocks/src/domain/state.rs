//! What deciding needs of a user's unlocks ([`Unlocks`]) and how its events change it
//! ([`evolve`]).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use proto_events::unlocks::{UnlockEvent, UnlockTarget, VideoUnlockPayment};
use proto_events::wallet::Asset;
use uuid::Uuid;

use crate::quota;

/// A pending unlock: requested, debit not yet answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingUnlock {
    pub target: UnlockTarget,
    pub asset: Asset,
    pub amount: u32,
    pub requested_at: DateTime<Utc>,
}

/// What deciding needs of a user's history. The store restores it from the read models
/// (with the downloads of the one bucket a download command asks about); folding the whole
/// stream gives the same decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unlocks {
    /// Packs held now -> the unlock that opened them.
    pub packs: BTreeMap<Uuid, Uuid>,
    /// Videos opened on their own -> (unlock id, paid with free trial).
    pub videos: BTreeMap<Uuid, (Uuid, bool)>,
    pub pending: BTreeMap<Uuid, PendingUnlock>,
    /// Unlocks ever recorded (forfeited packs' too): a late completion of one records nothing.
    pub completed: BTreeSet<Uuid>,
    pub free_trial_videos_used: u32,
    pub last_channel_pack_unlock_at: Option<DateTime<Utc>>,
    /// Bucket key -> download instants.
    pub downloads: BTreeMap<String, Vec<DateTime<Utc>>>,
}

impl Unlocks {
    /// The pending unlock of a target, if any.
    pub fn pending_for(&self, target: &UnlockTarget) -> Option<Uuid> {
        self.pending.iter().find(|(_, p)| p.target == *target).map(|(id, _)| *id)
    }
}

pub fn evolve(mut state: Unlocks, event: &UnlockEvent) -> Unlocks {
    match event {
        UnlockEvent::UnlockRequested { unlock_id, target, asset, amount, requested_at, .. } => {
            state.pending.insert(
                *unlock_id,
                PendingUnlock { target: target.clone(), asset: *asset, amount: *amount, requested_at: *requested_at },
            );
        }
        UnlockEvent::UnlockRefused { unlock_id, .. } => {
            state.pending.remove(unlock_id);
        }
        UnlockEvent::ChannelPackUnlocked { unlock_id, channel_pack_id, unlocked_at, .. } => {
            state.pending.remove(unlock_id);
            state.completed.insert(*unlock_id);
            state.packs.insert(*channel_pack_id, *unlock_id);
            state.last_channel_pack_unlock_at = Some(*unlocked_at);
        }
        UnlockEvent::ChannelPacksForfeited { channel_pack_ids, .. } => {
            for id in channel_pack_ids {
                state.packs.remove(id);
            }
        }
        UnlockEvent::VideoUnlocked { unlock_id, video_id, paid_with, .. } => {
            state.pending.remove(unlock_id);
            state.completed.insert(*unlock_id);
            let free = matches!(paid_with, VideoUnlockPayment::FreeLimitedTrial { .. });
            if free {
                state.free_trial_videos_used += 1;
            }
            state.videos.insert(*video_id, (*unlock_id, free));
        }
        UnlockEvent::UnlockDebitOrphaned { unlock_id, .. } => {
            state.pending.remove(unlock_id);
            state.completed.insert(*unlock_id);
        }
        UnlockEvent::DownloadGranted { quota, granted_at, .. } => {
            state.downloads.entry(quota::bucket_key(quota)).or_default().push(*granted_at);
        }
    }
    state
}
