//! Group-committed postbacks against the real database: a batch ends exactly where the same
//! submissions applied one at a time end (repeats inside and outside the batch, several facts
//! of one stream, a fact waiting for its initial, an initial and its rebill together), a failing
//! submission does not take the others with it, and the read model written for a whole batch
//! in one statement equals the one written event by event.

mod support;

use chrono::{DateTime, Duration, TimeZone, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent as E};
use rand::{seq::IndexedRandom, Rng, SeedableRng};
use serde_json::Value;
use subscription::batcher::apply_batch;
use subscription::commands::{self, FactRecord, Recorded, Start, Submission};
use subscription::domain::{Fact, Identity, Step};
use subscription::projections::{self, MemberChanges};
use support::TestEnv;
use uuid::Uuid;

const MEMBER: Step = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };

fn at(minutes: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_780_000_000, 0).unwrap() + Duration::minutes(minutes)
}

fn user_of(reference: &str) -> Uuid {
    commands::subscription_id_of("user", reference)
}

/// A verified postback of `step` at the biller's subscription `reference`, at minute `minute`.
fn submission(biller: &str, reference: &str, tx: &str, step: Step, minute: i64) -> Submission {
    let subscription_id = commands::subscription_id_of(biller, reference);
    let start = matches!(step, Step::Initial { .. }).then(|| Start {
        identity: Identity {
            subscription_id,
            user_id: user_of(reference),
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            biller: biller.into(),
            nats_code: Some("NATS-1".into()),
        },
        join_option_id: Some(10301),
    });
    Submission {
        records: vec![FactRecord {
            biller: biller.into(),
            subscription_ref: reference.into(),
            subscription_id,
            fact: Fact { transaction_id: tx.into(), at: at(minute), step },
            raw_body: format!("raw {tx}"),
            content_type: Some("application/json".into()),
            signature: Some(format!("t=1,v1={tx}")),
        }],
        start,
        meta: commands::biller_meta(biller, Some("vixen"), None),
        approves: None,
    }
}

/// What a store holds, without the ids and clocks that differ between two runs.
async fn contents(env: &TestEnv) -> Value {
    let q = |sql: &'static str| async move {
        sqlx::query_scalar::<_, Option<Value>>(sql).fetch_one(&env.pool).await.unwrap().unwrap_or(Value::Null)
    };
    serde_json::json!({
        "events": q("select jsonb_agg(jsonb_build_array(stream_id, stream_version, event_type, payload, tenant, actor)
                     order by stream_id, stream_version) from event").await,
        "outbox": q("select to_jsonb(count(*)) from outbox o join event e using (event_id)").await,
        "postbacks": q("select jsonb_agg(jsonb_build_array(biller, transaction_id, subscription_id, step, fact, raw_body,
                        signature) order by biller, transaction_id) from postback").await,
        "terms": q("select jsonb_agg(jsonb_build_array(subscription_id, biller, subscription_ref, user_id, site, sites,
                    join_option_id, nats_code) order by subscription_id) from billing_subscription").await,
        "members": q("select jsonb_agg(to_jsonb(m) order by subscription_id) from member_subscription m").await,
    })
}

/// `Duplicate`, or the types of the events a submission wrote.
fn outcome(recorded: &Recorded) -> Result<Vec<String>, ()> {
    match recorded {
        Recorded::Duplicate => Err(()),
        Recorded::Applied { events } => Ok(events.iter().map(|e| e.event_type.clone()).collect()),
    }
}

