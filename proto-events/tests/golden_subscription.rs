mod support;

use chrono::{TimeZone, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent as E};
use uuid::Uuid;

fn ids() -> (Uuid, Uuid) {
    (
        Uuid::parse_str("0190f5a2-0000-7000-8000-00000000005b").unwrap(),
        Uuid::parse_str("0190f5a2-0000-7000-8000-0000000000a1").unwrap(),
    )
}

fn samples() -> Vec<E> {
    let (subscription_id, user_id) = ids();
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    let tx = || "EPOCH-100042".to_string();
    vec![
        E::SubscriptionStarted {
            subscription_id,
            user_id,
            site: "multisite2025".into(),
            sites: vec!["tushy".into(), "vixen".into()],
            kind: MembershipKind::Member,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: tx(),
            active_since: at,
            nats_code: Some("MC4wLjEuMC4wLjAuMC4wLjA".into()),
        },
        E::SubscriptionRenewed { subscription_id, user_id, transaction_id: tx(), renewed_at: at },
        E::SubscriptionUpgraded {
            subscription_id,
            user_id,
            from: MembershipKind::Trial,
            to: MembershipKind::Member,
            transaction_id: tx(),
            upgraded_at: at,
        },
        E::SubscriptionCancelled { subscription_id, user_id, transaction_id: tx(), cancelled_at: at },
        E::SubscriptionReactivated {
            subscription_id,
            user_id,
            transaction_id: tx(),
            reactivated_at: at,
            retention_offer_name: Some("stay-with-gems".into()),
            offered_gems: 20,
        },
        E::SubscriptionExpired { subscription_id, user_id, expired_at: at },
        E::SubscriptionChargedBack { subscription_id, user_id, transaction_id: tx(), charged_back_at: at },
        E::SubscriptionRefunded { subscription_id, user_id, transaction_id: tx(), refunded_at: at },
        E::PayPerVideoCreditsPurchased { subscription_id, user_id, credits: 5, transaction_id: tx(), purchased_at: at },
    ]
}

#[test]
fn every_subscription_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn a_v1_subscription_started_reads_as_a_single_site_subscription() {
    let (subscription_id, user_id) = ids();
    support::assert_upcasts(
        "SubscriptionStarted",
        1,
        E::SubscriptionStarted {
            subscription_id,
            user_id,
            site: "tushy".into(),
            sites: vec!["tushy".into()],
            kind: MembershipKind::Trial,
            is_free_limited_trial: true,
            biller: "SEGPAY".into(),
            transaction_id: "SEGPAY-77".into(),
            active_since: Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap(),
            nats_code: None,
        },
    );
}
