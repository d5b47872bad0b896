//! The per-stream batcher against the real Postgres: one transaction per batch, one answer per
//! command, the order kept, and a store failure confined to the command that caused it.

mod support;

use std::sync::{Arc, Mutex};

use futures::future::{join_all, BoxFuture};
use proto_events::Envelope;
use runtime::batch::{Answers, Batch, Batcher};
use runtime::{EventStore, Pending, StoreError};
use sqlx::PgConnection;
use support::{probe::ProbeEvent, TestEnv};

/// Most a tally may reach: a command that would pass it is refused.
const CAP: u64 = 10;

#[derive(Clone, Debug)]
enum Cmd {
    Add(u64),
    /// Fails its transaction with a database error that no retry gets past.
    Poison,
}

#[derive(Debug, PartialEq)]
struct Added {
    total: u64,
    events: Vec<Envelope>,
}

#[derive(Debug, PartialEq)]
struct OverCap;

/// A tally per stream, kept as a snapshot row that each batch locks, reads and writes back.
struct Tallies {
    store: EventStore,
    /// The size of each transaction's batch, in order.
    sizes: Arc<Mutex<Vec<usize>>>,
}

impl Batch for Tallies {
    type Key = String;
    type Command = Cmd;
    type Outcome = Added;
    type Refusal = OverCap;

    const SIZE_METRIC: &'static str = "paysite_test_batch_size";

    fn run_in<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        key: &'a String,
        commands: &'a [Cmd],
    ) -> BoxFuture<'a, Result<Answers<Self>, StoreError>> {
        Box::pin(async move {
            self.sizes.lock().unwrap().push(commands.len());
            let snapshot: Option<(i64, i64)> =
                sqlx::query_as("select total, version from tally where stream_id = $1 for update")
                    .bind(key)
                    .fetch_optional(&mut *conn)
                    .await?;
            let (mut total, version) = snapshot.map(|(t, v)| (t as u64, v)).unwrap_or((0, 0));
            let mut decided = Vec::new();
            for command in commands {
                match command {
                    Cmd::Poison => {
                        sqlx::query("select 1 / 0").execute(&mut *conn).await?;
                    }
                    Cmd::Add(n) if total + n > CAP => decided.push(Err(OverCap)),
                    Cmd::Add(n) => {
                        total += n;
                        decided.push(Ok((ProbeEvent::Pinged { n: *n }, total)));
                    }
                }
            }
            let meta = TestEnv::meta();
            let pending: Vec<Pending<'_, ProbeEvent>> = decided
                .iter()
                .filter_map(|d| d.as_ref().ok())
                .map(|(event, _)| Pending { event, meta: &meta, trace_context: None })
                .collect();
            let mut written = self.store.append_each(conn, key, version, &pending).await?.into_iter();
            sqlx::query(
                "insert into tally (stream_id, total, version) values ($1, $2, $3)
                 on conflict (stream_id) do update set total = excluded.total, version = excluded.version",
            )
            .bind(key)
            .bind(total as i64)
            .bind(version + pending.len() as i64)
            .execute(&mut *conn)
            .await?;
            Ok(decided
                .into_iter()
                .map(|d| d.map(|(_, total)| Added { total, events: written.by_ref().take(1).collect() }))
                .collect())
        })
    }

    fn wrote_events(outcome: &Added) -> bool {
        !outcome.events.is_empty()
    }
}

async fn tallies(env: &TestEnv, max_batch: usize) -> (Batcher<Tallies>, Arc<Mutex<Vec<usize>>>) {
    sqlx::query("create table tally (stream_id text primary key, total bigint not null, version bigint not null)")
        .execute(&env.pool)
        .await
        .unwrap();
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let batch = Tallies { store: env.store.clone(), sizes: sizes.clone() };
    (Batcher::with_max_batch(env.store.clone(), batch, max_batch), sizes)
}

async fn pings(env: &TestEnv, stream: &str) -> Vec<u64> {
    let events = env.store.load(stream).await.unwrap();
    events
        .iter()
        .map(|e| match proto_events::decode::<ProbeEvent>(e).unwrap() {
            ProbeEvent::Pinged { n } => n,
        })
        .collect()
}

// One thread: the commands below are all queued before the batch's task first runs.
#[tokio::test]
async fn commands_waiting_together_are_decided_in_order_in_one_transaction_each_answered_alone() {
    let env = TestEnv::new().await;
    let (batcher, sizes) = tallies(&env, 64).await;
    let key = "tally-1".to_owned();
    let answers = join_all([5, 4, 3, 1].map(|n| batcher.submit(key.clone(), Cmd::Add(n)))).await;
    let answers: Vec<Result<u64, OverCap>> =
        answers.into_iter().map(|a| a.expect("no store failure").map(|added| added.total)).collect();
    // Each decided on what its predecessors left: 3 would pass the cap after 5 and 4.
    assert_eq!(answers, vec![Ok(5), Ok(9), Err(OverCap), Ok(10)]);
    assert_eq!(*sizes.lock().unwrap(), vec![4], "one transaction for the four");
    assert_eq!(pings(&env, &key).await, vec![5, 4, 1]);
    env.cleanup().await;
}

#[tokio::test]
async fn a_store_failure_fails_the_batch_then_each_runs_alone_and_only_its_cause_fails() {
    let env = TestEnv::new().await;
    let (batcher, sizes) = tallies(&env, 64).await;
    let key = "tally-2".to_owned();
    let answers = join_all([Cmd::Add(1), Cmd::Poison, Cmd::Add(2)].map(|c| batcher.submit(key.clone(), c))).await;
    assert_eq!(answers[0].as_ref().expect("the first lands alone").as_ref().map(|a| a.total), Ok(1));
    let failure = answers[1].as_ref().expect_err("the poison fails");
    assert!(!failure.is_retryable(), "{failure}");
    assert_eq!(answers[2].as_ref().expect("the third lands alone").as_ref().map(|a| a.total), Ok(3));
    assert_eq!(*sizes.lock().unwrap(), vec![3, 1, 1, 1], "the batch, then each alone");
    assert_eq!(pings(&env, &key).await, vec![1, 2]);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_on_one_stream_is_batched_at_most_n_at_a_time_and_loses_nothing() {
    let env = TestEnv::new().await;
    let (batcher, sizes) = tallies(&env, 8).await;
    let mut clients = tokio::task::JoinSet::new();
    for n in 0..120u64 {
        let batcher = batcher.clone();
        // Three streams; on each, the cap lets ten ones through.
        clients.spawn(async move { batcher.submit(format!("burst-{}", n % 3), Cmd::Add(1)).await });
    }
    let mut accepted = 0;
    while let Some(answer) = clients.join_next().await {
        if answer.unwrap().expect("no store failure").is_ok() {
            accepted += 1;
        }
    }
    assert_eq!(accepted, 30, "ten per stream");
    let sizes = sizes.lock().unwrap().clone();
    assert_eq!(sizes.iter().sum::<usize>(), 120, "every command in exactly one transaction");
    assert!(sizes.iter().all(|&n| (1..=8).contains(&n)), "{sizes:?}");
    for stream in ["burst-0", "burst-1", "burst-2"] {
        assert_eq!(pings(&env, stream).await, vec![1; 10], "{stream}");
    }
    let totals: Vec<i64> =
        sqlx::query_scalar("select total from tally order by stream_id").fetch_all(&env.pool).await.unwrap();
    assert_eq!(totals, vec![10, 10, 10]);
    env.cleanup().await;
}