#[tokio::test]
async fn a_batch_mixing_repeats_and_several_facts_of_one_stream_ends_as_one_at_a_time() {
    let before = vec![
        submission("VXNBILL", "A", "A-I", MEMBER, 0),
        submission("SEGPAY", "D", "D-I", MEMBER, 0),
        submission("SEGPAY", "D", "D-K1", Step::Rebill, 10),
    ];
    let batch = vec![
        submission("VXNBILL", "A", "A-K1", Step::Rebill, 10),
        // The same postback again in the batch, and one stored before it.
        submission("VXNBILL", "A", "A-K1", Step::Rebill, 10),
        submission("SEGPAY", "D", "D-K1", Step::Rebill, 10),
        // A new subscription: its initial and its rebill together.
        submission("EPOCH", "B", "B-I", MEMBER, 0),
        submission("EPOCH", "B", "B-K1", Step::Rebill, 10),
        // A rebill before its initial waits; the initial, later in the batch, starts it.
        submission("VXNBILL", "C", "C-K1", Step::Rebill, 10),
        submission("VXNBILL", "C", "C-I", Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false }, 0),
        submission("VXNBILL", "A", "A-C", Step::Cancel, 20),
        submission("EPOCH", "B", "B-I", MEMBER, 0),
        // Out of order: the chargeback of D before its second rebill.
        submission("SEGPAY", "D", "D-CB", Step::Chargeback, 30),
        submission("SEGPAY", "D", "D-K2", Step::Rebill, 20),
        // A second initial of A (another transaction) changes nothing.
        submission("VXNBILL", "A", "A-I2", MEMBER, 1),
    ];

    let together = TestEnv::new().await;
    let alone = TestEnv::new().await;
    for s in &before {
        apply_batch(&together.state.store, std::slice::from_ref(s)).await.pop().unwrap().unwrap();
        commands::record(&alone.state.store, s).await.unwrap();
    }
    let batched: Vec<_> = apply_batch(&together.state.store, &batch).await.into_iter().map(Result::unwrap).collect();
    let mut one_by_one = Vec::new();
    for s in &batch {
        one_by_one.push(commands::record(&alone.state.store, s).await.unwrap());
    }
    let (batched, one_by_one): (Vec<_>, Vec<_>) =
        (batched.iter().map(outcome).collect(), one_by_one.iter().map(outcome).collect());
    assert_eq!(batched, one_by_one);
    let types = |t: &[&str]| Ok(t.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(
        batched,
        vec![
            types(&["SubscriptionRenewed"]),
            Err(()),
            Err(()),
            types(&["SubscriptionStarted"]),
            types(&["SubscriptionRenewed"]),
            types(&[]),
            types(&["SubscriptionStarted", "SubscriptionUpgraded", "SubscriptionRenewed"]),
            types(&["SubscriptionCancelled"]),
            Err(()),
            types(&["SubscriptionChargedBack"]),
            // The rebill from before the chargeback is told; it revives nothing, so the
            // chargeback is not told again (readers would forfeit twice).
            types(&["SubscriptionRenewed"]),
            types(&[]),
        ]
    );
    assert_eq!(contents(&together).await, contents(&alone).await);
    // Each applied event has its outbox row; the repeats stored nothing.
    assert_eq!(
        together.scalar("select count(*) from outbox").await,
        together.scalar("select count(*) from event").await
    );
    assert_eq!(together.scalar("select count(*) from postback").await, 12);
    let d = together.read(user_of("D"), "vixen").await;
    assert_eq!(d["subscriptions"][0]["ended"], "charged_back", "{d}");
    together.cleanup().await;
    alone.cleanup().await;
}

#[tokio::test]
async fn a_failing_submission_in_a_batch_does_not_lose_the_others() {
    let env = TestEnv::new().await;
    let mut batch = vec![
        submission("VXNBILL", "F1", "F1-I", MEMBER, 0),
        submission("VXNBILL", "F1", "F1-K", Step::Rebill, 10),
        // PostgreSQL text cannot hold a NUL: the batch's statement fails on this one.
        submission("EPOCH", "F2", "F2-I\0", MEMBER, 0),
        submission("SEGPAY", "F3", "F3-I", MEMBER, 0),
        submission("SEGPAY", "F3", "F3-I", MEMBER, 0),
    ];
    let outcomes = apply_batch(&env.state.store, &batch).await;
    assert!(outcomes[2].is_err(), "{:?}", outcomes[2]);
    let outcomes: Vec<_> =
        outcomes.iter().enumerate().filter(|(i, _)| *i != 2).map(|(_, o)| outcome(o.as_ref().unwrap())).collect();
    assert_eq!(
        outcomes,
        vec![
            Ok(vec!["SubscriptionStarted".to_string()]),
            Ok(vec!["SubscriptionRenewed".to_string()]),
            Ok(vec!["SubscriptionStarted".to_string()]),
            Err(())
        ]
    );
    assert_eq!(env.scalar("select count(*) from postback").await, 3);
    assert_eq!(env.scalar("select count(*) from member_subscription").await, 2);
    assert!(env.events().await.iter().all(|e| e.user_id() != user_of("F2")));
    // Sent again with the fault fixed, it is applied; the others are repeats.
    batch[2] = submission("EPOCH", "F2", "F2-I", MEMBER, 0);
    let again: Vec<_> = apply_batch(&env.state.store, &batch).await.into_iter().map(|o| outcome(&o.unwrap())).collect();
    assert_eq!(again, vec![Err(()), Err(()), Ok(vec!["SubscriptionStarted".to_string()]), Err(()), Err(())]);
    assert_eq!(env.scalar("select count(*) from member_subscription").await, 3);
    env.cleanup().await;
}

