//! What every service benchmark shares: the closed-loop load (a number of clients, each sending
//! its next request as soon as the last one answered, until a total is reached; latencies in a
//! histogram, throughput over the whole run), the options it runs with, a row of the results
//! table and its printing, and the scratch schema the service under test runs in.
//!
//! A service's `bench` module keeps only its scenarios and its defaults.

use std::{
    future::Future,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use hdrhistogram::Histogram;
use sqlx::{migrate::Migrator, PgPool};
use uuid::Uuid;

use crate::{auth::Claims, db, EventStore};

/// What one closed-loop run measured.
#[derive(Clone, Debug)]
pub struct LoadStats {
    /// Requests made (whether they succeeded or not).
    pub requests: u64,
    /// Requests whose future answered `false`.
    pub failed: u64,
    /// Requests per second over the whole run.
    pub per_second: f64,
    /// Median latency, in milliseconds.
    pub p50_ms: f64,
    /// 95th percentile latency, in milliseconds.
    pub p95_ms: f64,
    /// 99th percentile latency, in milliseconds.
    pub p99_ms: f64,
    /// Longest latency, in milliseconds.
    pub max_ms: f64,
}

/// One request of a closed-loop run: which client makes it, and which of the run's requests it
/// is (each of `0..total` once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The client, in `0..concurrency`.
    pub client: usize,
    /// The request, in `0..total`.
    pub index: usize,
}

/// Runs `total` requests from `concurrency` clients; `request(client)` makes one request of
/// that client and answers whether it succeeded.
pub async fn closed_loop<F, Fut>(concurrency: usize, total: usize, request: F) -> anyhow::Result<LoadStats>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send + 'static,
{
    closed_loop_turns(concurrency, total, move |turn| request(turn.client)).await
}

/// [`closed_loop`] where a request also knows which of the run's requests it is (scenarios that
/// build their requests before the clock starts pick theirs by [`Turn::index`]).
pub async fn closed_loop_turns<F, Fut>(concurrency: usize, total: usize, request: F) -> anyhow::Result<LoadStats>
where
    F: Fn(Turn) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send + 'static,
{
    let empty = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?;
    let request = Arc::new(request);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for client in 0..concurrency {
        let (request, next, mut latencies) = (request.clone(), next.clone(), empty.clone());
        clients.spawn(async move {
            let mut failed = 0u64;
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= total {
                    break;
                }
                let t = Instant::now();
                if !request(Turn { client, index }).await {
                    failed += 1;
                }
                latencies.saturating_record(t.elapsed().as_micros() as u64);
            }
            (latencies, failed)
        });
    }
    let mut latencies = empty;
    let mut failed = 0;
    while let Some(done) = clients.join_next().await {
        let (h, f) = done?;
        latencies.add(h)?;
        failed += f;
    }
    Ok(stats(&latencies, failed, started.elapsed()))
}

fn stats(latencies: &Histogram<u64>, failed: u64, elapsed: Duration) -> LoadStats {
    let ms = |q: f64| Duration::from_micros(latencies.value_at_quantile(q)).as_secs_f64() * 1e3;
    LoadStats {
        requests: latencies.len(),
        failed,
        per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50_ms: ms(0.50),
        p95_ms: ms(0.95),
        p99_ms: ms(0.99),
        max_ms: latencies.max() as f64 / 1e3,
    }
}

/// How a service benchmark runs: against which database, with how many clients, how many
/// requests per scenario, and how many connections the service under test gets. Each service's
/// `bench::options` holds its own defaults.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The database the scratch schemas are made in.
    pub database_url: String,
    /// Clients at once, each one request after another.
    pub concurrency: usize,
    /// Requests per scenario (debits, for the wallet).
    pub total: usize,
    /// Database connections of the service under test.
    pub pool_size: u32,
}

