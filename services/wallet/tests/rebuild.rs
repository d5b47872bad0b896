//! Every wallet read model rebuilt from its source equals the live one.

mod support;

use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::wallet::{stream_id, CreditsDebitReason, GemsDebitReason};
use proto_events::{Actor, EventMeta};
use runtime::testing;
use uuid::Uuid;
use wallet::commands::WalletStream;
use wallet::domain::Command;
use wallet::scheduler::Scheduler;

use support::{cancelled, credits_purchased, reactivated, started, utc, TestEnv};

/// user_id, version, gems, credits, last_acknowledged_at
type WalletRow = (Uuid, i64, i64, i64, Option<chrono::DateTime<chrono::Utc>>);

/// The read models' tables, each with the columns its rows are compared in the order of.
const TABLES: [(&str, &str); 3] =
    [("wallet", "user_id"), ("ledger_entry", "event_id"), ("subscription", "subscription_id")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuilt_read_models_equal_the_live_ones_and_the_snapshots_agree_with_the_streams() {
    let owned = TestEnv::new().await;
    let env = &owned;
    let joined = utc(2026, 1, 1, 12, 0);
    let users: Vec<Uuid> = (0..6).map(|_| Uuid::now_v7()).collect();
    let subs: Vec<Uuid> = (0..7).map(|_| Uuid::now_v7()).collect();
    let feed = |event: SubscriptionEvent| {
        let envelope = env.envelope(&event);
        async move { env.feed(&envelope).await }
    };
    feed(started(subs[0], users[0], MembershipKind::Member, joined)).await;
    feed(started(subs[1], users[0], MembershipKind::Member, joined)).await;
    feed(started(subs[2], users[1], MembershipKind::Member, joined)).await;
    feed(started(subs[3], users[2], MembershipKind::Trial, joined)).await;
    feed(started(subs[4], users[3], MembershipKind::PornPortal, joined)).await;
    feed(started(subs[5], users[4], MembershipKind::Member, joined)).await;
    let scheduler = Scheduler::new(env.state.clone());
    for week in 0..3 {
        env.clock.set(utc(2026, 1, 2, 6, 0) + chrono::Duration::weeks(week));
        scheduler.pass().await.unwrap();
        if week == 0 {
            feed(SubscriptionEvent::SubscriptionUpgraded {
                subscription_id: subs[3],
                user_id: users[2],
                from: MembershipKind::Trial,
                to: MembershipKind::Member,
                transaction_id: "EPOCH-UP".into(),
                upgraded_at: utc(2026, 1, 3, 0, 0),
            })
            .await;
            feed(cancelled(subs[2], users[1], utc(2026, 1, 4, 0, 0))).await;
            feed(credits_purchased(subs[4], users[3], 4, "EPOCH-PPV")).await;
        }
        if week == 1 {
            feed(reactivated(subs[2], users[1], utc(2026, 1, 10, 0, 0), 30)).await;
        }
    }
    feed(started(subs[6], users[5], MembershipKind::Member, utc(2026, 1, 20, 0, 0))).await;
    feed(cancelled(subs[5], users[4], utc(2026, 1, 20, 0, 0))).await;
    let ledger = &env.state.ledger;
    let meta = |user| EventMeta::new(Actor::User(user));
    for (user, key, amount) in [(users[0], "pack-1", 10), (users[0], "pack-2", 20), (users[1], "pack-3", 10)] {
        let command = Command::DebitGems {
            idempotency_key: key.into(),
            amount,
            reason: GemsDebitReason::PackUnlock,
            channel_pack_id: Uuid::from_u128(0xc7),
            days_until_refresh_gems: 1,
        };
        ledger.submit(user, command, meta(user)).await.unwrap().unwrap();
    }
    let video =
        Command::DebitCredits { idempotency_key: "video-1".into(), amount: 1, reason: CreditsDebitReason::VideoUnlock };
    ledger.submit(users[3], video, meta(users[3])).await.unwrap().unwrap();
    for user in [users[0], users[1]] {
        ledger
            .submit(user, Command::AcknowledgeNewGemsBalance { now: utc(2026, 1, 21, 8, 30) }, meta(user))
            .await
            .unwrap()
            .unwrap();
    }
    env.fund(users[0], 7).await;

    let live = testing::rows(&env.pool, &TABLES).await;
    assert!(live.iter().all(|rows| !rows.is_empty()));
    let events = env.scalar("select count(*) from event").await;
    testing::assert_rebuild_restores(&env.pool, wallet::projections(&env.state), &TABLES, &live).await;
    assert_eq!(
        env.scalar("select count(*) from ledger_entry").await + 2,
        events,
        "every event but the 2 acknowledgements is a ledger line"
    );

    // The restored snapshot (wallet row) agrees with the whole stream folded.
    let rows: Vec<WalletRow> =
        sqlx::query_as("select user_id, version, gems, credits, last_acknowledged_at from wallet")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 5, "one wallet per user with an event");
    for (user, version, gems, credits, acknowledged) in rows {
        let mut conn = env.pool.acquire().await.unwrap();
        let (wallet, folded_version) = env.store.state_of::<WalletStream>(&mut conn, &stream_id(user)).await.unwrap();
        let wallet = wallet.unwrap();
        assert_eq!(
            (folded_version, wallet.gems() as i64, wallet.credits() as i64, wallet.last_acknowledged_at()),
            (version, gems, credits, acknowledged),
            "{user}"
        );
    }
    owned.cleanup().await;
}
