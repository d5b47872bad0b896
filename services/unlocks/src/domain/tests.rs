//! The unlocks decider's examples and properties.

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;
use proto_events::catalog::VideoQuality;
use proto_events::unlocks::{
    DownloadQuotaBucket, ForfeitReason, OrphanReason, UnlockEvent, UnlockRefusal, UnlockTarget, VideoUnlockPayment,
};
use proto_events::wallet::Asset;
use uuid::Uuid;

use super::*;
use crate::quota::QuotaRule;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 7, 12, 0, 0).unwrap()
}

fn user() -> Uuid {
    Uuid::from_u128(0xa1)
}

fn pack(n: u128) -> Uuid {
    Uuid::from_u128(0xc900 + n)
}

fn run(state: Unlocks, command: Command) -> Result<(Unlocks, Vec<UnlockEvent>), DomainError> {
    let events = decide(&state, user(), command)?;
    Ok((events.iter().fold(state, evolve), events))
}

fn paid(p: u128) -> PendingUnlock {
    PendingUnlock {
        target: UnlockTarget::ChannelPack { channel_pack_id: pack(p), channel_id: Uuid::from_u128(0xc4) },
        asset: Asset::Gems,
        amount: 10,
        requested_at: now(),
    }
}

fn complete(unlock: u128, p: u128) -> Command {
    Command::CompleteUnlock { unlock_id: Uuid::from_u128(unlock), paid: paid(p), may_unlock: true, now: now() }
}

fn request(unlock: u128, p: u128) -> Command {
    Command::RequestPackUnlock {
        unlock_id: Uuid::from_u128(unlock),
        channel_pack_id: pack(p),
        channel_id: Uuid::from_u128(0xc4),
        gems: 10,
        may_unlock: true,
        now: now(),
    }
}

#[test]
fn a_pack_unlock_is_requested_then_completed_and_then_already_unlocked() {
    let (s, e) = run(Unlocks::default(), request(1, 1)).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockRequested { amount: 10, asset: Asset::Gems, .. }]));
    // A second request while pending joins it: no event, the same unlock id.
    let (s, e) = run(s, request(2, 1)).unwrap();
    assert!(e.is_empty());
    let target = UnlockTarget::ChannelPack { channel_pack_id: pack(1), channel_id: Uuid::from_u128(0xc4) };
    assert_eq!(s.pending_for(&target), Some(Uuid::from_u128(1)));
    let (s, e) = run(s, complete(1, 1)).unwrap();
    assert!(matches!(e[..], [UnlockEvent::ChannelPackUnlocked { gems_spent: 10, .. }]));
    assert_eq!(s.last_channel_pack_unlock_at, Some(now()));
    assert!(s.pending.is_empty());
    // Completing again (the reconciler after the request) changes nothing.
    let (s, e) = run(s, complete(1, 1)).unwrap();
    assert!(e.is_empty());
    assert_eq!(run(s, request(3, 1)).unwrap_err(), DomainError::AlreadyUnlocked);
}

#[test]
fn only_members_with_access_begin_a_pack_unlock() {
    let mut c = request(1, 1);
    if let Command::RequestPackUnlock { may_unlock, .. } = &mut c {
        *may_unlock = false;
    }
    assert_eq!(run(Unlocks::default(), c).unwrap_err(), DomainError::NoTenantAccess);
}

#[test]
fn a_refused_debit_ends_the_pending_unlock_and_a_new_request_starts_afresh() {
    let (s, _) = run(Unlocks::default(), request(1, 1)).unwrap();
    let refuse =
        Command::RefuseUnlock { unlock_id: Uuid::from_u128(1), reason: UnlockRefusal::NotEnoughGems, now: now() };
    let (s, e) = run(s, refuse.clone()).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockRefused { .. }]));
    assert!(s.pending.is_empty() && s.packs.is_empty());
    assert!(run(s.clone(), refuse).unwrap().1.is_empty(), "refusing twice records once");
    let (s, e) = run(s, request(2, 1)).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockRequested { unlock_id, .. }] if unlock_id == Uuid::from_u128(2)));
    // A debit of the given-up unlock that went through after all (a joined request's,
    // after new gems) is not recorded over the new pending one: it is listed as orphaned.
    let (s, e) = run(s, complete(1, 1)).unwrap();
    assert!(matches!(
        e[..],
        [UnlockEvent::UnlockDebitOrphaned { unlock_id, reason: OrphanReason::AlreadyHeld, .. }] if unlock_id == Uuid::from_u128(1)
    ));
    // Once orphaned, a late repeat records nothing more.
    assert!(run(s, complete(1, 1)).unwrap().1.is_empty());
}

#[test]
fn a_late_second_completion_after_a_forfeit_does_not_reopen_the_pack() {
    let (s, _) = run(Unlocks::default(), request(1, 1)).unwrap();
    let (s, _) = run(s, complete(1, 1)).unwrap();
    let forfeit = Command::ForfeitPacks {
        subscription_id: Uuid::nil(),
        reason: ForfeitReason::SubscriptionCancelled,
        now: now(),
    };
    let (s, _) = run(s, forfeit).unwrap();
    let (s, e) = run(s, complete(1, 1)).unwrap();
    assert!(e.is_empty() && s.packs.is_empty());
}

