//! The event backbone end to end: append → outbox → relay → RabbitMQ → consumer →
//! projection, beside raw lapin publish-with-confirms and the disk's fsync time.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use async_trait::async_trait;
use futures::future::try_join_all;
use lapin::{
    options::{BasicPublishOptions, ConfirmSelectOptions, QueueBindOptions, QueueDeclareOptions, QueueDeleteOptions},
    types::FieldTable,
    BasicProperties,
};
use proto_events::{Actor, Envelope, EventFamily, EventMeta};
use runtime::{broker, consumer, db, relay, EventStore, Settings};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::percentile_ms;

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
enum BenchEvent {
    Measured { n: u64, note: String },
}

impl EventFamily for BenchEvent {
    const DOMAIN: &'static str = "bench";
    const TYPES: &'static [(&'static str, u32)] = &[("Measured", 1)];
}

struct LagProjection;

#[async_trait]
impl consumer::Handler for LagProjection {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        sqlx::query(
            "insert into bench_effect (event_id, lag_us)
             values ($1, (extract(epoch from clock_timestamp() - $2::timestamptz) * 1000000)::bigint)",
        )
        .bind(event.event_id)
        .bind(event.occurred_at)
        .execute(tx)
        .await?;
        Ok(())
    }
}

struct Bench {
    pool: PgPool,
    store: EventStore,
    settings: Settings,
    schema: String,
    queue: String,
}

pub async fn run(base: &Settings) -> anyhow::Result<()> {
    let suffix = Uuid::new_v4().simple().to_string()[..12].to_owned();
    let schema = format!("bench_{suffix}");
    let exchange = format!("bench.{suffix}");
    let mut settings = base.clone();
    settings.exchange = exchange.clone();
    settings.relay_poll = Duration::from_millis(200);
    db::ensure_database(settings.database_url.expose()).await?;
    let pool = db::connect(settings.database_url.expose(), &schema, 24).await?;
    db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS)]).await?;
    sqlx::query("create table bench_effect (event_id uuid not null, lag_us bigint not null, at timestamptz not null default clock_timestamp())")
        .execute(&pool)
        .await?;
    let queue = format!("{schema}.lag");
    let connection = broker::connect(settings.amqp_url.expose(), "bench").await?;
    let channel = connection.create_channel().await?;
    broker::declare_consumer_queue(&channel, &exchange, &queue, &["bench.#".into()]).await?;
    let bench = Bench { store: EventStore::new(pool.clone(), &schema), pool, settings, schema, queue };

    println!("paysite bench events (2 cores: every figure shares them with PostgreSQL and RabbitMQ)\n");
    let fsync_ms = fsync_floor_ms();
    let (raw, raw_cpu) = raw_publish(&bench.settings).await?;
    let append = single_append(&bench).await?;
    let (append_only, append_cpu) = appends_only(&bench, 20_000).await?;
    println!("  appends alone: {append_only:.0}/s, the machine's cores {:.0} % busy", append_cpu * 100.0);
    let (max_rate, drained, end_to_end_cpu) = end_to_end(&bench, 40_000, 1).await?;
    let (batched_rate, _, _) = end_to_end(&bench, 80_000, 10).await?;
    let (downstream_rate, downstream_cpu) = downstream_only(&bench, 40_000).await?;
    let ceiling = Ceiling::of(cores(), (append_only, append_cpu), (downstream_rate, downstream_cpu));
    let half = (max_rate / 2.0).max(1.0);
    let (lag_p50, lag_p99, achieved) = at_rate(&bench, half, Duration::from_secs(10)).await?;

    println!("| measure | value | beside |");
    println!("|---|---|---|");
    println!(
        "| raw lapin publish with confirms | {raw:.0} msg/s, {:.0} µs of a core each | baseline; the broker's part alone |",
        cpu_us_per_event(cores(), raw, raw_cpu)
    );
    println!(
        "| appends alone, 16 writers, 1 event a transaction | {append_only:.0} events/s | the database's ceiling |"
    );
    println!(
        "| appends alone: the cores' busy share | {:.0} % | what is left for the relay, broker and consumer |",
        append_cpu * 100.0
    );
    println!(
        "| end to end, append → projection | {max_rate:.0} events/s ({drained} events), cores {:.0} % busy | {:.2} × raw publish, {:.2} × appends alone |",
        end_to_end_cpu * 100.0,
        max_rate / raw,
        max_rate / append_only
    );
    println!(
        "| relay → broker → consumer alone, a backlog of 1-event transactions | {downstream_rate:.0} events/s, cores {:.0} % busy | the rest of the pipeline's own cost |",
        downstream_cpu * 100.0
    );
    println!(
        "| CPU per event: append, rest of the pipeline | {:.0} µs, {:.0} µs of a core | {} cores |",
        ceiling.append_us, ceiling.downstream_us, ceiling.cores
    );
    println!(
        "| the cores' ceiling for end to end (estimate) | {:.0} events/s | {:.2} × appends alone: what these cores allow |",
        ceiling.rate(),
        ceiling.rate() / append_only
    );
    println!(
        "| end to end, 10 events a transaction | {batched_rate:.0} events/s | {:.2} × raw publish; target ≥ 5,000 |",
        batched_rate / raw
    );
    println!(
        "| lag at half rate ({achieved:.0} events/s) | p50 {lag_p50:.1} ms, p99 {lag_p99:.1} ms | target p99 ≤ 50 ms |"
    );
    match fsync_ms {
        Some(f) => println!(
            "| single-event append p50 | {:.2} ms (p99 {:.2} ms) | fsync {f:.2} ms → {:+.2} ms |",
            append.0,
            append.1,
            append.0 - f
        ),
        None => println!(
            "| single-event append p50 | {:.2} ms (p99 {:.2} ms) | pg_test_fsync not found |",
            append.0, append.1
        ),
    }

    let missed = missed(max_rate / append_only, lag_p99);
    println!(
        "\ntargets: end to end >= {PIPELINE_TARGET} × appends alone with 1 event a transaction, lag p99 at half rate \
         <= {LAG_P99_TARGET_MS} ms: {}",
        if missed.is_empty() { "met".to_owned() } else { format!("NOT met ({})", missed.join("; ")) }
    );

    let _ = channel.queue_delete(bench.queue.as_str().into(), QueueDeleteOptions::default()).await;
    let _ = channel
        .queue_delete(broker::dead_letter_queue(&bench.queue).as_str().into(), QueueDeleteOptions::default())
        .await;
    let _ = channel.exchange_delete(exchange.as_str().into(), Default::default()).await;
    let _ = connection.close(200, "done".into()).await;
    sqlx::query(&format!("drop schema {} cascade", bench.schema)).execute(&bench.pool).await?;
    anyhow::ensure!(missed.is_empty(), "bench events: targets missed: {}", missed.join("; "));
    Ok(())
}

