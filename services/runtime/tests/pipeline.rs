//! Outbox relay → RabbitMQ → consumer, against the real servers.

mod support;

use std::{sync::Arc, time::Duration};

use runtime::{
    dlq,
    projection::{self, ProjectionHandler, Source},
};
use support::{probe, TestEnv};
use tokio_util::sync::CancellationToken;

const WAIT: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_that_commits_after_a_later_one_is_still_published() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});

    // The first transaction takes the earlier outbox position but stays open...
    let mut early = env.pool.begin().await.unwrap();
    env.store.append(&mut early, "early", 0, &[probe::ProbeEvent::Pinged { n: 1 }], &TestEnv::meta()).await.unwrap();
    // ...while a later one commits and is published.
    let late = env.ping("late", 1).await;
    env.wait_for("select count(*) from probe_effect where stream_id = 'late'", 1, WAIT).await;
    assert_eq!(env.scalar("select count(*) from probe_effect where stream_id = 'early'").await, 0);
    early.commit().await.unwrap();
    env.store.wake_relay();
    env.wait_for("select count(*) from probe_effect where stream_id = 'early'", 1, WAIT).await;

    let (early_pos, late_pos): (i64, i64) = sqlx::query_as(
        "select (select global_position from event where stream_id = 'early'), \
                (select global_position from event where stream_id = 'late')",
    )
    .fetch_one(&env.pool)
    .await
    .unwrap();
    assert!(early_pos < late_pos, "the early event really took the earlier position");
    let published_late = env.scalar(&format!("select count(*) from inbox where event_id = '{}'", late.event_id)).await;
    assert_eq!(published_late, 1);
    assert_eq!(env.scalar("select count(*) from outbox").await, 0, "nothing left unpublished");
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_poison_event_is_dead_lettered_without_blocking_the_rest_and_replays_once_fixed() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    for n in 1..=20 {
        env.ping("healthy-a", n).await;
        env.ping("healthy-b", n).await;
    }
    let poison = env.ping("poisoned", 1).await;
    sqlx::query("insert into probe_poison (event_id) values ($1)")
        .bind(poison.event_id)
        .execute(&env.pool)
        .await
        .unwrap();
    for n in 21..=40 {
        env.ping("healthy-a", n).await;
    }
    // A later event of the poisoned stream must not run ahead of it.
    let behind = env.ping("poisoned", 2).await;

    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |s| {
        s.max_attempts = 3;
        s.retry_base = Duration::from_millis(10);
    });
    env.wait_for("select count(*) from probe_effect", 60, WAIT).await;
    let letters = wait_for_dead_letters(&queue, 2).await;
    assert_eq!(letters.len(), 2);
    assert_eq!(letters[0].event_id, Some(poison.event_id));
    assert_eq!(letters[0].attempts, Some(3));
    assert!(letters[0].error.as_deref().unwrap_or("").contains("is poison"), "{:?}", letters[0].error);
    assert_eq!(letters[1].event_id, Some(behind.event_id));
    assert!(letters[1].error.as_deref().unwrap_or("").starts_with("held:"), "{:?}", letters[1].error);
    assert_eq!(env.scalar("select count(*) from probe_effect where stream_id = 'poisoned'").await, 0);
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "healthy streams stayed in order");
    // Listing leaves the dead letters where they are.
    assert_eq!(dlq::list(&support::amqp_url(), &queue).await.unwrap().len(), 2);

    // Fixed: the handler no longer refuses it. Replay puts both back, applied once, in order.
    sqlx::query("delete from probe_poison").execute(&env.pool).await.unwrap();
    let replayed = dlq::replay(&support::amqp_url(), &queue, None).await.unwrap();
    assert_eq!(replayed.len(), 2);
    env.wait_for("select count(*) from probe_effect where stream_id = 'poisoned'", 2, WAIT).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(env.scalar("select count(*) from probe_effect").await, 62);
    assert_eq!(env.scalar("select count(distinct event_id) from probe_effect").await, 62);
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "the poisoned stream applied in order");
    assert_eq!(env.scalar("select count(*) from held_event").await, 0, "nothing held any more");
    assert!(dlq::list(&support::amqp_url(), &queue).await.unwrap().is_empty());
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    env.cleanup().await;
}