#[test]
fn a_debited_unlock_given_up_meanwhile_is_still_recorded() {
    let (s, _) = run(Unlocks::default(), request(1, 1)).unwrap();
    let refuse =
        Command::RefuseUnlock { unlock_id: Uuid::from_u128(1), reason: UnlockRefusal::NotEnoughGems, now: now() };
    let (s, _) = run(s, refuse).unwrap();
    let (s, e) = run(s, complete(1, 1)).unwrap();
    assert!(matches!(e[..], [UnlockEvent::ChannelPackUnlocked { .. }]));
    assert!(s.packs.contains_key(&pack(1)));
}

#[test]
fn a_debit_of_a_given_up_pack_unlock_without_access_is_orphaned() {
    let (s, _) = run(Unlocks::default(), request(1, 1)).unwrap();
    let forfeit = Command::ForfeitPacks {
        subscription_id: Uuid::nil(),
        reason: ForfeitReason::SubscriptionCancelled,
        now: now(),
    };
    // The cancel gives up the pending pack unlock.
    let (s, e) = run(s, forfeit).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockRefused { reason: UnlockRefusal::NoTenantAccess, .. }]));
    assert!(s.pending.is_empty());
    let late = Command::CompleteUnlock { unlock_id: Uuid::from_u128(1), paid: paid(1), may_unlock: false, now: now() };
    let (s, e) = run(s, late).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockDebitOrphaned { reason: OrphanReason::GivenUp, .. }]));
    assert!(s.packs.is_empty());
}

#[test]
fn a_pending_credits_unlock_of_a_video_held_meanwhile_is_orphaned_not_failed() {
    let video = PendingUnlock {
        target: UnlockTarget::Video { video_id: Uuid::from_u128(7), new_id: "7".into() },
        asset: Asset::Credits,
        amount: 1,
        requested_at: now(),
    };
    let mut s = Unlocks::default();
    s.pending.insert(Uuid::from_u128(1), video.clone());
    s.videos.insert(Uuid::from_u128(7), (Uuid::from_u128(2), true));
    let c = Command::CompleteUnlock { unlock_id: Uuid::from_u128(1), paid: video, may_unlock: true, now: now() };
    let (s, e) = run(s, c).unwrap();
    assert!(matches!(e[..], [UnlockEvent::UnlockDebitOrphaned { reason: OrphanReason::AlreadyHeld, amount: 1, .. }]));
    assert!(s.pending.is_empty() && s.completed.contains(&Uuid::from_u128(1)));
}

#[test]
fn the_free_trial_does_not_take_a_video_with_a_pending_credits_unlock() {
    let c = Command::RequestVideoUnlock {
        unlock_id: Uuid::from_u128(1),
        video_id: Uuid::from_u128(7),
        new_id: "7".into(),
        credits: 1,
        now: now(),
    };
    let (s, _) = run(Unlocks::default(), c).unwrap();
    let take = Command::TakeFreeTrialVideo {
        unlock_id: Uuid::from_u128(2),
        video_id: Uuid::from_u128(7),
        new_id: "7".into(),
        allowance: 3,
        now: now(),
    };
    assert_eq!(run(s, take).unwrap_err(), DomainError::UnlockPending);
}

#[test]
fn a_cancel_forfeits_every_pack_held_and_nothing_when_none() {
    let mut s = Unlocks::default();
    for n in 1..=3 {
        s = run(s, request(n, n)).unwrap().0;
        s = run(s, complete(n, n)).unwrap().0;
    }
    let forfeit = Command::ForfeitPacks {
        subscription_id: Uuid::from_u128(5),
        reason: ForfeitReason::SubscriptionCancelled,
        now: now(),
    };
    let (s, e) = run(s, forfeit.clone()).unwrap();
    assert!(
        matches!(&e[..], [UnlockEvent::ChannelPacksForfeited { channel_pack_ids, .. }] if channel_pack_ids.len() == 3)
    );
    assert!(s.packs.is_empty());
    assert_eq!(s.last_channel_pack_unlock_at, Some(now()), "the last unlock date survives");
    assert!(run(s.clone(), forfeit).unwrap().1.is_empty());
    // Forfeited packs may be unlocked again.
    assert_eq!(run(s, request(9, 1)).unwrap().1.len(), 1);
}

#[test]
fn the_free_limited_trial_opens_three_full_videos() {
    let mut s = Unlocks::default();
    let take = |n: u128| Command::TakeFreeTrialVideo {
        unlock_id: Uuid::from_u128(100 + n),
        video_id: Uuid::from_u128(n),
        new_id: format!("{n}"),
        allowance: 3,
        now: now(),
    };
    for (n, left) in [(1, 2), (2, 1), (3, 0)] {
        let (next, e) = run(s, take(n)).unwrap();
        assert!(
            matches!(&e[..], [UnlockEvent::VideoUnlocked { paid_with: VideoUnlockPayment::FreeLimitedTrial { free_videos_left }, .. }] if *free_videos_left == left)
        );
        s = next;
    }
    assert_eq!(run(s.clone(), take(2)).unwrap_err(), DomainError::AlreadyUnlocked);
    assert_eq!(run(s, take(4)).unwrap_err(), DomainError::NoFreeTrialVideosLeft { allowance: 3 });
}

