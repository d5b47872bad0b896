//! Every deals read model rebuilt from its source equals the live one; the seed runs twice
//! and writes once.

mod support;

use proto_events::subscription::MembershipKind;
use runtime::testing;
use serde_json::json;
use uuid::Uuid;

use support::{expired, started, utc, TestEnv};

/// The read models' tables, each with the columns its rows are compared in the order of.
const TABLES: [(&str, &str); 3] =
    [("deal", "deal_id"), ("interstitial_snooze", "user_id, site"), ("portal_subscription", "subscription_id")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuilt_read_models_equal_the_live_ones() {
    let env = TestEnv::new().await;
    let created = deals::seed::seed_state(&env.state).await.unwrap();
    assert_eq!(created, 80, "8 demo deals for each of the 10 brands");
    let events = env.scalar("select count(*) from event").await;
    assert_eq!(deals::seed::seed_state(&env.state).await.unwrap(), 0, "a second seed writes nothing");
    assert_eq!(env.scalar("select count(*) from event").await, events);
    assert_eq!(env.find("carousel", "tushy", None, None).await.len(), 5, "the special offer is for porn-portal only");

    // Operators change a few, users answer the interstitial, subscriptions arrive.
    let admin = env.admin();
    let first = deals::seed::demo_deal_id("tushy", 0);
    let second = deals::seed::demo_deal_id("vixen", 6);
    env.post(&format!("/internal/admin/deals/{first}/rank"), Some(&admin), &json!({"type": "listing", "rank": 7}))
        .await;
    env.post(&format!("/internal/admin/deals/{second}/enable"), Some(&admin), &json!({"type": "carousel"})).await;
    env.post(&format!("/internal/admin/deals/{first}/disable"), Some(&admin), &json!({"type": "interstitial"})).await;
    for (n, day) in [(0, 3), (1, 10), (2, 31)] {
        env.clock.set(utc(2026, 1, day, 12, 0));
        let user = Uuid::from_u128(n + 1);
        let token = env.token(user, "tushy", &[]);
        env.post("/internal/interstitial/snooze", Some(&token), &json!({"site": "tushy"})).await;
        env.post("/internal/interstitial/continue", Some(&token), &json!({"site": "tushy"})).await;
    }
    env.clock.set(utc(2026, 3, 1, 12, 0));
    env.post(
        "/internal/interstitial/snooze",
        Some(&env.token(Uuid::from_u128(1), "tushy", &[])),
        &json!({"site": "tushy"}),
    )
    .await;
    let (portal, sub) = (Uuid::now_v7(), Uuid::now_v7());
    env.feed(&env.envelope(&started(sub, portal, MembershipKind::PornPortal))).await;
    env.feed(&env.envelope(&started(Uuid::now_v7(), Uuid::now_v7(), MembershipKind::Trial))).await;
    env.feed(&env.envelope(&expired(sub, portal))).await;

    let live = testing::rows(&env.pool, &TABLES).await;
    assert!(live.iter().all(|rows| !rows.is_empty()));
    testing::assert_rebuild_restores(&env.pool, deals::projections(&env.state), &TABLES, &live).await;
    // The deal rows agree with their streams folded.
    let mut conn = env.pool.acquire().await.unwrap();
    for id in [first, second] {
        let (deal, version) = env
            .store
            .state_of::<deals::domain::DealStream>(&mut conn, &proto_events::deals::deal_stream_id(id))
            .await
            .unwrap();
        let row: (i64, serde_json::Value) = sqlx::query_as("select version, body from deal where deal_id = $1")
            .bind(id)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!((row.0, row.1), (version, serde_json::to_value(deal.unwrap()).unwrap()));
    }
    drop(conn);
    env.cleanup().await;
}