async fn wait_for_dead_letters(queue: &str, n: usize) -> Vec<dlq::DeadLetter> {
    let start = std::time::Instant::now();
    loop {
        let letters = dlq::list(&support::amqp_url(), queue).await.unwrap();
        if letters.len() >= n {
            return letters;
        }
        assert!(start.elapsed() < WAIT, "no dead letter after {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn snapshot(env: &TestEnv) -> Vec<(String, i64, i64)> {
    sqlx::query_as("select stream_id, events, last_version from probe_count order by stream_id")
        .fetch_all(&env.pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rebuilt_read_models_equal_the_live_ones() {
    // Writer: its own-event projection is kept in the append's transaction.
    let writer = TestEnv::new().await;
    // Reader: another service, its projection fed by a consumer.
    let mut reader = TestEnv::new().await;
    reader.exchange = writer.exchange.clone();
    let queue = reader.queue("counts").await;
    let own = probe::CountProjection { source: Source::OwnEvents };
    let fed = Arc::new(probe::CountProjection { source: Source::Inbox(queue.clone()) });

    let cancel = CancellationToken::new();
    let relay = writer.relay_task(&cancel);
    let consumer = reader.consumer_task(&queue, Arc::new(ProjectionHandler(fed.clone())), &cancel, |_| {});
    for n in 1..=30u64 {
        for stream in ["s-1", "s-2", "s-3"].iter().take(1 + (n % 3) as usize) {
            let mut tx = writer.pool.begin().await.unwrap();
            let version = writer.store.version(&mut tx, stream).await.unwrap();
            let written = writer
                .store
                .append(&mut tx, stream, version, &[probe::ProbeEvent::Pinged { n }], &TestEnv::meta())
                .await
                .unwrap();
            for e in &written {
                runtime::projection::Projection::apply(&own, &mut tx, e).await.unwrap();
            }
            tx.commit().await.unwrap();
            writer.store.wake_relay();
        }
    }
    let total = writer.scalar("select count(*) from event").await;
    reader.wait_for("select count(*) from inbox", total, WAIT).await;

    let live_own = snapshot(&writer).await;
    let live_fed = snapshot(&reader).await;
    assert_eq!(live_own, live_fed, "both read models saw the same events");
    assert_eq!(projection::rebuild(&writer.pool, &own).await.unwrap(), total as u64);
    assert_eq!(projection::rebuild(&reader.pool, fed.as_ref()).await.unwrap(), total as u64);
    assert_eq!(snapshot(&writer).await, live_own, "own-event rebuild equals live");
    assert_eq!(snapshot(&reader).await, live_fed, "inbox rebuild equals live");
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    writer.cleanup().await;
    reader.cleanup().await;
}

/// Appends one ping to `stream` with the own-event projection applied in the same transaction.
async fn append_counted(env: &TestEnv, own: &probe::CountProjection, stream: &str, n: u64) {
    let mut tx = env.pool.begin().await.unwrap();
    let version = env.store.version(&mut tx, stream).await.unwrap();
    let written =
        env.store.append(&mut tx, stream, version, &[probe::ProbeEvent::Pinged { n }], &TestEnv::meta()).await.unwrap();
    for e in &written {
        runtime::projection::Projection::apply(own, &mut tx, e).await.unwrap();
    }
    tx.commit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rebuild_swaps_in_while_writes_go_on_and_misses_nothing_committed_meanwhile() {
    let env = TestEnv::new().await;
    let own = probe::CountProjection { source: Source::OwnEvents };
    for n in 1..=1500u64 {
        append_counted(&env, &own, &format!("s-{}", n % 40), n).await;
    }
    // A transaction in flight when the rebuild takes its snapshot: its event has an earlier
    // position than those replayed, and commits while the replay runs.
    let mut early = env.pool.begin().await.unwrap();
    let written = env
        .store
        .append(&mut early, "early", 0, &[probe::ProbeEvent::Pinged { n: 0 }], &TestEnv::meta())
        .await
        .unwrap();
    runtime::projection::Projection::apply(&own, &mut early, &written[0]).await.unwrap();
    let writing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let during = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let writer = {
        let (env_pool, store) = (env.pool.clone(), env.store.clone());
        let (writing, during) = (writing.clone(), during.clone());
        tokio::spawn(async move {
            let own = probe::CountProjection { source: Source::OwnEvents };
            let mut n = 10_000u64;
            while writing.load(std::sync::atomic::Ordering::SeqCst) {
                n += 1;
                let stream = format!("s-{}", n % 40);
                let mut tx = env_pool.begin().await.unwrap();
                let version = store.version(&mut tx, &stream).await.unwrap();
                let written = store
                    .append(&mut tx, &stream, version, &[probe::ProbeEvent::Pinged { n }], &TestEnv::meta())
                    .await
                    .unwrap();
                runtime::projection::Projection::apply(&own, &mut tx, &written[0]).await.unwrap();
                tx.commit().await.unwrap();
                during.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        })
    };
    let seen = std::sync::Mutex::new(Vec::new());
    let report = |done: u64, total: u64| seen.lock().unwrap().push((done, total));
    let (replayed, read) = tokio::join!(projection::rebuild_with_progress(&env.pool, &own, &report), async {
        tokio::time::sleep(Duration::from_millis(30)).await;
        early.commit().await.unwrap();
        // Readers are not locked out meanwhile.
        tokio::time::timeout(Duration::from_secs(1), snapshot(&env)).await
    });
    let replayed = replayed.unwrap();
    assert!(read.is_ok(), "a reader waited on the rebuild");
    writing.store(false, std::sync::atomic::Ordering::SeqCst);
    writer.await.unwrap();
    assert!(during.load(std::sync::atomic::Ordering::SeqCst) > 0, "writes went on during the rebuild");
    assert!(replayed >= 1501, "{replayed}");
    let truth: Vec<(String, i64, i64)> = sqlx::query_as(
        "select stream_id, count(*), max(stream_version) from event group by stream_id order by stream_id",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap();
    assert_eq!(snapshot(&env).await, truth, "the swapped-in read model holds every committed event once");
    assert!(snapshot(&env).await.iter().any(|(s, _, _)| s == "early"), "the in-flight transaction's event is there");
    assert!(seen.lock().unwrap().len() >= 2, "progress was reported page by page");
    let leftovers =
        env.scalar(&format!("select count(*) from pg_namespace where nspname = '{}_rebuild'", env.schema)).await;
    assert_eq!(leftovers, 0, "the copies' schema is gone");
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_relay_wakes_on_notify_and_polls_as_a_safety_net() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});

    // A relay that would not poll for a minute publishes at once when woken.
    let mut settings = runtime::relay::RelaySettings::new("probe", &env.schema, &env.settings);
    settings.poll_interval = Duration::from_secs(60);
    let sleepy = tokio::spawn(runtime::relay::run(env.pool.clone(), settings.clone(), cancel.clone()));
    tokio::time::sleep(Duration::from_millis(500)).await; // let it take the lock and listen
    env.ping("woken", 1).await; // commits, then wakes the relay (in this process: directly)
    env.wait_for("select count(*) from probe_effect where stream_id = 'woken'", 1, Duration::from_secs(5)).await;

    // A commit in another process wakes it with a NOTIFY on the schema's channel, as that
    // process's `relay::wake` sends it.
    let mut tx = env.pool.begin().await.unwrap();
    env.store.append(&mut tx, "elsewhere", 0, &[probe::ProbeEvent::Pinged { n: 1 }], &TestEnv::meta()).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::raw_sql(&format!("notify {}", runtime::relay::outbox_channel(&env.schema))).execute(&env.pool).await.unwrap();
    env.wait_for("select count(*) from probe_effect where stream_id = 'elsewhere'", 1, Duration::from_secs(5)).await;

    // An append nobody announces is still found by the poll.
    let quiet = CancellationToken::new();
    cancel.cancel();
    let _ = sleepy.await;
    settings.poll_interval = Duration::from_millis(300);
    let polling = tokio::spawn(runtime::relay::run(env.pool.clone(), settings, quiet.clone()));
    let mut tx = env.pool.begin().await.unwrap();
    env.store.append(&mut tx, "unannounced", 0, &[probe::ProbeEvent::Pinged { n: 1 }], &TestEnv::meta()).await.unwrap();
    tx.commit().await.unwrap();
    let restarted = CancellationToken::new();
    let consumer_again = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &restarted, |_| {});
    env.wait_for("select count(*) from probe_effect where stream_id = 'unannounced'", 1, Duration::from_secs(5)).await;
    quiet.cancel();
    restarted.cancel();
    let _ = tokio::join!(consumer, polling, consumer_again);
    env.cleanup().await;
}

/// The relay measures its outbox every second between batches: the measure reads the outbox and
/// one event by its key, whatever the planner believes of the outbox (here: statistics taken
/// while it held thousands of rows, as after a burst), and answers the truth.
#[tokio::test]
async fn the_backlog_measure_reads_the_outbox_and_one_event_not_the_event_table() {
    let env = TestEnv::new().await;
    let events: Vec<probe::ProbeEvent> = (1..=5_000).map(|n| probe::ProbeEvent::Pinged { n }).collect();
    let mut tx = env.pool.begin().await.unwrap();
    env.store.append(&mut tx, "burst", 0, &events, &TestEnv::meta()).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::query("analyze outbox").execute(&env.pool).await.unwrap();
    sqlx::query("analyze event").execute(&env.pool).await.unwrap();
    // Published, all but the last three (as a relay deletes them); the statistics stay stale.
    sqlx::query("delete from outbox where id < (select max(id) - 2 from outbox)").execute(&env.pool).await.unwrap();
    sqlx::query(
        "update event set recorded_at = now() - interval '1 hour'
         where event_id = (select event_id from outbox order by id limit 1)",
    )
    .execute(&env.pool)
    .await
    .unwrap();

    let (rows, oldest) = runtime::relay::backlog(&env.pool).await.unwrap();
    assert_eq!(rows, 3);
    assert!((3_599.0..3_700.0).contains(&oldest), "the first waiting event's age: {oldest} s");

    let plan: Vec<String> =
        sqlx::query_scalar(&format!("explain {}", runtime::relay::BACKLOG)).fetch_all(&env.pool).await.unwrap();
    let plan = plan.join("\n");
    assert!(!plan.contains("Seq Scan on event") && !plan.contains("Hash"), "the event table is not scanned:\n{plan}");
    assert!(plan.contains("Index Scan using event_event_id_key on event"), "one event read by its key:\n{plan}");

    sqlx::query("delete from outbox").execute(&env.pool).await.unwrap();
    assert_eq!(runtime::relay::backlog(&env.pool).await.unwrap(), (0, 0.0), "an empty outbox waits for nothing");
    env.cleanup().await;
}