#[test]
fn a_video_bought_with_credits_is_recorded_with_its_price() {
    let c = Command::RequestVideoUnlock {
        unlock_id: Uuid::from_u128(1),
        video_id: Uuid::from_u128(7),
        new_id: "7".into(),
        credits: 1,
        now: now(),
    };
    let (s, _) = run(Unlocks::default(), c.clone()).unwrap();
    let video = PendingUnlock {
        target: UnlockTarget::Video { video_id: Uuid::from_u128(7), new_id: "7".into() },
        asset: Asset::Credits,
        amount: 1,
        requested_at: now(),
    };
    let (s, e) =
        run(s, Command::CompleteUnlock { unlock_id: Uuid::from_u128(1), paid: video, may_unlock: true, now: now() })
            .unwrap();
    assert!(matches!(
        &e[..],
        [UnlockEvent::VideoUnlocked { paid_with: VideoUnlockPayment::Credits { credits_spent: 1 }, .. }]
    ));
    assert_eq!(run(s, c).unwrap_err(), DomainError::AlreadyUnlocked);
}

fn download(n: u128, at: DateTime<Utc>, rule: QuotaRule) -> Command {
    Command::GrantDownload {
        download_id: Uuid::from_u128(n),
        video_id: Uuid::from_u128(7),
        resolution: VideoQuality::P1080,
        bucket: DownloadQuotaBucket::Site { site: "vixen".into() },
        rule,
        now: at,
    }
}

#[test]
fn downloads_stop_at_the_quota_until_the_window_moves_on() {
    let rule = QuotaRule { max: 3, days: 7 };
    let mut s = Unlocks::default();
    for n in 0..3 {
        s = run(s, download(n, now() + Duration::hours(n as i64), rule)).unwrap().0;
    }
    match run(s.clone(), download(9, now() + Duration::days(1), rule)).unwrap_err() {
        DomainError::ReachedDownloadQuota(q) => {
            assert_eq!((q.download_quota_max, q.remaining_days), (3, 6));
            assert_eq!(DomainError::ReachedDownloadQuota(q).to_string(), "limit exceeded, try again in 6 days");
        }
        other => panic!("{other:?}"),
    }
    let (_, e) = run(s, download(9, now() + Duration::days(7) + Duration::minutes(1), rule)).unwrap();
    assert!(matches!(&e[..], [UnlockEvent::DownloadGranted { downloads_in_window: 3, .. }]));
}

proptest! {
    /// However requests, completions, refusals and forfeits interleave, a pack is never
    /// held twice, an unlock completes once, and a pending unlock is one per target.
    #[test]
    fn unlocks_stay_consistent_under_any_interleaving(ops in proptest::collection::vec((0u8..4, 0u128..4, 0u128..6), 0..60)) {
        let mut s = Unlocks::default();
        let mut completed = std::collections::BTreeSet::new();
        // Unlock ids are fresh per request; completions and refusals name an earlier one,
        // with the pack that request asked for (what its debit paid).
        let mut issued: Vec<u128> = vec![];
        for (op, p, id) in ops {
            let n = id as usize % issued.len().max(1);
            let earlier = Uuid::from_u128(1000 + n as u128);
            let earlier_pack = issued.get(n).copied().unwrap_or(p);
            let command = match op {
                0 => {
                    issued.push(p);
                    request(1000 + issued.len() as u128 - 1, p)
                }
                1 => Command::CompleteUnlock { unlock_id: earlier, paid: paid(earlier_pack), may_unlock: true, now: now() },
                2 => Command::RefuseUnlock { unlock_id: earlier, reason: UnlockRefusal::NotEnoughGems, now: now() },
                _ => Command::ForfeitPacks { subscription_id: Uuid::nil(), reason: ForfeitReason::SubscriptionCancelled, now: now() },
            };
            if let Ok((next, events)) = run(s.clone(), command) {
                for e in &events {
                    if let UnlockEvent::ChannelPackUnlocked { unlock_id, .. } = e {
                        prop_assert!(completed.insert(*unlock_id), "completed twice");
                    }
                }
                s = next;
            }
            let targets: std::collections::HashSet<_> = s.pending.values().map(|p| p.target.clone()).collect();
            prop_assert_eq!(targets.len(), s.pending.len());
            for pack_id in s.packs.keys() {
                let both = s.pending.values().any(|p| matches!(p.target, UnlockTarget::ChannelPack { channel_pack_id, .. } if channel_pack_id == *pack_id));
                prop_assert!(!both, "a pack both held and pending");
            }
        }
    }
}
