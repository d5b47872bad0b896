mod support;

use chrono::{TimeZone, Utc};
use proto_events::wallet::{
    stream_id, Asset, CreditsDebitReason, CreditsGrantReason, GemsDebitReason, GemsForfeitReason, GemsGrantReason,
    Movement, WalletEvent as E,
};
use serde::Serialize;
use uuid::Uuid;

fn user_id() -> Uuid {
    Uuid::parse_str("0190f5a2-0000-7000-8000-0000000000a1").unwrap()
}

fn samples() -> Vec<E> {
    let user_id = user_id();
    let subscription = "0190f5a2-0000-7000-8000-00000000005b";
    vec![
        E::GemsGranted {
            user_id,
            amount: 10,
            reason: GemsGrantReason::FridayGems,
            reference: format!("{subscription}/2026-W53"),
            balance_after: 30,
        },
        E::GemsDebited {
            user_id,
            amount: 10,
            reason: GemsDebitReason::PackUnlock,
            reference: "0190f5a2-0000-7000-8000-000000000001".into(),
            channel_pack_id: Some(Uuid::parse_str("0190f5a2-0000-7000-8000-0000000000c7").unwrap()),
            balance_after: 20,
        },
        E::GemsForfeited {
            user_id,
            amount: 20,
            reason: GemsForfeitReason::SubscriptionCancelled,
            reference: subscription.into(),
            balance_after: 0,
        },
        E::CreditsGranted {
            user_id,
            amount: 5,
            reason: CreditsGrantReason::PpvPurchase,
            reference: format!("{subscription}/EPOCH-100042"),
            balance_after: 7,
        },
        E::CreditsDebited {
            user_id,
            amount: 1,
            reason: CreditsDebitReason::VideoUnlock,
            reference: "0190f5a2-0000-7000-8000-000000000002".into(),
            balance_after: 6,
        },
        E::NewGemsBalanceAcknowledged { user_id, at: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap() },
    ]
}

#[test]
fn every_wallet_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn a_v1_gems_debit_reads_as_one_that_names_no_pack() {
    support::assert_upcasts(
        "GemsDebited",
        1,
        E::GemsDebited {
            user_id: user_id(),
            amount: 10,
            reason: GemsDebitReason::PackUnlock,
            reference: "0190f5a2-0000-7000-8000-000000000001".into(),
            channel_pack_id: None,
            balance_after: 20,
        },
    );
}

fn spelling<T: Serialize>(value: T) -> String {
    serde_json::to_value(value).unwrap().as_str().unwrap().to_owned()
}

/// A golden fixture pins one reason per type; the other reasons are pinned here.
#[test]
fn every_reason_keeps_its_spelling() {
    let pinned = [
        (spelling(Asset::Gems), Asset::Gems.as_str(), "gems"),
        (spelling(Asset::Credits), Asset::Credits.as_str(), "credits"),
        (spelling(GemsGrantReason::FridayGems), GemsGrantReason::FridayGems.as_str(), "friday_gems"),
        (spelling(GemsGrantReason::RetentionDeal), GemsGrantReason::RetentionDeal.as_str(), "retention_deal"),
        (spelling(GemsDebitReason::PackUnlock), GemsDebitReason::PackUnlock.as_str(), "pack_unlock"),
        (
            spelling(GemsForfeitReason::SubscriptionCancelled),
            GemsForfeitReason::SubscriptionCancelled.as_str(),
            "subscription_cancelled",
        ),
        (
            spelling(GemsForfeitReason::SubscriptionChargedBack),
            GemsForfeitReason::SubscriptionChargedBack.as_str(),
            "subscription_charged_back",
        ),
        (
            spelling(GemsForfeitReason::SubscriptionRefunded),
            GemsForfeitReason::SubscriptionRefunded.as_str(),
            "subscription_refunded",
        ),
        (
            spelling(GemsForfeitReason::SubscriptionExpired),
            GemsForfeitReason::SubscriptionExpired.as_str(),
            "subscription_expired",
        ),
        (spelling(CreditsGrantReason::PpvPurchase), CreditsGrantReason::PpvPurchase.as_str(), "ppv_purchase"),
        (spelling(CreditsDebitReason::VideoUnlock), CreditsDebitReason::VideoUnlock.as_str(), "video_unlock"),
        (spelling(Movement::Grant), "grant", "grant"),
        (spelling(Movement::Debit), "debit", "debit"),
        (spelling(Movement::Forfeit), "forfeit", "forfeit"),
    ];
    for (wire, as_str, expected) in pinned {
        assert_eq!(wire, expected);
        assert_eq!(as_str, expected);
    }
}

#[test]
fn a_wallet_stream_is_named_after_its_user() {
    assert_eq!(stream_id(user_id()), "wallet-0190f5a2-0000-7000-8000-0000000000a1");
}

#[test]
fn every_balance_moving_event_reads_as_a_ledger_line() {
    let lines: Vec<_> =
        samples().iter().filter_map(|e| e.ledger_entry().map(|l| (l.asset, l.delta(), l.balance_after))).collect();
    assert_eq!(
        lines,
        [
            (Asset::Gems, 10, 30),
            (Asset::Gems, -10, 20),
            (Asset::Gems, -20, 0),
            (Asset::Credits, 5, 7),
            (Asset::Credits, -1, 6),
        ]
    );
}
