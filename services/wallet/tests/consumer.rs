//! The subscription-events consumer over the real broker.

mod support;

use std::time::Duration;

use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;
use wallet::scheduler::Scheduler;

use support::{cancelled, credits_purchased, reactivated, started, utc, TestEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_forfeits_a_retention_deal_grants_and_a_purchase_credits_each_once() {
    let env = TestEnv::new().await;
    env.declare_queue().await;
    let cancel = CancellationToken::new();
    let consumer = env.consumer_task(&cancel);
    let (member, portal) = ((Uuid::now_v7(), Uuid::now_v7()), (Uuid::now_v7(), Uuid::now_v7()));
    let balance = |user: Uuid| {
        let pool = env.pool.clone();
        async move {
            sqlx::query_as::<_, (i64, i64)>("select gems, credits from wallet where user_id = $1")
                .bind(user)
                .fetch_optional(&pool)
                .await
                .unwrap()
                .unwrap_or((0, 0))
        }
    };
    let wait_entries = |n: i64| env.wait_for("select count(*) from ledger_entry", n, Duration::from_secs(20));

    env.publish(&[
        env.envelope(&started(member.0, member.1, MembershipKind::Member, utc(2026, 1, 1, 12, 0))),
        env.envelope(&started(portal.0, portal.1, MembershipKind::PornPortal, utc(2026, 1, 1, 12, 0))),
    ])
    .await;
    env.wait_for("select count(*) from subscription", 2, Duration::from_secs(20)).await;
    env.clock.set(utc(2026, 1, 2, 9, 0));
    assert_eq!(Scheduler::new(env.state.clone()).pass().await.unwrap().granted, 1);
    assert_eq!(balance(member.1).await, (10, 0));

    env.publish(&[env.envelope(&cancelled(member.0, member.1, utc(2026, 1, 3, 9, 0)))]).await;
    wait_entries(2).await;
    assert_eq!(balance(member.1).await, (0, 0), "the cancel forfeits the gems");

    // A retention deal with 20 gems, delivered twice (a redelivery keeps its event id).
    let deal = env.envelope(&reactivated(member.0, member.1, utc(2026, 1, 4, 9, 0), 20));
    env.publish(&[deal.clone(), deal]).await;
    wait_entries(3).await;

    // A purchase, and the same purchase told again under another event id.
    let purchase = credits_purchased(portal.0, portal.1, 5, "EPOCH-PPV-1");
    env.publish(&[env.envelope(&purchase), env.envelope(&purchase)]).await;
    wait_entries(4).await;

    // The expiry of the reactivated subscription forfeits the deal's gems.
    env.publish(&[env.envelope(&SubscriptionEvent::SubscriptionExpired {
        subscription_id: member.0,
        user_id: member.1,
        expired_at: utc(2026, 2, 1, 0, 0),
    })])
    .await;
    wait_entries(5).await;
    env.wait_for("select count(*) from inbox", 7, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;

    let lines: Vec<(String, String, i64, i64)> = sqlx::query_as(
        "select entry_type, reason, amount, balance_after from ledger_entry order by created_at, stream_version, currency",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap();
    let lines: Vec<(&str, &str, i64, i64)> =
        lines.iter().map(|(t, r, a, b)| (t.as_str(), r.as_str(), *a, *b)).collect();
    assert_eq!(
        lines,
        vec![
            ("grant", "friday_gems", 10, 10),
            ("forfeit", "subscription_cancelled", 10, 0),
            ("grant", "retention_deal", 20, 20),
            ("grant", "ppv_purchase", 5, 5),
            ("forfeit", "subscription_expired", 20, 0),
        ]
    );
    assert_eq!(balance(portal.1).await, (0, 5));
    assert_eq!(env.scalar("select count(*) from inbox").await, 7, "the redelivered deal was applied once");
    let caused: i64 = env.scalar("select count(*) from event where causation_id is not null").await;
    assert_eq!(caused, 4, "events written for subscription events name their cause");
    cancel.cancel();
    consumer.await.unwrap();
    env.cleanup().await;
}