/// The targets: the whole pipeline carries at least this share of what the
/// database appends alone, one event a transaction, measured in the same run.
pub const PIPELINE_TARGET: f64 = 0.9;
/// Append to projection commit, p99, at half the end-to-end rate.
pub const LAG_P99_TARGET_MS: f64 = 50.0;

/// The targets a run missed.
fn missed(pipeline_ratio: f64, lag_p99_ms: f64) -> Vec<String> {
    let mut missed = Vec::new();
    if pipeline_ratio < PIPELINE_TARGET {
        missed.push(format!("end to end {pipeline_ratio:.2} × appends alone < {PIPELINE_TARGET}"));
    }
    if lag_p99_ms.is_nan() || lag_p99_ms > LAG_P99_TARGET_MS {
        missed.push(format!("lag p99 {lag_p99_ms:.1} ms > {LAG_P99_TARGET_MS} ms"));
    }
    missed
}

fn meta() -> EventMeta {
    EventMeta::new(Actor::System("bench".into())).with_tenant("vixen")
}

fn event(n: u64) -> BenchEvent {
    // About the size of a real subscription event.
    BenchEvent::Measured { n, note: "x".repeat(240) }
}

/// fdatasync time of this disk, from PostgreSQL's own tool: the floor of a commit.
fn fsync_floor_ms() -> Option<f64> {
    let tool = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|d| d.path().join("bin/pg_test_fsync"))
        .find(|p| p.exists())?;
    let out = std::process::Command::new(tool).args(["-s", "1", "-f", "/var/tmp/paysite-fsync.test"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    // "        fdatasync                     1234.567 ops/sec     810 usecs/op"
    let line = text.lines().find(|l| l.trim_start().starts_with("fdatasync"))?;
    let usecs: f64 = line.split_whitespace().rev().nth(1)?.parse().ok()?;
    Some(usecs / 1000.0)
}

/// Publishes with confirms into a queue nobody reads: messages per second, and the cores' busy
/// share meanwhile (the broker's and this client's CPU, nothing else's).
async fn raw_publish(settings: &Settings) -> anyhow::Result<(f64, f64)> {
    const N: usize = 50_000;
    let connection = broker::connect(settings.amqp_url.expose(), "bench-raw").await?;
    let channel = connection.create_channel().await?;
    channel.confirm_select(ConfirmSelectOptions::default()).await?;
    let queue = format!("bench.raw.{}", Uuid::new_v4().simple());
    channel
        .queue_declare(
            queue.as_str().into(),
            QueueDeclareOptions { durable: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    broker::declare_exchange(&channel, &settings.exchange).await?;
    channel
        .queue_bind(
            queue.as_str().into(),
            settings.exchange.as_str().into(),
            "raw.#".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;
    let body = serde_json::to_vec(&serde_json::json!({"payload": "x".repeat(400)}))?;
    let (start, cpu) = (Instant::now(), cpu_ticks());
    for chunk in (0..N).collect::<Vec<_>>().chunks(500) {
        let mut confirms = Vec::with_capacity(chunk.len());
        for _ in chunk {
            confirms.push(
                channel
                    .basic_publish(
                        settings.exchange.as_str().into(),
                        "raw.Measured".into(),
                        BasicPublishOptions::default(),
                        &body,
                        BasicProperties::default().with_delivery_mode(2),
                    )
                    .await?,
            );
        }
        for c in try_join_all(confirms).await? {
            anyhow::ensure!(c.is_ack(), "raw publish nacked");
        }
    }
    let rate = N as f64 / start.elapsed().as_secs_f64();
    let busy = busy_share(cpu, cpu_ticks());
    channel.queue_delete(queue.as_str().into(), QueueDeleteOptions::default()).await?;
    connection.close(200, "done".into()).await?;
    Ok((rate, busy))
}

async fn append_one(store: &EventStore, stream: &str, version: i64, n: u64) -> anyhow::Result<()> {
    append_many(store, stream, version, n, 1).await
}

/// One transaction appending `count` events to `stream` at `version`.
async fn append_many(store: &EventStore, stream: &str, version: i64, n: u64, count: u64) -> anyhow::Result<()> {
    let events: Vec<BenchEvent> = (0..count).map(|i| event(n + i)).collect();
    let mut tx = store.pool().begin().await?;
    store.append(&mut tx, stream, version, &events, &meta()).await?;
    tx.commit().await?;
    store.wake_relay();
    Ok(())
}

/// Latency of one append (one event, one transaction), alone on the database.
async fn single_append(b: &Bench) -> anyhow::Result<(f64, f64)> {
    let mut samples = Vec::with_capacity(1000);
    for n in 0..1000u64 {
        let start = Instant::now();
        append_one(&b.store, "single", n as i64, n).await?;
        samples.push(start.elapsed().as_micros() as u64);
    }
    samples.sort_unstable();
    sqlx::query("delete from outbox").execute(&b.pool).await?;
    Ok((percentile_ms(&samples, 50.0), percentile_ms(&samples, 99.0)))
}

async fn effects(b: &Bench) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar("select count(*) from bench_effect").fetch_one(&b.pool).await?)
}

/// The machine's CPU time so far, all cores: (busy, total) in clock ticks, from /proc/stat.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<u64> = stat.lines().next()?.split_whitespace().skip(1).map(|f| f.parse().unwrap_or(0)).collect();
    let total: u64 = fields.iter().take(8).sum();
    // idle and iowait
    let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
    Some((total - idle, total))
}

/// The busy share of every core between two readings (NaN where /proc/stat is missing).
fn busy_share(from: Option<(u64, u64)>, to: Option<(u64, u64)>) -> f64 {
    match (from, to) {
        (Some((b0, t0)), Some((b1, t1))) if t1 > t0 => (b1 - b0) as f64 / (t1 - t0) as f64,
        _ => f64::NAN,
    }
}

/// The cores this process may use (the whole machine here: PostgreSQL and RabbitMQ share them).
fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// What the machine's cores allow end to end, from two measurements: the appends alone, and the
/// rest of the pipeline (relay, broker, consumer, projection) alone, each a rate with the
/// cores' busy share meanwhile. Both run on the same cores, so an event end to end costs their
/// sum of CPU.
#[derive(Debug)]
struct Ceiling {
    cores: usize,
    /// CPU time of one append, in microseconds of one core.
    append_us: f64,
    /// CPU time of one event through the rest of the pipeline.
    downstream_us: f64,
}

/// CPU time per event, in microseconds of one core, of work done at `rate` events a second
/// while `busy` of the `cores` were busy.
fn cpu_us_per_event(cores: usize, rate: f64, busy: f64) -> f64 {
    busy * cores as f64 / rate * 1e6
}

impl Ceiling {
    fn of(cores: usize, (append_rate, append_busy): (f64, f64), (rest_rate, rest_busy): (f64, f64)) -> Self {
        Ceiling {
            cores,
            append_us: cpu_us_per_event(cores, append_rate, append_busy),
            downstream_us: cpu_us_per_event(cores, rest_rate, rest_busy),
        }
    }

    /// Events per second end to end with every core busy.
    fn rate(&self) -> f64 {
        self.cores as f64 * 1e6 / (self.append_us + self.downstream_us)
    }
}

fn start_pipeline(b: &Bench, cancel: &CancellationToken) -> Vec<tokio::task::JoinHandle<()>> {
    let relay_settings = relay::RelaySettings::new("bench", &b.schema, &b.settings);
    let consumer_settings = consumer::ConsumerSettings::new(&b.settings);
    let spec = consumer::ConsumerSpec {
        queue: b.queue.clone(),
        bindings: vec!["bench.#".into()],
        handler: Arc::new(LagProjection),
    };
    vec![
        tokio::spawn(relay::run(b.pool.clone(), relay_settings, cancel.clone())),
        tokio::spawn(consumer::run(b.pool.clone(), spec, consumer_settings, cancel.clone())),
    ]
}

/// `writers` tasks appending `total` events between them, a stream each, `per_tx` events a transaction.
async fn write_concurrently(
    store: &EventStore,
    prefix: &str,
    writers: u64,
    total: u64,
    per_tx: u64,
) -> anyhow::Result<()> {
    let mut handles = Vec::new();
    for w in 0..writers {
        let (store, stream) = (store.clone(), format!("{prefix}-{w}"));
        handles.push(tokio::spawn(async move {
            for i in (0..total / writers).step_by(per_tx as usize) {
                append_many(&store, &stream, i as i64, i, per_tx).await?;
            }
            anyhow::Ok(())
        }));
    }
    for h in handles {
        h.await??;
    }
    Ok(())
}

/// 16 writers appending with nothing reading: what the database alone allows, and how busy
/// the machine's cores were meanwhile.
async fn appends_only(b: &Bench, total: u64) -> anyhow::Result<(f64, f64)> {
    let (start, cpu) = (Instant::now(), cpu_ticks());
    write_concurrently(&b.store, "alone", 16, total, 1).await?;
    let rate = total as f64 / start.elapsed().as_secs_f64();
    let busy = busy_share(cpu, cpu_ticks());
    sqlx::query("delete from outbox").execute(&b.pool).await?;
    Ok((rate, busy))
}

/// The rest of the pipeline alone: `total` events appended (1 a transaction) while it is
/// stopped, then relayed, delivered and projected: events per second until the projection has
/// them all, and the cores' busy share meanwhile.
async fn downstream_only(b: &Bench, total: u64) -> anyhow::Result<(f64, f64)> {
    let before = effects(b).await?;
    write_concurrently(&b.store, "backlog", 16, total, 1).await?;
    let cancel = CancellationToken::new();
    let (start, cpu) = (Instant::now(), cpu_ticks());
    let tasks = start_pipeline(b, &cancel);
    while effects(b).await? < before + total as i64 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        anyhow::ensure!(start.elapsed() < Duration::from_secs(300), "the backlog did not drain in 5 minutes");
    }
    let rate = total as f64 / start.elapsed().as_secs_f64();
    let busy = busy_share(cpu, cpu_ticks());
    println!(
        "  a backlog of {total}: relayed, delivered and projected at {rate:.0}/s, cores {:.0} % busy",
        busy * 100.0
    );
    cancel.cancel();
    for t in tasks {
        let _ = t.await;
    }
    Ok((rate, busy))
}

