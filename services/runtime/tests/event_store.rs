//! The event store against the real Postgres.

mod support;

use futures::TryStreamExt;
use runtime::StoreError;
use support::{probe::ProbeEvent, TestEnv};

/// Commits `tx` when the append made in it went through; answers the append's error otherwise.
async fn commit_if_appended<T>(
    tx: sqlx::Transaction<'static, sqlx::Postgres>,
    appended: Result<T, StoreError>,
) -> Result<(), StoreError> {
    match appended {
        Ok(_) => tx.commit().await.map_err(StoreError::from),
        Err(e) => Err(e),
    }
}

/// Waits for every writer of a race: how many won, and the errors of those that lost, each
/// asserted to be a clean conflict.
async fn race_outcome(mut writers: tokio::task::JoinSet<Result<(), StoreError>>) -> (usize, Vec<StoreError>) {
    let (mut won, mut conflicts) = (0, Vec::new());
    while let Some(result) = writers.join_next().await {
        match result.unwrap() {
            Ok(()) => won += 1,
            Err(e) => {
                assert!(matches!(e, StoreError::Conflict { .. }), "not a clean conflict: {e}");
                conflicts.push(e);
            }
        }
    }
    (won, conflicts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_100_concurrent_appends_at_one_version_exactly_one_wins() {
    let env = TestEnv::new().await;
    let mut writers = tokio::task::JoinSet::new();
    for n in 0..100u64 {
        let (store, pool) = (env.store.clone(), env.pool.clone());
        writers.spawn(async move {
            let mut tx = pool.begin().await.unwrap();
            let result = store.append(&mut tx, "race-1", 0, &[ProbeEvent::Pinged { n }], &TestEnv::meta()).await;
            commit_if_appended(tx, result).await
        });
    }
    let (won, conflicts) = race_outcome(writers).await;
    for e in &conflicts {
        assert!(e.is_retryable());
    }
    assert_eq!((won, conflicts.len()), (1, 99));
    let (count, max): (i64, Option<i64>) =
        sqlx::query_as("select count(*), max(stream_version) from event where stream_id = 'race-1'")
            .fetch_one(&env.pool)
            .await
            .unwrap();
    assert_eq!((count, max), (1, Some(1)), "exactly one event at version 1, no gap");
    assert_eq!(env.scalar("select count(*) from outbox").await, 1, "one outbox row for the one event");
    env.cleanup().await;
}

#[tokio::test]
async fn an_append_ahead_of_the_stream_is_refused_so_no_gap_can_form() {
    let env = TestEnv::new().await;
    env.ping("gap-1", 1).await;
    let mut tx = env.pool.begin().await.unwrap();
    let err =
        env.store.append(&mut tx, "gap-1", 5, &[ProbeEvent::Pinged { n: 2 }], &TestEnv::meta()).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { expected: 5, actual: 1, .. }), "{err}");
    drop(tx);
    env.cleanup().await;
}

