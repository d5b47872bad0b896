//! `paysite bench catalog`: listing and search latency at 50 concurrent clients over HTTP on
//! a 100k-video catalog, printed beside the same SQL run directly on the database (the
//! ratio is what the service adds: HTTP, JSON, the pool).
//!
//! The catalog lives in its own schema (`bench_catalog_<videos>`), seeded through the
//! catalog's commands on the first run (a few minutes) and reused afterwards.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use runtime::auth::Signer;
use runtime::service::ServiceContext;
use runtime::{db, EventStore, Settings};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use crate::client::{Caller, CatalogClient, Paging, VideoListParams};
use crate::domain::BRANDS;
use crate::queries::{self, VideoFilter, VideoOrder};
use crate::{AppState, CatalogConfig, MIGRATIONS};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub database_url: String,
    /// Videos in the catalog.
    pub videos: usize,
    pub concurrency: usize,
    /// Requests per scenario.
    pub requests: usize,
    pub pool_size: u32,
    /// Drop the schema afterwards (tests); the command keeps it for the next run.
    pub drop_schema: bool,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            database_url: runtime::config::DEFAULT_DATABASE_URL.to_owned(),
            videos: 100_000,
            concurrency: 50,
            requests: 5_000,
            pool_size: 20,
            drop_schema: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct BenchRow {
    pub scenario: &'static str,
    pub requests: u64,
    pub failed: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub sql_p50_ms: f64,
    pub sql_p95_ms: f64,
    /// HTTP p95 / SQL p95.
    pub ratio: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    /// A page of the newest videos of a brand.
    Listing,
    /// A page of a brand's videos in one category, top rated first.
    CategoryListing,
    /// A ranked search, some words misspelt.
    Search,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::Listing => "listing page (newest)",
            Scenario::CategoryListing => "listing page (category, rating)",
            Scenario::Search => "search (ranked, typo-tolerant)",
        }
    }
}

const QUERIES: [&str; 12] = [
    "golden hour",
    "city lights",
    "quiet mornign",
    "summer",
    "velvet garden",
    "midnight escape",
    "lingerie",
    "maya",
    "sunset rooftop",
    "secret gardn",
    "river",
    "autumn weekend",
];
const CATEGORIES: [&str; 6] = ["romantic", "outdoor", "city", "big-scene", "lingerie", "couples"];

/// The `i`th request of a scenario: which brand, page, category or words.
fn request(i: usize) -> (&'static str, i64, &'static str, &'static str) {
    let brand = BRANDS[i % 9];
    let page = 1 + (i * 7 % 40) as i64;
    (brand, page, CATEGORIES[i % CATEGORIES.len()], QUERIES[i % QUERIES.len()])
}

async fn http_once(client: &CatalogClient, scenario: Scenario, i: usize) -> bool {
    let (brand, page, category, q) = request(i);
    let caller = Caller::tenant(brand);
    match scenario {
        Scenario::Listing => {
            client.videos(&caller, &VideoListParams { page: Some(page), ..Default::default() }).await.is_ok()
        }
        Scenario::CategoryListing => client
            .videos(
                &caller,
                &VideoListParams {
                    page: Some(page % 5 + 1),
                    categories: Some(category.into()),
                    order: Some("rating".into()),
                    ..Default::default()
                },
            )
            .await
            .is_ok(),
        Scenario::Search => {
            client.search(&caller, q, &Paging { page: Some(page % 3 + 1), size: Some(12) }).await.is_ok()
        }
    }
}

/// The same reads the handler makes, straight on the pool.
async fn sql_once(pool: &PgPool, scenario: Scenario, i: usize) -> bool {
    let (brand, page, category, q) = request(i);
    match scenario {
        Scenario::Listing => {
            let f = VideoFilter { site: brand.into(), ..Default::default() };
            queries::list_page(pool, &f, VideoOrder::Newest, (page - 1) * 12, 12).await.is_ok()
        }
        Scenario::CategoryListing => {
            let f = VideoFilter { site: brand.into(), categories: vec![category.into()], ..Default::default() };
            let page = page % 5 + 1;
            queries::list_page(pool, &f, VideoOrder::Rating, (page - 1) * 12, 12).await.is_ok()
        }
        Scenario::Search => {
            let words = queries::query_words(q);
            let Ok(expanded) = queries::expand_words(pool, &words).await else { return false };
            let page = page % 3 + 1;
            tokio::try_join!(
                queries::search_videos(pool, brand, &words, &expanded, (page - 1) * 12, 12),
                queries::search_names(pool, brand, q)
            )
            .is_ok()
        }
    }
}

struct Measured {
    latencies: Histogram<u64>,
    failed: u64,
    elapsed: Duration,
}