/// As fast as 16 writers can append, `per_tx` events a transaction: events per second until
/// the projection has them all, and the cores' busy share meanwhile.
async fn end_to_end(b: &Bench, total: u64, per_tx: u64) -> anyhow::Result<(f64, i64, f64)> {
    let cancel = CancellationToken::new();
    let tasks = start_pipeline(b, &cancel);
    let before = effects(b).await?;
    let (start, cpu) = (Instant::now(), cpu_ticks());
    write_concurrently(&b.store, &format!("max{per_tx}"), 16, total, per_tx).await?;
    let written = start.elapsed();
    let target = before + total as i64;
    while effects(b).await? < target {
        tokio::time::sleep(Duration::from_millis(20)).await;
        anyhow::ensure!(start.elapsed() < Duration::from_secs(300), "the pipeline did not drain in 5 minutes");
    }
    let rate = total as f64 / start.elapsed().as_secs_f64();
    let busy = busy_share(cpu, cpu_ticks());
    // Where the time went: the appends themselves (beside the pipeline), then what was still
    // on its way when the last append committed.
    println!(
        "  {per_tx} a transaction: {total} appended in {:.2} s ({:.0}/s beside the pipeline), \
         the last projected {:.2} s later; {rate:.0}/s end to end, cores {:.0} % busy",
        written.as_secs_f64(),
        total as f64 / written.as_secs_f64(),
        (start.elapsed() - written).as_secs_f64(),
        busy * 100.0
    );
    cancel.cancel();
    for t in tasks {
        let _ = t.await;
    }
    Ok((rate, total as i64, busy))
}