/// A random life of one subscription, as events (not necessarily a valid one: the read model
/// applies whatever it is told).
fn life(rng: &mut impl Rng, subscription_id: Uuid, user_id: Uuid) -> Vec<E> {
    let mut events = Vec::new();
    let mut minute = 0;
    let mut next = |rng: &mut rand::rngs::StdRng| {
        minute += rng.random_range(1..100);
        at(minute) + Duration::nanoseconds(rng.random_range(0..1_000_000_000))
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(rng.random());
    let started = |at| E::SubscriptionStarted {
        subscription_id,
        user_id,
        site: "vixen".into(),
        sites: vec!["vixen".into(), "tushy".into()],
        kind: MembershipKind::Trial,
        is_free_limited_trial: true,
        biller: "EPOCH".into(),
        transaction_id: "T-I".into(),
        active_since: at,
        nats_code: Some("N".into()),
    };
    // Mostly started first; sometimes started late or twice, or never.
    let start_at = *[0usize, 0, 0, 1, 3, 99].choose(&mut rng).unwrap();
    for i in 0..rng.random_range(0..8) {
        let t = next(&mut rng);
        if i == start_at || (i == 4 && start_at == 3) {
            events.push(started(t));
        }
        let tx = format!("T-{i}");
        events.push(match rng.random_range(0..8) {
            0 => E::SubscriptionRenewed { subscription_id, user_id, transaction_id: tx, renewed_at: t },
            1 => E::SubscriptionUpgraded {
                subscription_id,
                user_id,
                from: MembershipKind::Trial,
                to: MembershipKind::Member,
                transaction_id: tx,
                upgraded_at: t,
            },
            2 => E::SubscriptionCancelled { subscription_id, user_id, transaction_id: tx, cancelled_at: t },
            3 => E::SubscriptionReactivated {
                subscription_id,
                user_id,
                transaction_id: tx,
                retention_offer_name: None,
                offered_gems: 0,
                reactivated_at: t,
            },
            4 => E::SubscriptionExpired { subscription_id, user_id, expired_at: t },
            5 => E::SubscriptionChargedBack { subscription_id, user_id, transaction_id: tx, charged_back_at: t },
            6 => E::SubscriptionRefunded { subscription_id, user_id, transaction_id: tx, refunded_at: t },
            _ => E::PayPerVideoCreditsPurchased {
                subscription_id,
                user_id,
                transaction_id: tx,
                credits: 3,
                purchased_at: t,
            },
        });
    }
    events
}

#[tokio::test]
async fn the_read_model_of_a_whole_batch_in_one_statement_equals_event_by_event() {
    let env = TestEnv::new().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    for round in 0..20 {
        let lives: Vec<Vec<E>> =
            (0..12).map(|n| life(&mut rng, Uuid::from_u128(round * 100 + n), Uuid::from_u128(n + 1))).collect();
        // Some rows are there before: their start applied already.
        let mut tx = env.pool.begin().await.unwrap();
        for events in &lives {
            if rng.random_bool(0.3) {
                if let Some(first) = events.first() {
                    projections::apply_subscription_event(&mut tx, first).await.unwrap();
                }
            }
        }
        sqlx::query("create temporary table before on commit drop as select * from member_subscription")
            .execute(&mut *tx)
            .await
            .unwrap();
        // One by one, each its own statement, interleaved across subscriptions.
        let mut interleaved: Vec<&E> = Vec::new();
        let mut cursors = vec![0; lives.len()];
        while let Some(n) =
            (0..lives.len()).filter(|n| cursors[*n] < lives[*n].len()).collect::<Vec<_>>().choose(&mut rng)
        {
            interleaved.push(&lives[*n][cursors[*n]]);
            cursors[*n] += 1;
        }
        for event in &interleaved {
            projections::apply_subscription_event(&mut tx, event).await.unwrap();
        }
        let one_by_one: Value = sqlx::query_scalar(
            "select coalesce(jsonb_agg(to_jsonb(m) order by subscription_id), '[]') from member_subscription m",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        // Back to before, then all of them in one statement.
        sqlx::query("delete from member_subscription").execute(&mut *tx).await.unwrap();
        sqlx::query("insert into member_subscription select * from before").execute(&mut *tx).await.unwrap();
        let mut changes = MemberChanges::default();
        for event in &interleaved {
            changes.add(event);
        }
        changes.write(&mut tx).await.unwrap();
        let together: Value = sqlx::query_scalar(
            "select coalesce(jsonb_agg(to_jsonb(m) order by subscription_id), '[]') from member_subscription m",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        assert_eq!(together, one_by_one, "round {round}: {lives:?}");
        tx.rollback().await.unwrap();
    }
    env.cleanup().await;
}