#[tokio::test]
async fn a_stream_loads_in_version_order_and_read_all_keeps_write_order() {
    let env = TestEnv::new().await;
    let mut written = Vec::new();
    for n in 1..=3 {
        written.push(env.ping("a", n).await);
        written.push(env.ping("b", n).await);
    }
    let a = env.store.load("a").await.unwrap();
    assert_eq!(a.iter().map(|e| e.stream_version).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(a[0], written[0], "a loaded event equals the written envelope");
    let all: Vec<_> = env.store.read_all().try_collect().await.unwrap();
    let ids: Vec<_> = all.iter().map(|(_, e)| e.event_id).collect();
    assert_eq!(ids, written.iter().map(|e| e.event_id).collect::<Vec<_>>());
    assert!(all.windows(2).all(|w| w[0].0 < w[1].0), "positions increase");
    env.cleanup().await;
}

#[tokio::test]
async fn events_in_a_rolled_back_transaction_leave_no_trace() {
    let env = TestEnv::new().await;
    let mut tx = env.pool.begin().await.unwrap();
    env.store.append(&mut tx, "gone", 0, &[ProbeEvent::Pinged { n: 1 }], &TestEnv::meta()).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(env.scalar("select count(*) from event").await, 0);
    assert_eq!(env.scalar("select count(*) from outbox").await, 0);
    env.cleanup().await;
}

/// A counter decider: the command says how much to add; the state is the running total.
struct Counter;

impl runtime::Decider for Counter {
    type Event = ProbeEvent;
    type State = u64;
    type Command = u64;
    type Error = std::convert::Infallible;

    fn decide(_: &u64, n: u64) -> Result<Vec<ProbeEvent>, Self::Error> {
        Ok(vec![ProbeEvent::Pinged { n }])
    }

    fn evolve(state: u64, event: &ProbeEvent) -> u64 {
        match event {
            ProbeEvent::Pinged { n } => state + n,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn execute_decides_again_after_losing_a_race_so_every_command_lands() {
    let env = TestEnv::new().await;
    let mut writers = tokio::task::JoinSet::new();
    for _ in 0..20 {
        let store = env.store.clone();
        writers.spawn(async move {
            store.execute::<Counter, _>("counter", &TestEnv::meta(), || 1, |_, _, _| Box::pin(async { Ok(()) })).await
        });
    }
    while let Some(r) = writers.join_next().await {
        r.unwrap().expect("no store failure").expect("no domain error");
    }
    let versions: Vec<i64> =
        sqlx::query_scalar("select stream_version from event where stream_id = 'counter' order by 1")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert_eq!(versions, (1..=20).collect::<Vec<_>>());
    env.cleanup().await;
}

fn pings<'a>(meta: &'a proto_events::EventMeta, events: &'a [ProbeEvent]) -> Vec<runtime::Pending<'a, ProbeEvent>> {
    events.iter().map(|event| runtime::Pending { event, meta, trace_context: None }).collect()
}

#[tokio::test]
async fn several_streams_append_together_each_at_its_version_with_their_outbox_rows() {
    let env = TestEnv::new().await;
    env.ping("old", 1).await;
    let meta = TestEnv::meta();
    let (one, two) = ([ProbeEvent::Pinged { n: 2 }, ProbeEvent::Pinged { n: 3 }], [ProbeEvent::Pinged { n: 9 }]);
    let appends = vec![
        runtime::StreamAppend { stream_id: "old".into(), expected_version: 1, events: pings(&meta, &one) },
        runtime::StreamAppend { stream_id: "empty".into(), expected_version: 0, events: Vec::new() },
        runtime::StreamAppend { stream_id: "new".into(), expected_version: 0, events: pings(&meta, &two) },
    ];
    let mut tx = env.pool.begin().await.unwrap();
    let written = env.store.append_streams(&mut tx, &appends).await.unwrap();
    tx.commit().await.unwrap();
    let versions: Vec<Vec<i64>> = written.iter().map(|w| w.iter().map(|e| e.stream_version).collect()).collect();
    assert_eq!(versions, vec![vec![2, 3], vec![], vec![1]]);
    let old = env.store.load("old").await.unwrap();
    assert_eq!(&old[1..], &written[0][..], "what append_streams returns is what load reads");
    assert_eq!(env.store.load("new").await.unwrap(), written[2]);
    assert_eq!(env.scalar("select count(*) from outbox").await, 4, "one outbox row per event");
    env.cleanup().await;
}

#[tokio::test]
async fn when_one_stream_of_several_moved_on_nothing_is_appended() {
    let env = TestEnv::new().await;
    env.ping("moved", 1).await;
    env.ping("moved", 2).await;
    let meta = TestEnv::meta();
    let events = [ProbeEvent::Pinged { n: 7 }];
    let appends = vec![
        runtime::StreamAppend { stream_id: "fine".into(), expected_version: 0, events: pings(&meta, &events) },
        runtime::StreamAppend { stream_id: "moved".into(), expected_version: 1, events: pings(&meta, &events) },
    ];
    let mut tx = env.pool.begin().await.unwrap();
    let err = env.store.append_streams(&mut tx, &appends).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Conflict { stream_id, expected: 1, actual: 2 } if stream_id == "moved"),
        "{err}"
    );
    assert!(err.is_retryable());
    tx.commit().await.unwrap();
    assert_eq!(env.scalar("select count(*) from event").await, 2, "only the two pings before");
    assert_eq!(env.scalar("select count(*) from outbox").await, 2);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_concurrent_multi_stream_appends_at_one_version_exactly_one_wins() {
    let env = TestEnv::new().await;
    let mut writers = tokio::task::JoinSet::new();
    for n in 0..30u64 {
        let (store, pool) = (env.store.clone(), env.pool.clone());
        writers.spawn(async move {
            let meta = TestEnv::meta();
            let events = [ProbeEvent::Pinged { n }];
            // Each writer adds a stream of its own beside the two shared ones.
            let appends: Vec<_> = ["shared-a".to_owned(), format!("own-{n}"), "shared-b".to_owned()]
                .into_iter()
                .map(|stream_id| runtime::StreamAppend {
                    stream_id,
                    expected_version: 0,
                    events: pings(&meta, &events),
                })
                .collect();
            let mut tx = pool.begin().await.unwrap();
            let result = store.append_streams(&mut tx, &appends).await;
            commit_if_appended(tx, result).await
        });
    }
    let (won, conflicts) = race_outcome(writers).await;
    assert_eq!((won, conflicts.len()), (1, 29));
    assert_eq!(env.scalar("select count(*) from event").await, 3, "the winner's three events, no more");
    assert_eq!(env.scalar("select count(*) from outbox").await, 3);
    env.cleanup().await;
}