impl LoadOptions {
    /// The same options with another total (a warm-up's).
    pub fn with_total(&self, total: usize) -> LoadOptions {
        LoadOptions { total, ..self.clone() }
    }

    /// The same options with the clients and the total the environment variables `concurrency`
    /// and `total` set, where they are whole numbers.
    pub fn with_env(&self, concurrency: &str, total: &str) -> LoadOptions {
        let number =
            |key: &str, default: usize| std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
        LoadOptions {
            concurrency: number(concurrency, self.concurrency),
            total: number(total, self.total),
            ..self.clone()
        }
    }

    /// Runs [`closed_loop_turns`] with these clients and total, as the row of `scenario`.
    pub async fn measure<F, Fut>(&self, scenario: impl Into<String>, request: F) -> anyhow::Result<Row>
    where
        F: Fn(Turn) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = bool> + Send + 'static,
    {
        let stats = closed_loop_turns(self.concurrency, self.total, request).await?;
        Ok(Row::new(scenario, stats))
    }
}

/// One line of a benchmark's table: a scenario and what its run measured.
#[derive(Clone, Debug)]
pub struct Row {
    /// What ran, as the table names it.
    pub scenario: String,
    /// What the run measured.
    pub stats: LoadStats,
}

impl Row {
    /// The row of `scenario`.
    pub fn new(scenario: impl Into<String>, stats: LoadStats) -> Row {
        Row { scenario: scenario.into(), stats }
    }
}

/// A latency column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Latency {
    P50,
    P95,
    P99,
    Max,
}

impl Latency {
    /// Every latency column, in the order a table prints them.
    pub const ALL: [Latency; 4] = [Latency::P50, Latency::P95, Latency::P99, Latency::Max];

    fn header(self) -> &'static str {
        match self {
            Latency::P50 => "p50 ms",
            Latency::P95 => "p95 ms",
            Latency::P99 => "p99 ms",
            Latency::Max => "max ms",
        }
    }

    fn of(self, stats: &LoadStats) -> f64 {
        match self {
            Latency::P50 => stats.p50_ms,
            Latency::P95 => stats.p95_ms,
            Latency::P99 => stats.p99_ms,
            Latency::Max => stats.max_ms,
        }
    }
}

/// How a benchmark prints its rows: a title line, a column header, a line per scenario.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// What ran, the start of the title line ("deals over HTTP").
    pub name: &'static str,
    /// The count column's header, also the unit of the total in the title ("requests", "debits").
    pub count: &'static str,
    /// The throughput column's header ("req/s", "debits/s", "per s").
    pub rate: &'static str,
    /// The latency columns, in order.
    pub latencies: &'static [Latency],
    /// Decimals of the latencies.
    pub decimals: usize,
}

/// The narrowest a number column is printed.
const NUMBER_WIDTH: usize = 8;

impl Table {
    /// The table of `name`, counting `count` at `rate`, with every latency column to 2 decimals.
    pub const fn new(name: &'static str, count: &'static str, rate: &'static str) -> Table {
        Table { name, count, rate, latencies: &Latency::ALL, decimals: 2 }
    }

    /// The same table with only the latency columns `latencies`, to `decimals` decimals.
    pub const fn with_latencies(self, latencies: &'static [Latency], decimals: usize) -> Table {
        Table { latencies, decimals, ..self }
    }

    /// Runs `scenarios` in a fresh scratch schema of `service` ([`ScratchSchema::fresh`], with
    /// the database and connections of `options`), prints their rows, and returns them.
    pub async fn run_in_scratch<F, Fut>(
        &self,
        options: &LoadOptions,
        service: &str,
        migrations: &[(&str, &Migrator)],
        scenarios: F,
    ) -> anyhow::Result<Vec<Row>>
    where
        F: FnOnce(EventStore) -> Fut,
        Fut: Future<Output = anyhow::Result<Vec<Row>>>,
    {
        let scratch = ScratchSchema::fresh(&options.database_url, service, options.pool_size, migrations).await?;
        let rows = scratch.run(scenarios).await?;
        self.print(options, &rows);
        Ok(rows)
    }

