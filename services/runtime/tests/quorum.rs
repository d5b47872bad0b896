//! Consumer queues on a real cluster: quorum queues with a single active consumer keep each
//! stream's order across replicas and a hand-over; a message that kills its consumer ends in
//! the dead-letter queue; and a broker outage of 30 s under load leaves every service ready,
//! every write accepted, and every event delivered afterwards.

mod support;

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use async_trait::async_trait;
use lapin::{options::QueueDeclareOptions, types::FieldTable};
use proto_events::Envelope;
use runtime::{broker, dlq, health::Readiness};
use sqlx::PgConnection;
use support::{probe, TestEnv};
use tokio::{net::TcpListener, sync::Notify};
use tokio_util::sync::CancellationToken;

const WAIT: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_on_a_quorum_queue_apply_each_stream_in_order_across_a_hand_over() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    // It is a quorum queue: declaring it as a classic one is refused.
    let connection = broker::connect(&support::amqp_url(), "quorum-test").await.unwrap();
    let channel = connection.create_channel().await.unwrap();
    let classic = channel
        .queue_declare(
            queue.as_str().into(),
            QueueDeclareOptions { durable: true, ..Default::default() },
            FieldTable::default(),
        )
        .await;
    let refused = format!("{:?}", classic.expect_err("a classic declaration of a quorum queue is refused"));
    assert!(refused.contains("PRECONDITION_FAILED") || refused.contains("x-queue-type"), "{refused}");
    let _ = connection.close(200, "ok".into()).await;

    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    // Two replicas: one active consumer, one standing by.
    let first = CancellationToken::new();
    let a = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &first, |s| s.batch_size = 16);
    let b = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |s| s.batch_size = 16);
    let streams = 20usize;
    let per_stream = 50u64;
    let total = streams as i64 * per_stream as i64;
    let ((), ()) = tokio::join!(env.produce(streams, per_stream, 4), async {
        // Mid-stream, the active replica stops (a rolling update): the standby takes over.
        env.wait_for("select count(*) from probe_effect", total / 3, WAIT).await;
        first.cancel();
    });
    let _ = a.await;
    env.wait_for("select count(*) from probe_effect", total, WAIT).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(env.scalar("select count(distinct event_id) from probe_effect").await, total, "none lost");
    assert_eq!(env.scalar("select count(*) from probe_effect").await, total, "none applied twice");
    let violations: Vec<(String, i64, i64)> =
        sqlx::query_as("select stream_id, expected, got from probe_violation order by stream_id, expected")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    if let Some((first, _, _)) = violations.first() {
        // What a failure needs to be read: the first disordered stream's arrival order.
        let arrivals: Vec<(i64, String, i64)> = sqlx::query_as(
            "select seq, consumer, (envelope->>'stream_version')::bigint from inbox
             where envelope->>'stream_id' = $1 order by seq",
        )
        .bind(first)
        .fetch_all(&env.pool)
        .await
        .unwrap();
        panic!(
            "streams applied out of order: {violations:?}; {first} arrived as (seq, consumer, version) {arrivals:?}"
        );
    }
    cancel.cancel();
    let _ = tokio::join!(relay, b);
    env.cleanup().await;
}

/// The probe's handler, except that an event listed in `probe_poison` never returns: the
/// consumer is stuck in it until the test kills it, as a handler that crashes the process.
struct Crashing {
    entered: Arc<Notify>,
}

#[async_trait]
impl runtime::consumer::Handler for Crashing {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        let poisoned: bool = sqlx::query_scalar("select exists (select 1 from probe_poison where event_id = $1)")
            .bind(event.event_id)
            .fetch_one(&mut *tx)
            .await?;
        if poisoned {
            self.entered.notify_one();
            std::future::pending::<()>().await;
        }
        probe::ProbeHandler.handle(tx, event).await
    }
}

