//! How a user's unlocks answer a command: the events it records ([`decide`]).

use proto_events::unlocks::{OrphanReason, UnlockEvent, UnlockRefusal, UnlockTarget, VideoUnlockPayment};
use proto_events::wallet::Asset;
use uuid::Uuid;

use super::{Command, DomainError, PendingUnlock, Unlocks};
use crate::quota;

pub fn decide(state: &Unlocks, user_id: Uuid, command: Command) -> Result<Vec<UnlockEvent>, DomainError> {
    match command {
        Command::RequestPackUnlock { unlock_id, channel_pack_id, channel_id, gems, may_unlock, now } => {
            if state.packs.contains_key(&channel_pack_id) {
                return Err(DomainError::AlreadyUnlocked);
            }
            let target = UnlockTarget::ChannelPack { channel_pack_id, channel_id };
            if state.pending_for(&target).is_some() {
                return Ok(vec![]);
            }
            if !may_unlock {
                return Err(DomainError::NoTenantAccess);
            }
            Ok(vec![UnlockEvent::UnlockRequested {
                unlock_id,
                user_id,
                target,
                asset: Asset::Gems,
                amount: gems,
                requested_at: now,
            }])
        }
        Command::RequestVideoUnlock { unlock_id, video_id, new_id, credits, now } => {
            if state.videos.contains_key(&video_id) {
                return Err(DomainError::AlreadyUnlocked);
            }
            let target = UnlockTarget::Video { video_id, new_id };
            if state.pending_for(&target).is_some() {
                return Ok(vec![]);
            }
            Ok(vec![UnlockEvent::UnlockRequested {
                unlock_id,
                user_id,
                target,
                asset: Asset::Credits,
                amount: credits,
                requested_at: now,
            }])
        }
        Command::TakeFreeTrialVideo { unlock_id, video_id, new_id, allowance, now } => {
            if state.videos.contains_key(&video_id) {
                return Err(DomainError::AlreadyUnlocked);
            }
            if state
                .pending
                .values()
                .any(|p| matches!(&p.target, UnlockTarget::Video { video_id: v, .. } if *v == video_id))
            {
                return Err(DomainError::UnlockPending);
            }
            if state.free_trial_videos_used >= allowance {
                return Err(DomainError::NoFreeTrialVideosLeft { allowance });
            }
            Ok(vec![UnlockEvent::VideoUnlocked {
                unlock_id,
                user_id,
                video_id,
                new_id,
                paid_with: VideoUnlockPayment::FreeLimitedTrial {
                    free_videos_left: allowance - state.free_trial_videos_used - 1,
                },
                unlocked_at: now,
            }])
        }
        Command::CompleteUnlock { unlock_id, paid, may_unlock, now } => {
            if is_done(state, unlock_id) {
                // Completed already (a retry, or the reconciler and the request both finishing).
                return Ok(vec![]);
            }
            let orphan = |p: &PendingUnlock, reason| {
                Ok(vec![UnlockEvent::UnlockDebitOrphaned {
                    unlock_id,
                    user_id,
                    target: p.target.clone(),
                    asset: p.asset,
                    amount: p.amount,
                    reason,
                    orphaned_at: now,
                }])
            };
            let p = match state.pending.get(&unlock_id) {
                // Held meanwhile (a free trial video, say): the debit opened nothing.
                Some(p) if is_held(state, &p.target) => return orphan(p, OrphanReason::AlreadyHeld),
                Some(p) => p,
                // Given up after a refusal, yet debited: record it when its target is free and
                // still allowed; otherwise the debit is listed for an operator to refund.
                None if is_held(state, &paid.target)
                    || state.pending_for(&paid.target).is_some_and(|other| other != unlock_id) =>
                {
                    return orphan(&paid, OrphanReason::AlreadyHeld)
                }
                None if matches!(paid.target, UnlockTarget::ChannelPack { .. }) && !may_unlock => {
                    return orphan(&paid, OrphanReason::GivenUp)
                }
                None => &paid,
            };
            Ok(vec![match &p.target {
                UnlockTarget::ChannelPack { channel_pack_id, channel_id } => UnlockEvent::ChannelPackUnlocked {
                    unlock_id,
                    user_id,
                    channel_pack_id: *channel_pack_id,
                    channel_id: *channel_id,
                    gems_spent: p.amount,
                    unlocked_at: now,
                },
                UnlockTarget::Video { video_id, new_id } => UnlockEvent::VideoUnlocked {
                    unlock_id,
                    user_id,
                    video_id: *video_id,
                    new_id: new_id.clone(),
                    paid_with: VideoUnlockPayment::Credits { credits_spent: p.amount },
                    unlocked_at: now,
                },
            }])
        }
        Command::RefuseUnlock { unlock_id, reason, now } => match state.pending.get(&unlock_id) {
            Some(_) => Ok(vec![UnlockEvent::UnlockRefused { unlock_id, user_id, reason, refused_at: now }]),
            None => Ok(vec![]),
        },
        Command::ForfeitPacks { subscription_id, reason, now } => {
            let mut events: Vec<UnlockEvent> = state
                .pending
                .iter()
                .filter(|(_, p)| matches!(p.target, UnlockTarget::ChannelPack { .. }))
                .map(|(unlock_id, _)| UnlockEvent::UnlockRefused {
                    unlock_id: *unlock_id,
                    user_id,
                    reason: UnlockRefusal::NoTenantAccess,
                    refused_at: now,
                })
                .collect();
            if !state.packs.is_empty() {
                events.push(UnlockEvent::ChannelPacksForfeited {
                    user_id,
                    channel_pack_ids: state.packs.keys().copied().collect(),
                    subscription_id,
                    reason,
                    forfeited_at: now,
                });
            }
            Ok(events)
        }
        Command::GrantDownload { download_id, video_id, resolution, bucket, rule, now } => {
            let key = quota::bucket_key(&bucket);
            let granted = state.downloads.get(&key).map(Vec::as_slice).unwrap_or(&[]);
            let before = quota::standing(rule, &bucket, granted, now);
            if before.threshold_reached {
                return Err(DomainError::ReachedDownloadQuota(before));
            }
            let start = quota::window_start(rule, now);
            let window_started_at = granted.iter().copied().filter(|t| *t > start).min().unwrap_or(now);
            Ok(vec![UnlockEvent::DownloadGranted {
                download_id,
                user_id,
                video_id,
                resolution,
                quota: bucket,
                downloads_in_window: before.downloads_number + 1,
                quota_max: rule.max,
                window_days: rule.days,
                window_started_at,
                granted_at: now,
            }])
        }
    }
}

fn is_held(state: &Unlocks, target: &UnlockTarget) -> bool {
    match target {
        UnlockTarget::ChannelPack { channel_pack_id, .. } => state.packs.contains_key(channel_pack_id),
        UnlockTarget::Video { video_id, .. } => state.videos.contains_key(video_id),
    }
}

fn is_done(state: &Unlocks, unlock_id: Uuid) -> bool {
    state.completed.contains(&unlock_id)
}