    /// Prints the title line of `options`, the header and the rows.
    pub fn print(&self, options: &LoadOptions, rows: &[Row]) {
        println!("{}", self.title(options));
        self.print_rows(rows);
    }

    /// Prints the header and the rows, with no title line.
    pub fn print_rows(&self, rows: &[Row]) {
        for line in self.lines(rows) {
            println!("{line}");
        }
    }

    /// "deals over HTTP: 32 clients, 5000 requests per scenario, 20 connections".
    pub fn title(&self, options: &LoadOptions) -> String {
        format!(
            "{}: {} clients, {} {} per scenario, {} connections",
            self.name, options.concurrency, options.total, self.count, options.pool_size
        )
    }

    /// The header and a line per row, as [`Table::print_rows`] prints them.
    pub fn lines(&self, rows: &[Row]) -> Vec<String> {
        let width = rows.iter().map(|r| r.scenario.len()).chain(["scenario".len()]).max().unwrap_or_default();
        let mut header = vec![format!("{:<width$}", "scenario")];
        header.extend([self.count, "failed", self.rate].into_iter().map(number_header));
        header.extend(self.latencies.iter().map(|l| number_header(l.header())));
        let mut lines = vec![header.join(" ")];
        lines.extend(rows.iter().map(|r| self.line(r, width)));
        lines
    }

    fn line(&self, row: &Row, width: usize) -> String {
        let s = &row.stats;
        let mut cells = vec![
            format!("{:<width$}", row.scenario),
            format!("{:>w$}", s.requests, w = number_width(self.count)),
            format!("{:>w$}", s.failed, w = number_width("failed")),
            format!("{:>w$.0}", s.per_second, w = number_width(self.rate)),
        ];
        cells.extend(
            self.latencies
                .iter()
                .map(|l| format!("{:>w$.d$}", l.of(s), w = number_width(l.header()), d = self.decimals)),
        );
        cells.join(" ")
    }
}

fn number_width(header: &str) -> usize {
    header.len().max(NUMBER_WIDTH)
}

fn number_header(header: &str) -> String {
    format!("{header:>w$}", w = number_width(header))
}

/// The claims of a signed-in user on `site` as the local stack's front door names it
/// (`<site>.localhost:8080`), in a session of their own, valid for an hour.
pub fn signed_in(user_id: Uuid, site: &str) -> Claims {
    Claims::new(user_id, &format!("{site}.localhost:8080"), site, Uuid::now_v7(), vec![], Duration::from_secs(3600))
}

/// A benchmark's own schema: created (in a database created if missing) and migrated, the
/// runtime's tables first, before the run; dropped after it unless kept, whatever the run
/// answered.
pub struct ScratchSchema {
    pool: PgPool,
    schema: String,
    keep: bool,
}

impl ScratchSchema {
    /// A fresh schema `bench_<service>_<12 hex digits>`, dropped after the run.
    pub async fn fresh(
        database_url: &str,
        service: &str,
        pool_size: u32,
        migrations: &[(&str, &Migrator)],
    ) -> anyhow::Result<ScratchSchema> {
        let schema = format!("bench_{service}_{}", &Uuid::new_v4().simple().to_string()[..12]);
        ScratchSchema::open(database_url, schema, pool_size, migrations, false).await
    }

    /// The schema `schema`, made if missing; `keep` leaves it for the next run (a large seed).
    pub async fn open(
        database_url: &str,
        schema: String,
        pool_size: u32,
        migrations: &[(&str, &Migrator)],
        keep: bool,
    ) -> anyhow::Result<ScratchSchema> {
        db::ensure_database(database_url).await?;
        let pool = db::connect(database_url, &schema, pool_size).await?;
        let scratch = ScratchSchema { pool, schema, keep };
        let mut sources = vec![("runtime", &db::RUNTIME_MIGRATIONS)];
        sources.extend_from_slice(migrations);
        match db::migrate(&scratch.pool, &scratch.schema, &sources).await {
            Ok(()) => Ok(scratch),
            Err(e) => scratch.finish(Err(e)).await,
        }
    }