/// 30 healthy events on two streams around two of a third, "deadly", whose first is poison;
/// relayed. Returns the poison and the event behind it.
async fn with_a_poison(env: &TestEnv, cancel: &CancellationToken) -> (Envelope, Envelope, tokio::task::JoinHandle<()>) {
    for n in 1..=10 {
        env.ping("healthy-a", n).await;
    }
    let poison = env.ping("deadly", 1).await;
    sqlx::query("insert into probe_poison (event_id) values ($1)")
        .bind(poison.event_id)
        .execute(&env.pool)
        .await
        .unwrap();
    let behind = env.ping("deadly", 2).await;
    for n in 11..=20 {
        env.ping("healthy-a", n).await;
    }
    for n in 1..=10 {
        env.ping("healthy-b", n).await;
    }
    let relay = env.relay_task(cancel);
    env.wait_for("select count(*) from event where event_id not in (select event_id from outbox)", 32, WAIT).await;
    (poison, behind, relay)
}

/// Starts consumers of `queue` one after another, each killed like a crashed process once it
/// is inside the poison, until the poison is dead-lettered or `most` consumers crashed.
/// Returns how many crashed.
async fn crash_in_the_poison(env: &TestEnv, queue: &str, poison: &Envelope, max_attempts: u32, most: u32) -> u32 {
    let entered = Arc::new(Notify::new());
    let mut crashes = 0;
    let start = Instant::now();
    while crashes < most {
        assert!(start.elapsed() < WAIT, "the poison was never dead-lettered ({crashes} crashes)");
        let handler = Arc::new(Crashing { entered: entered.clone() });
        let never = CancellationToken::new();
        let consumer = env.consumer_task(queue, handler, &never, |s| s.max_attempts = max_attempts);
        // Killed while in the deadly handler: its connection ends, nothing it held is acked.
        let killed = tokio::select! {
            _ = entered.notified() => {
                consumer.abort();
                let _ = consumer.await;
                // As a crashed process's: the broker sees the connection end, nothing acked.
                close_connections_named(queue);
                true
            }
            _ = wait_until_dead_lettered(queue, poison.event_id) => { never.cancel(); let _ = consumer.await; false }
            _ = tokio::time::sleep(WAIT) => panic!("neither a crash nor a dead letter within {WAIT:?}"),
        };
        if !killed {
            break;
        }
        crashes += 1;
        assert!(crashes <= max_attempts + 1, "still redelivered after {crashes} crashes");
    }
    crashes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_message_that_kills_its_consumer_ends_in_the_dead_letter_queue_with_its_stream_held_behind_it() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let (poison, behind, relay) = with_a_poison(&env, &cancel).await;

    const MAX_ATTEMPTS: u32 = 3;
    let crashes = crash_in_the_poison(&env, &queue, &poison, MAX_ATTEMPTS, u32::MAX).await;
    assert_eq!(crashes, MAX_ATTEMPTS, "dead-lettered once it had killed its consumer {MAX_ATTEMPTS} times");
    // The rest flowed, in order.
    env.wait_for("select count(*) from probe_effect where stream_id like 'healthy-%'", 30, WAIT).await;
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0);
    // The event behind the poison came back ahead of it after each crash, and was not applied
    // before it: it is held behind it in the dead-letter queue.
    assert_eq!(env.scalar("select count(*) from probe_effect where stream_id = 'deadly'").await, 0);
    let letters = dlq::list(&support::amqp_url(), &queue).await.unwrap();
    let ids: Vec<_> = letters.iter().filter_map(|l| l.event_id).collect();
    assert_eq!(ids, vec![poison.event_id, behind.event_id], "{letters:?}");
    assert!(letters[0].error.as_deref().unwrap_or("").contains("crashes its consumer"), "{:?}", letters[0].error);
    assert_eq!(letters[0].attempts, Some(MAX_ATTEMPTS));
    assert!(letters[1].error.as_deref().unwrap_or("").contains("waits behind it"), "{:?}", letters[1].error);

    // Fixed and replayed: the stream is applied in its order.
    sqlx::query("delete from probe_poison").execute(&env.pool).await.unwrap();
    assert_eq!(dlq::replay(&support::amqp_url(), &queue, None).await.unwrap().len(), 2);
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});
    env.wait_for("select count(*) from probe_effect where stream_id = 'deadly'", 2, WAIT).await;
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "the deadly stream in order");
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_that_crashed_its_consumer_is_still_applied_before_its_streams_next_one() {
    runtime::telemetry::install_metrics();
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let cancel = CancellationToken::new();
    let (poison, behind, relay) = with_a_poison(&env, &cancel).await;
    // Twice: in a batch, then alone (the careful phase after the first crash), which sends it
    // back behind the event after it.
    assert_eq!(crash_in_the_poison(&env, &queue, &poison, 5, 2).await, 2);
    // Whatever killed it is gone (a node's OOM, a fixed bug): the next consumer applies it.
    sqlx::query("delete from probe_poison").execute(&env.pool).await.unwrap();
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |s| s.max_attempts = 5);
    env.wait_for("select count(*) from probe_effect", 32, WAIT).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(env.scalar("select count(*) from probe_effect").await, 32, "none lost, none doubled");
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "every stream in order");
    let order: Vec<uuid::Uuid> = sqlx::query_scalar(
        "select event_id from inbox where consumer = $1 and envelope->>'stream_id' = 'deadly' order by seq",
    )
    .bind(&queue)
    .fetch_all(&env.pool)
    .await
    .unwrap();
    assert_eq!(order, vec![poison.event_id, behind.event_id]);
    // It did come back ahead (so the order above was kept, not luck), and waits no more.
    assert!(
        metric("paysite_consumer_parked_total", "queue", &queue).unwrap_or(0.0) >= 1.0,
        "the event behind was parked"
    );
    assert_eq!(env.scalar("select count(*) from parked_event").await, 0);
    assert!(dlq::list(&support::amqp_url(), &queue).await.unwrap().is_empty());
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    env.cleanup().await;
}