async fn drive<F, Fut>(concurrency: usize, requests: usize, f: F) -> anyhow::Result<Measured>
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (next, f) = (next.clone(), f.clone());
        clients.spawn(async move {
            let mut latencies = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds");
            let mut failed = 0u64;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests {
                    break;
                }
                let t = Instant::now();
                if !f(i).await {
                    failed += 1;
                }
                latencies.saturating_record(t.elapsed().as_micros() as u64);
            }
            (latencies, failed)
        });
    }
    let mut latencies = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?;
    let mut failed = 0;
    while let Some(done) = clients.join_next().await {
        let (h, f) = done?;
        latencies.add(h)?;
        failed += f;
    }
    Ok(Measured { latencies, failed, elapsed: started.elapsed() })
}

fn ms(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1e3
}

/// Seeds the bench schema if it holds fewer videos than asked.
async fn ensure_catalog(pool: &PgPool, store: &EventStore, settings: &Settings, videos: usize) -> anyhow::Result<()> {
    let have: i64 = sqlx::query_scalar("select count(*) from video").fetch_one(pool).await?;
    if have as usize >= videos {
        println!("catalog: reusing {have} videos");
        return Ok(());
    }
    let ctx = ServiceContext { pool: pool.clone(), store: store.clone(), settings: settings.clone() };
    crate::seed::seed_scale(ctx, videos).await
}

/// Runs the scenarios and prints the table.
pub async fn bench(settings: &Settings, options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_catalog_{}", options.videos);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, options.pool_size).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("catalog", &MIGRATIONS)]).await?;
        let store = EventStore::new(pool.clone(), &schema);
        ensure_catalog(&pool, &store, settings, options.videos).await?;
        let verifier = Signer::generate("bench").verifier();
        let state = AppState::new(pool.clone(), store, verifier, CatalogConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let cancel = CancellationToken::new();
        let app = crate::router(state);
        let stop = cancel.clone();
        let server =
            tokio::spawn(
                async move { axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned()).await },
            );
        let client = CatalogClient::new(&base);
        let mut rows = Vec::new();
        for scenario in [Scenario::Listing, Scenario::CategoryListing, Scenario::Search] {
            // Warm the plans and the cache.
            let warm = (options.requests / 10).max(options.concurrency);
            let (c, p) = (client.clone(), pool.clone());
            drive(options.concurrency, warm, move |i| {
                let c = c.clone();
                async move { http_once(&c, scenario, i).await }
            })
            .await?;
            drive(options.concurrency, warm, move |i| {
                let p = p.clone();
                async move { sql_once(&p, scenario, i).await }
            })
            .await?;
            let c = client.clone();
            let http = drive(options.concurrency, options.requests, move |i| {
                let c = c.clone();
                async move { http_once(&c, scenario, i).await }
            })
            .await?;
            let p = pool.clone();
            let sql = drive(options.concurrency, options.requests, move |i| {
                let p = p.clone();
                async move { sql_once(&p, scenario, i).await }
            })
            .await?;
            let p95 = ms(&http.latencies, 0.95);
            let sql_p95 = ms(&sql.latencies, 0.95);
            rows.push(BenchRow {
                scenario: scenario.name(),
                requests: http.latencies.len(),
                failed: http.failed + sql.failed,
                per_second: http.latencies.len() as f64 / http.elapsed.as_secs_f64(),
                p50_ms: ms(&http.latencies, 0.5),
                p95_ms: p95,
                p99_ms: ms(&http.latencies, 0.99),
                sql_p50_ms: ms(&sql.latencies, 0.5),
                sql_p95_ms: sql_p95,
                ratio: if sql_p95 > 0.0 { p95 / sql_p95 } else { 0.0 },
            });
        }
        cancel.cancel();
        let _ = server.await;
        anyhow::Ok(rows)
    }
    .await;
    if options.drop_schema {
        let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    }
    pool.close().await;
    let rows = result?;
    println!(
        "catalog reads: {} videos, {} clients, {} requests per scenario, {} connections",
        options.videos, options.concurrency, options.requests, options.pool_size
    );
    println!(
        "{:<34} {:>7} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>6}",
        "scenario", "reqs", "failed", "req/s", "p50 ms", "p95 ms", "p99 ms", "sql p50", "sql p95", "ratio"
    );
    for r in &rows {
        println!(
            "{:<34} {:>7} {:>6} {:>8.0} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>9.2} {:>6.2}",
            r.scenario,
            r.requests,
            r.failed,
            r.per_second,
            r.p50_ms,
            r.p95_ms,
            r.p99_ms,
            r.sql_p50_ms,
            r.sql_p95_ms,
            r.ratio
        );
    }
    Ok(rows)
}

/// `paysite bench catalog`: the 100k-video catalog, 50 clients.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let number = |key: &str, default: usize| std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let options = BenchOptions {
        database_url: settings.database_url.expose().to_owned(),
        videos: number("CATALOG_BENCH_VIDEOS", 100_000),
        concurrency: number("CATALOG_BENCH_CONCURRENCY", 50),
        requests: number("CATALOG_BENCH_REQUESTS", 5_000),
        ..BenchOptions::default()
    };
    bench(settings, &options).await.map(|_| ())
}