    /// Runs `work` on the schema's event store (its pool is the store's), then drops the schema
    /// (unless kept) and closes the pool, and answers what `work` answered.
    pub async fn run<T, F, Fut>(self, work: F) -> anyhow::Result<T>
    where
        F: FnOnce(EventStore) -> Fut,
        Fut: Future<Output = anyhow::Result<T>>,
    {
        let outcome = work(EventStore::new(self.pool.clone(), &self.schema)).await;
        self.finish(outcome).await
    }

    async fn finish<T>(self, outcome: anyhow::Result<T>) -> anyhow::Result<T> {
        if !self.keep {
            // Best effort: a schema left behind is dropped by hand, the run's answer matters more.
            let _ = sqlx::query(&format!("drop schema if exists {} cascade", self.schema)).execute(&self.pool).await;
        }
        self.pool.close().await;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_request_runs_once_and_failures_are_counted() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let stats = closed_loop(4, 100, move |_| {
            let n = counted.fetch_add(1, Ordering::Relaxed);
            async move { !n.is_multiple_of(10) }
        })
        .await
        .unwrap();
        assert_eq!(stats.requests, 100);
        assert_eq!(calls.load(Ordering::Relaxed), 100);
        assert_eq!(stats.failed, 10);
        assert!(stats.p50_ms <= stats.p99_ms && stats.p99_ms <= stats.max_ms + 1.0);
    }

    #[tokio::test]
    async fn every_index_comes_once_from_a_known_client() {
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = seen.clone();
        let options = LoadOptions { database_url: String::new(), concurrency: 3, total: 50, pool_size: 1 };
        let row = options
            .measure("indices", move |turn| {
                record.lock().unwrap().push(turn);
                async move { true }
            })
            .await
            .unwrap();
        let mut turns = seen.lock().unwrap().clone();
        turns.sort_by_key(|t| t.index);
        assert_eq!(turns.iter().map(|t| t.index).collect::<Vec<_>>(), (0..50).collect::<Vec<_>>());
        assert!(turns.iter().all(|t| t.client < 3));
        assert_eq!((row.scenario.as_str(), row.stats.requests, row.stats.failed), ("indices", 50, 0));
    }

    #[test]
    fn a_table_prints_the_columns_it_is_given() {
        let table = Table::new("wallet debits", "debits", "debits/s");
        let options = LoadOptions { database_url: String::new(), concurrency: 50, total: 5_000, pool_size: 20 };
        assert_eq!(table.title(&options), "wallet debits: 50 clients, 5000 debits per scenario, 20 connections");
        let stats = LoadStats {
            requests: 5_000,
            failed: 1,
            per_second: 1234.4,
            p50_ms: 1.0,
            p95_ms: 2.0,
            p99_ms: 3.0,
            max_ms: 4.5,
        };
        let lines = table.lines(&[Row::new("hot wallet", stats.clone())]);
        assert_eq!(
            lines[0].split_whitespace().collect::<Vec<_>>(),
            ["scenario", "debits", "failed", "debits/s", "p50", "ms", "p95", "ms", "p99", "ms", "max", "ms"]
        );
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["hot", "wallet", "5000", "1", "1234", "1.00", "2.00", "3.00", "4.50"]
        );
        assert_eq!(lines[0].len(), lines[1].len());
        let short = table.with_latencies(&[Latency::P50, Latency::Max], 3);
        let lines = short.lines(&[Row::new("hot wallet", stats)]);
        assert!(!lines[0].contains("p95") && lines[1].ends_with("1.000    4.500"), "{lines:?}");
    }
}