/// Closes, from the broker's side, every connection named `name` (a consumer names its
/// connection after its queue), as when its process dies.
fn close_connections_named(name: &str) {
    for pid in connections_named(name) {
        let _ = std::process::Command::new("rabbitmqctl").args(["close_connection", &pid, "test: crash"]).output();
    }
}

/// The broker's pids of the connections named `name` (client_properties holds
/// `{"connection_name","<name>"}`).
fn connections_named(name: &str) -> Vec<String> {
    let out = std::process::Command::new("rabbitmqctl")
        .args(["list_connections", "-q", "--no-table-headers", "pid", "client_properties"])
        .output()
        .expect("rabbitmqctl runs (as root)");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|line| line.contains(&format!("{{\"connection_name\",\"{name}\"}}")))
        .map(|line| line.split('\t').next().unwrap_or_default().trim().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_idle_relay_whose_connection_the_broker_closed_connects_again_by_itself() {
    runtime::telemetry::install_metrics();
    runtime::testing::logs_to_test_output();
    let env = TestEnv::new().await;
    let cancel = CancellationToken::new();
    // A service name of this test's own, so that the relay's connection is its alone.
    let service = format!("idle-{}", env.schema);
    let relay = tokio::spawn(runtime::relay::run(
        env.pool.clone(),
        runtime::relay::RelaySettings::new(&service, &env.schema, &env.settings),
        cancel.clone(),
    ));
    let sessions = || metric("paysite_relay_sessions_total", "service", &service).unwrap_or(0.0);
    let name = format!("{service}-relay");
    let started = Instant::now();
    while sessions() < 1.0 || connections_named(&name).is_empty() {
        assert!(started.elapsed() < WAIT, "the relay never connected");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(sessions(), 1.0);
    // The outbox is empty: the relay waits for a wake-up, touching no broker method.
    close_connections_named(&name);
    let closed = Instant::now();
    while sessions() < 2.0 {
        // Without the watch on its connection the relay would wait here for good; with it, it
        // reconnects within a second, but rabbitmqctl can be slow on a loaded machine.
        assert!(closed.elapsed() < WAIT, "the idle relay did not notice its closed connection");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(metric("paysite_broker_connected", "service", &service), Some(1.0));
    assert!(!relay.is_finished(), "the relay runs on");
    cancel.cancel();
    relay.await.expect("the relay ends when cancelled");
    env.cleanup().await;
}

async fn wait_until_dead_lettered(queue: &str, event: uuid::Uuid) {
    loop {
        let letters = dlq::list(&support::amqp_url(), queue).await.unwrap_or_default();
        if letters.iter().any(|l| l.event_id == Some(event)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A TCP door to the broker that can be shut: while it is shut every connection through it
/// is cut and new ones are refused, which is a broker outage as the services see it, without
/// stopping the broker the rest of the machine uses.
struct BrokerDoor {
    url: String,
    open: Arc<AtomicBool>,
    cut: Arc<Notify>,
}

impl BrokerDoor {
    async fn new() -> BrokerDoor {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (open, cut) = (Arc::new(AtomicBool::new(true)), Arc::new(Notify::new()));
        let (open2, cut2) = (open.clone(), cut.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else { return };
                if !open2.load(Ordering::SeqCst) {
                    continue; // dropped: refused
                }
                let cut = cut2.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = tokio::net::TcpStream::connect("127.0.0.1:5672").await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = cut.notified() => {}
                    }
                });
            }
        });
        let vhost = support::amqp_url().rsplit('/').next().unwrap_or("%2f").to_owned();
        BrokerDoor { url: format!("amqp://guest:guest@127.0.0.1:{port}/{vhost}"), open, cut }
    }

    fn shut(&self) {
        self.open.store(false, Ordering::SeqCst);
        self.cut.notify_waiters();
    }

    fn reopen(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// One write of the load: a ping on one of 25 streams.
async fn load(env: &TestEnv, n: i64) {
    env.ping(&format!("load-{}", n % 25), 0).await;
}

/// A metric's value in this process's recorder, by its name and one label.
fn metric(name: &str, label: &str, value: &str) -> Option<f64> {
    let text = runtime::telemetry::install_metrics().render();
    text.lines()
        .find(|l| l.starts_with(name) && l.contains(&format!("{label}=\"{value}\"")))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_broker_outage_of_30_seconds_under_load_keeps_the_service_ready_and_loses_nothing() {
    runtime::telemetry::install_metrics();
    let mut env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let door = BrokerDoor::new().await;
    env.settings.amqp_url = runtime::Secret::new(door.url.clone());
    let cancel = CancellationToken::new();
    let relay = env.relay_task(&cancel);
    let consumer = env.consumer_task(&queue, Arc::new(probe::ProbeHandler), &cancel, |_| {});
    let readiness = Readiness::new("probe", Some(env.pool.clone()));
    let mut written = 0i64;
    // Load before, during and after the outage: one write every 20 ms, over 25 streams.
    let before = Instant::now();
    while before.elapsed() < Duration::from_secs(3) {
        load(&env, written).await;
        written += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    env.wait_for("select count(*) from probe_effect", written, WAIT).await;

    door.shut();
    let outage = Instant::now();
    let mut checks = 0;
    while outage.elapsed() < Duration::from_secs(30) {
        load(&env, written).await;
        written += 1;
        if written % 50 == 0 {
            assert!(readiness.problems().await.is_empty(), "unready during the outage at {:?}", outage.elapsed());
            checks += 1;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(checks >= 10, "readiness was checked through the outage ({checks} times)");
    // The outage shows as relay lag and a lost broker, not as unreadiness.
    let lag = metric("paysite_relay_oldest_unpublished_seconds", "service", "probe").unwrap_or(0.0);
    assert!(lag >= 20.0, "the relay lag shows the outage: {lag} s");
    assert_eq!(metric("paysite_broker_connected", "service", "probe"), Some(0.0));
    let waiting = env.scalar("select count(*) from outbox").await;
    assert!(waiting > 500, "the outbox took the writes: {waiting}");

    door.reopen();
    while before.elapsed() < Duration::from_secs(40) {
        load(&env, written).await;
        written += 1;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    env.wait_for("select count(*) from probe_effect", written, Duration::from_secs(120)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.scalar("select count(distinct event_id) from probe_effect").await, written, "every event arrived");
    assert_eq!(env.scalar("select count(*) from probe_effect").await, written, "none twice");
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "in stream order");
    assert_eq!(env.scalar("select count(*) from outbox").await, 0);
    assert_eq!(metric("paysite_broker_connected", "service", "probe"), Some(1.0));
    cancel.cancel();
    let _ = tokio::join!(relay, consumer);
    env.cleanup().await;
}
