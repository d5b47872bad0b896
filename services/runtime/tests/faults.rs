//! Fault tests: real processes killed with SIGKILL, and the broker restarted, while
//! 20,000 events flow. Every event must arrive, once in effect, in stream order.

mod support;

use std::{process::Child, sync::Arc, time::Duration};

use rand::Rng;
use support::{kill9, probe, TestEnv};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

const STREAMS: usize = 100;
const PER_STREAM: u64 = 200;
const TOTAL: i64 = STREAMS as i64 * PER_STREAM as i64;
const DRAIN: Duration = Duration::from_secs(240);

/// `running`: the test's in-process relay and consumer tasks, which must not end before it does.
async fn assert_exactly_once_in_order(env: &TestEnv, running: &[&JoinHandle<()>]) {
    env.wait_for_while_running("select count(*) from probe_effect", TOTAL, DRAIN, running).await;
    // Give stray redeliveries a moment to (not) add effects.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.scalar("select count(*) from probe_effect").await, TOTAL, "an effect was doubled");
    assert_eq!(env.scalar("select count(distinct event_id) from probe_effect").await, TOTAL, "an event was lost");
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "a stream was applied out of order");
    assert_eq!(env.scalar("select count(*) from outbox").await, 0);
}

/// Kills one of `children` at random every 150–600 ms, restarting it, until `done`.
async fn chaos(env: &TestEnv, children: &mut [Child], role: &str, queue: &str, done: &CancellationToken) -> u32 {
    let mut kills = 0;
    while !done.is_cancelled() {
        let pause = rand::rng().random_range(150..600);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        let victim = rand::rng().random_range(0..children.len());
        kill9(&mut children[victim]);
        children[victim] = env.spawn(role, queue);
        kills += 1;
    }
    kills
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_relay_repeatedly_loses_and_doubles_nothing() {
    runtime::telemetry::install_metrics();
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});
    // Two relay processes: one active, one standing by to take over.
    let mut relays = vec![env.spawn("relay", &queue), env.spawn("relay", &queue)];

    let done = CancellationToken::new();
    let (kills, ()) = tokio::join!(chaos(&env, &mut relays, "relay", &queue, &done), async {
        env.produce(STREAMS, PER_STREAM, 8).await;
        // Keep killing while the outbox drains.
        let published = "select (select count(*) from event) - (select count(*) from outbox)";
        env.wait_for_while_running(published, TOTAL, DRAIN, &[&consumer]).await;
        done.cancel();
    });
    assert!(kills >= 3, "the relay was killed {kills} times");
    assert_exactly_once_in_order(&env, &[&consumer]).await;
    eprintln!("relay killed {kills} times; {}", duplicates_absorbed());
    relays.iter_mut().for_each(kill9);
    cancel.cancel();
    let _ = consumer.await;
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_consumers_repeatedly_loses_and_doubles_nothing() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    // Two consumer replicas on one queue: the single active consumer and a standby.
    let mut consumers = vec![env.spawn("consume", &queue), env.spawn("consume", &queue)];
    let done = CancellationToken::new();
    let (kills, ()) = tokio::join!(chaos(&env, &mut consumers, "consume", &queue, &done), async {
        env.produce(STREAMS, PER_STREAM, 8).await;
        env.wait_for_while_running("select count(*) from probe_effect", TOTAL, DRAIN, &[&relay]).await;
        done.cancel();
    });
    assert!(kills >= 3, "a consumer was killed {kills} times");
    assert_exactly_once_in_order(&env, &[&relay]).await;
    let redelivered = env.scalar("select count(*) from inbox").await;
    assert_eq!(redelivered, TOTAL, "the inbox holds each event once");
    consumers.iter_mut().for_each(kill9);
    cancel.cancel();
    let _ = relay.await;
    env.cleanup().await;
}

fn duplicates_absorbed() -> String {
    let text = runtime::telemetry::install_metrics().render();
    text.lines().find(|l| l.starts_with("paysite_consumer_duplicates_total")).unwrap_or("none").to_owned()
}

fn rabbitmqctl(args: &[&str]) {
    let status = std::process::Command::new("rabbitmqctl").args(args).status().expect("rabbitmqctl runs (as root)");
    assert!(status.success(), "rabbitmqctl {args:?} failed");
}

/// Stops and starts the shared broker, so it runs alone: `.ci/run` runs it after the rest.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "restarts the machine's RabbitMQ; run alone with --run-ignored only"]
async fn a_broker_restart_mid_stream_loses_nothing() {
    runtime::telemetry::install_metrics();
    runtime::testing::logs_to_test_output();
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});
    let ((), ()) = tokio::join!(env.produce(STREAMS, PER_STREAM, 8), async {
        env.wait_for_while_running("select count(*) from probe_effect", TOTAL / 4, DRAIN, &[&relay, &consumer]).await;
        tokio::task::spawn_blocking(|| {
            rabbitmqctl(&["stop_app"]);
            std::thread::sleep(Duration::from_secs(2));
            rabbitmqctl(&["start_app"]);
            rabbitmqctl(&["await_startup"]);
        })
        .await
        .unwrap();
    });
    assert_exactly_once_in_order(&env, &[&relay, &consumer]).await;
    cancel.cancel();
    let (relay, consumer) = tokio::join!(relay, consumer);
    relay.expect("the relay ends when cancelled");
    consumer.expect("the consumer ends when cancelled");
    env.cleanup().await;
}
