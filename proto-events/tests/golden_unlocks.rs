mod support;

use chrono::{TimeZone, Utc};
use proto_events::catalog::{ChannelCategory, VideoQuality};
use proto_events::unlocks::{
    DownloadQuotaBucket, ForfeitReason, OrphanReason, UnlockEvent as E, UnlockRefusal, UnlockTarget, VideoUnlockPayment,
};
use proto_events::wallet::Asset;
use uuid::Uuid;

fn id(n: u32) -> Uuid {
    Uuid::parse_str(&format!("0190f5a2-0000-7000-8000-{n:012x}")).unwrap()
}

fn samples() -> Vec<E> {
    let user_id = id(0xa1);
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    vec![
        E::ChannelPackUnlocked {
            unlock_id: id(0x0e1),
            user_id,
            channel_pack_id: id(0xc9),
            channel_id: id(0xc4),
            gems_spent: 10,
            unlocked_at: at,
        },
        E::ChannelPacksForfeited {
            user_id,
            channel_pack_ids: vec![id(0xc9), id(0xca)],
            subscription_id: id(0x5b),
            reason: ForfeitReason::SubscriptionCancelled,
            forfeited_at: at,
        },
        E::VideoUnlocked {
            unlock_id: id(0x0e2),
            user_id,
            video_id: id(0x71d),
            new_id: "310045".into(),
            paid_with: VideoUnlockPayment::Credits { credits_spent: 1 },
            unlocked_at: at,
        },
        E::DownloadGranted {
            download_id: id(0xd1),
            user_id,
            video_id: id(0x71d),
            resolution: VideoQuality::P1080,
            quota: DownloadQuotaBucket::ChannelCategory { category: ChannelCategory::Compilations },
            downloads_in_window: 3,
            quota_max: 5,
            window_days: 7,
            window_started_at: Utc.with_ymd_and_hms(2025, 12, 29, 20, 0, 0).unwrap(),
            granted_at: at,
        },
        E::UnlockRequested {
            unlock_id: id(0x0e1),
            user_id,
            target: UnlockTarget::ChannelPack { channel_pack_id: id(0xc9), channel_id: id(0xc4) },
            asset: Asset::Gems,
            amount: 10,
            requested_at: at,
        },
        E::UnlockRefused { unlock_id: id(0x0e3), user_id, reason: UnlockRefusal::NotEnoughGems, refused_at: at },
        E::UnlockDebitOrphaned {
            unlock_id: id(0x0e4),
            user_id,
            target: UnlockTarget::Video { video_id: id(0x71d), new_id: "310045".into() },
            asset: Asset::Credits,
            amount: 1,
            reason: OrphanReason::AlreadyHeld,
            orphaned_at: at,
        },
    ]
}

#[test]
fn every_unlocks_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn the_other_payment_and_quota_kinds_read_back() {
    let free = VideoUnlockPayment::FreeLimitedTrial { free_videos_left: 2 };
    let json = serde_json::json!({ "kind": "free_limited_trial", "free_videos_left": 2 });
    assert_eq!(serde_json::to_value(&free).unwrap(), json);
    assert_eq!(serde_json::from_value::<VideoUnlockPayment>(json).unwrap(), free);

    let site = DownloadQuotaBucket::Site { site: "tushy".into() };
    let json = serde_json::json!({ "kind": "site", "site": "tushy" });
    assert_eq!(serde_json::to_value(&site).unwrap(), json);
    assert_eq!(serde_json::from_value::<DownloadQuotaBucket>(json).unwrap(), site);
}

#[test]
fn the_newer_refusal_and_orphan_reasons_read_back() {
    for (reason, wire) in
        [(UnlockRefusal::NoTenantAccess, "no_tenant_access"), (UnlockRefusal::WalletRefused, "wallet_refused")]
    {
        assert_eq!(serde_json::to_value(reason).unwrap(), serde_json::json!(wire));
        assert_eq!(serde_json::from_value::<UnlockRefusal>(serde_json::json!(wire)).unwrap(), reason);
    }
    assert_eq!(serde_json::to_value(OrphanReason::GivenUp).unwrap(), serde_json::json!("given_up"));
}

#[test]
fn a_video_target_reads_back() {
    let target = UnlockTarget::Video { video_id: id(0x71d), new_id: "310045".into() };
    let json = serde_json::json!({ "kind": "video", "video_id": id(0x71d), "new_id": "310045" });
    assert_eq!(serde_json::to_value(&target).unwrap(), json);
    assert_eq!(serde_json::from_value::<UnlockTarget>(json).unwrap(), target);
}

#[test]
fn every_unlocks_event_names_its_user() {
    for sample in samples() {
        assert_eq!(sample.user_id(), id(0xa1), "{sample:?}");
    }
}

#[test]
fn an_unlocks_stream_is_named_after_its_user() {
    assert_eq!(proto_events::unlocks::stream_id(id(0xa1)), "unlocks-0190f5a2-0000-7000-8000-0000000000a1");
}