/// Appends at a steady `rate` for `duration`; lag = projection commit − append.
async fn at_rate(b: &Bench, rate: f64, duration: Duration) -> anyhow::Result<(f64, f64, f64)> {
    sqlx::query("truncate bench_effect").execute(&b.pool).await?;
    let cancel = CancellationToken::new();
    let tasks = start_pipeline(b, &cancel);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let writers = 8usize;
    let per_writer = rate / writers as f64;
    let start = Instant::now();
    let mut handles = Vec::new();
    for w in 0..writers {
        let store = b.store.clone();
        handles.push(tokio::spawn(async move {
            let interval = Duration::from_secs_f64(1.0 / per_writer);
            let mut ticker = tokio::time::interval(interval);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut n = 0u64;
            while start.elapsed() < duration {
                ticker.tick().await;
                append_one(&store, &format!("steady-{w}"), n as i64, n).await?;
                n += 1;
            }
            anyhow::Ok(n)
        }));
    }
    let mut sent = 0;
    for h in handles {
        sent += h.await??;
    }
    let achieved = sent as f64 / start.elapsed().as_secs_f64();
    while effects(b).await? < sent as i64 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cancel.cancel();
    for t in tasks {
        let _ = t.await;
    }
    let mut lags: Vec<u64> = sqlx::query_scalar::<_, i64>("select lag_us from bench_effect")
        .fetch_all(&b.pool)
        .await?
        .into_iter()
        .map(|l| l.max(0) as u64)
        .collect();
    lags.sort_unstable();
    Ok((percentile_ms(&lags, 50.0), percentile_ms(&lags, 99.0), achieved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_missed_is_named_and_met_ones_are_not() {
        assert!(missed(0.9, 50.0).is_empty());
        assert_eq!(missed(0.65, 43.9), vec!["end to end 0.65 × appends alone < 0.9"]);
        assert_eq!(missed(0.95, 51.0), vec!["lag p99 51.0 ms > 50 ms"]);
        assert_eq!(missed(0.95, f64::NAN).len(), 1, "no lag measured is not a target met");
    }

    #[test]
    fn the_busy_share_is_the_busy_part_of_the_ticks_between_two_readings() {
        assert_eq!(busy_share(Some((100, 1000)), Some((400, 1400))), 0.75);
        assert!(busy_share(None, Some((1, 2))).is_nan());
        assert!(busy_share(Some((5, 10)), Some((5, 10))).is_nan(), "no time passed");
        let (busy, total) = cpu_ticks().expect("/proc/stat on Linux");
        assert!(busy <= total && total > 0);
    }

    #[test]
    fn the_ceiling_adds_the_cpu_of_both_halves_of_an_event() {
        // Appends: 2,000/s with both of 2 cores busy = 1,000 µs each; the rest: 4,000/s with
        // half of them busy = 250 µs. An event end to end costs 1,250 µs: 1,600/s on 2 cores.
        let c = Ceiling::of(2, (2_000.0, 1.0), (4_000.0, 0.5));
        assert_eq!((c.append_us, c.downstream_us), (1_000.0, 250.0));
        assert_eq!(c.rate(), 1_600.0);
        // A free rest of the pipeline leaves the appends' own rate at full load.
        assert_eq!(Ceiling::of(2, (2_000.0, 1.0), (4_000.0, 0.0)).rate(), 2_000.0);
    }
}
