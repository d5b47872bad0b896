//! `paysite bench catalog`: listing and search latency at 50 concurrent clients over HTTP on
//! a 100k-video catalog, printed beside the same SQL run directly on the database (the
//! ratio is what the service adds or saves: HTTP, JSON, the pool, the read cache).
//!
//! The keys are drawn like readers ask them ([`Mix`]): brands, pages, categories and
//! searches by Zipf-like popularity, plus cold keys (uniformly drawn deep pages, searches
//! nobody made before); each row prints how many distinct keys it asked and the share the
//! read cache answered. `CATALOG_READ_CACHE_MB=0` measures the service without the cache.
//!
//! The catalog lives in its own schema (`bench_catalog_<videos>`), seeded through the
//! catalog's commands on the first run (a few minutes) and reused afterwards.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use runtime::auth::Signer;
use runtime::bench::{closed_loop_turns, LoadOptions, LoadStats, ScratchSchema};
use runtime::service::ServiceContext;
use runtime::{EventStore, Settings};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use crate::client::{CatalogClient, Paging, VideoListParams};
use crate::queries::{self, VideoFilter, VideoOrder};
use crate::read_cache::Limits;
use crate::{AppState, CatalogConfig, MIGRATIONS};
use runtime::client::CallContext;

/// What `paysite bench catalog` runs: the load of each scenario (over HTTP, then the same
/// asks on SQL), on a catalog of `videos`.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Clients, requests per scenario and connections of the service under test.
    pub load: LoadOptions,
    /// Videos in the catalog.
    pub videos: usize,
    /// Drop the schema afterwards (tests); the command keeps it for the next run.
    pub drop_schema: bool,
    /// The service's read cache (`max_bytes: 0` measures without it).
    pub read_cache: Limits,
}

/// The defaults of `paysite bench catalog`: 100,000 videos, 50 clients, 5,000 requests per
/// scenario, 20 connections, the schema kept, the default read cache.
pub fn options(database_url: &str) -> BenchOptions {
    BenchOptions {
        load: LoadOptions { database_url: database_url.to_owned(), concurrency: 50, total: 5_000, pool_size: 20 },
        videos: 100_000,
        drop_schema: false,
        read_cache: Limits::default(),
    }
}

/// One scenario's figures: over HTTP, and the same asks straight on SQL.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub scenario: &'static str,
    /// Distinct keys (brand, page, category or words) the run asked.
    pub keys: usize,
    /// Answered from the read cache, or by waiting for the same key's computation.
    pub hit_rate: f64,
    /// The requests over HTTP.
    pub http: LoadStats,
    /// The same asks on the pool.
    pub sql: LoadStats,
}

impl BenchRow {
    /// Requests that failed, over HTTP or on SQL.
    pub fn failed(&self) -> u64 {
        self.http.failed + self.sql.failed
    }

    /// HTTP p95 / SQL p95.
    pub fn ratio(&self) -> f64 {
        if self.sql.p95_ms > 0.0 {
            self.http.p95_ms / self.sql.p95_ms
        } else {
            0.0
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
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

    fn salt(self) -> u64 {
        match self {
            Scenario::Listing => 0x6c69_7374,
            Scenario::CategoryListing => 0x6361_7465,
            Scenario::Search => 0x7365_6172,
        }
    }
}

// The key mix: what readers ask is skewed, Zipf-like (P(rank k) ∝ k^-s), with a cold tail.
/// Brands by popularity.
const BRAND_S: f64 = 0.8;
/// Page depth: most readers stay on the first pages.
const PAGE_S: f64 = 1.5;
const CATEGORY_S: f64 = 1.0;
const QUERY_S: f64 = 1.0;
/// Search result pages: nearly everyone stays on the first.
const SEARCH_PAGE_S: f64 = 2.0;
const SEARCH_PAGES: u64 = 5;
/// Share of listing requests for a page drawn uniformly (deep links, crawlers): cold keys.
const COLD_PAGES: f64 = 0.02;
/// Share of searches for words nobody searched before (three random words): cold keys.
const NOVEL_QUERIES: f64 = 0.05;
/// Popular searches, some of them misspelt.
const HOT_QUERIES: usize = 60;
const PAGE_SIZE: i64 = 12;

/// A rank in `1..=n` with P(k) ∝ k^-s (the continuous power law on [1, n+1), floored),
/// from a uniform `u` in [0, 1).
pub fn zipf(u: f64, n: u64, s: f64) -> u64 {
    if n <= 1 {
        return 1;
    }
    let top = (n + 1) as f64;
    let k = if (s - 1.0).abs() < 1e-9 {
        top.powf(u)
    } else {
        let a = 1.0 - s;
        (1.0 + u * (top.powf(a) - 1.0)).powf(1.0 / a)
    };
    (k.floor() as u64).clamp(1, n)
}

/// The uniform draws of one request: the same request index gives the same draws, so the
/// HTTP run and the direct SQL run ask the same keys.
struct Draws(u64);

impl Draws {
    fn new(scenario: Scenario, i: u64) -> Draws {
        Draws(scenario.salt().wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i)
    }

    /// splitmix64, as a float in [0, 1).
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[((self.next() * items.len() as f64) as usize).min(items.len() - 1)]
    }
}

/// One request of the mix.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    Listing { site: &'static str, page: i64 },
    Category { site: &'static str, category: String, page: i64 },
    Search { site: &'static str, q: String, page: i64 },
}

/// What the catalog holds, for drawing realistic keys.
pub struct Mix {
    /// The brands (not the combined one) with their number of listing pages.
    brands: Vec<(&'static str, u64)>,
    categories: Vec<String>,
    category_pages: HashMap<(String, String), u64>,
    queries: Vec<String>,
}

fn pages(n: i64) -> u64 {
    ((n.max(0) + PAGE_SIZE - 1) / PAGE_SIZE).max(1) as u64
}

/// A word with two letters in the middle swapped ("mornign"): a typo.
fn misspelt(word: &str) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    if chars.len() >= 4 {
        let j = chars.len() / 2 - 1;
        chars.swap(j, j + 1);
    }
    chars.into_iter().collect()
}

/// The popular searches: titles' words, performers' names, some misspelt.
pub fn hot_queries() -> Vec<String> {
    use crate::seed::{ADJECTIVES, FIRST_NAMES, LAST_NAMES, NOUNS};
    let mut d = Draws(0x0071_7565_7269_6573);
    (0..HOT_QUERIES)
        .map(|j| {
            let q = match j % 4 {
                0 => format!("{} {}", d.pick(&ADJECTIVES), d.pick(&NOUNS)),
                1 => (*d.pick(&FIRST_NAMES)).to_owned(),
                2 => format!("{} {}", d.pick(&FIRST_NAMES), d.pick(&LAST_NAMES)),
                _ => (*d.pick(&NOUNS)).to_owned(),
            }
            .to_lowercase();
            if j % 5 == 4 {
                let mut words: Vec<String> = q.split(' ').map(str::to_owned).collect();
                if let Some(w) = words.iter_mut().max_by_key(|w| w.len()) {
                    *w = misspelt(w);
                }
                words.join(" ")
            } else {
                q
            }
        })
        .collect()
}

impl Mix {
    /// Reads the brands' and categories' sizes from the listing counts.
    pub async fn load(pool: &PgPool) -> anyhow::Result<Mix> {
        let counts: Vec<(String, String, i64)> =
            sqlx::query_as("select site, facet, n from listing_count").fetch_all(pool).await?;
        let total = |site: &str| counts.iter().find(|(s, f, _)| s == site && f.is_empty()).map_or(0, |c| c.2);
        let tenants = tenants::global();
        let brands = tenants.keys().filter(|b| !tenants.is_combined(b)).map(|b| (b, pages(total(b)))).collect();
        let categories: Vec<String> =
            sqlx::query_scalar("select slug from category order by slug").fetch_all(pool).await?;
        let category_pages = counts
            .iter()
            .filter_map(|(s, f, n)| f.strip_prefix("category:").map(|c| ((s.clone(), c.to_owned()), pages(*n))))
            .collect();
        Ok(Mix { brands, categories, category_pages, queries: hot_queries() })
    }

    fn brand(&self, d: &mut Draws) -> (&'static str, u64) {
        self.brands[zipf(d.next(), self.brands.len() as u64, BRAND_S) as usize - 1]
    }

    /// The `i`th request of a scenario.
    pub fn ask(&self, scenario: Scenario, i: u64) -> Ask {
        use crate::seed::{ADJECTIVES, FIRST_NAMES, NOUNS};
        let mut d = Draws::new(scenario, i);
        let (site, pages) = self.brand(&mut d);
        match scenario {
            Scenario::Listing => {
                let page = if d.next() < COLD_PAGES {
                    1 + (d.next() * pages as f64) as u64
                } else {
                    zipf(d.next(), pages, PAGE_S)
                };
                Ask::Listing { site, page: page.min(pages) as i64 }
            }
            Scenario::CategoryListing => {
                let category =
                    self.categories[zipf(d.next(), self.categories.len() as u64, CATEGORY_S) as usize - 1].clone();
                let pages = self.category_pages.get(&(site.to_owned(), category.clone())).copied().unwrap_or(1);
                let page = if d.next() < COLD_PAGES {
                    1 + (d.next() * pages as f64) as u64
                } else {
                    zipf(d.next(), pages, PAGE_S)
                };
                Ask::Category { site, category, page: page.min(pages) as i64 }
            }
            Scenario::Search => {
                let q = if d.next() < NOVEL_QUERIES {
                    format!("{} {} {}", d.pick(&ADJECTIVES), d.pick(&NOUNS), d.pick(&FIRST_NAMES)).to_lowercase()
                } else {
                    self.queries[zipf(d.next(), self.queries.len() as u64, QUERY_S) as usize - 1].clone()
                };
                Ask::Search { site, q, page: zipf(d.next(), SEARCH_PAGES, SEARCH_PAGE_S) as i64 }
            }
        }
    }
}

async fn http_once(client: &CatalogClient, ask: &Ask) -> bool {
    match ask {
        Ask::Listing { site, page } => client
            .videos(
                &CallContext::anonymous(site),
                &VideoListParams { page: Some(*page), size: Some(PAGE_SIZE), ..Default::default() },
            )
            .await
            .is_ok(),
        Ask::Category { site, category, page } => client
            .videos(
                &CallContext::anonymous(site),
                &VideoListParams {
                    page: Some(*page),
                    size: Some(PAGE_SIZE),
                    categories: Some(category.clone()),
                    order: Some("rating".into()),
                    ..Default::default()
                },
            )
            .await
            .is_ok(),
        Ask::Search { site, q, page } => client
            .search(&CallContext::anonymous(site), q, &Paging { page: Some(*page), size: Some(PAGE_SIZE) })
            .await
            .is_ok(),
    }
}

/// The same reads the handler makes, straight on the pool.
async fn sql_once(pool: &PgPool, ask: &Ask) -> bool {
    match ask {
        Ask::Listing { site, page } => {
            let f = VideoFilter { site: (*site).into(), ..Default::default() };
            queries::list_page(pool, &f, VideoOrder::Newest, (page - 1) * PAGE_SIZE, PAGE_SIZE).await.is_ok()
        }
        Ask::Category { site, category, page } => {
            let f = VideoFilter { site: (*site).into(), categories: vec![category.clone()], ..Default::default() };
            queries::list_page(pool, &f, VideoOrder::Rating, (page - 1) * PAGE_SIZE, PAGE_SIZE).await.is_ok()
        }
        Ask::Search { site, q, page } => {
            let words = queries::query_words(q);
            let Ok(set) = queries::search_set(pool, site, q.trim(), &words).await else { return false };
            let offset = (page - 1) * PAGE_SIZE;
            match set.page(offset, PAGE_SIZE) {
                Some(ids) => queries::videos_by_ids(pool, ids).await.is_ok(),
                None => queries::search_videos(pool, site, &words, &set.expanded, offset, PAGE_SIZE).await.is_ok(),
            }
        }
    }
}

/// Each of `asks[..total]` once over HTTP, from `concurrency` clients.
async fn over_http(
    client: &CatalogClient,
    asks: &Arc<Vec<Ask>>,
    concurrency: usize,
    total: usize,
) -> anyhow::Result<LoadStats> {
    let (client, asks) = (client.clone(), asks.clone());
    closed_loop_turns(concurrency, total, move |turn| {
        let (client, asks) = (client.clone(), asks.clone());
        async move { http_once(&client, &asks[turn.index]).await }
    })
    .await
}

/// Each of `asks[..total]` once straight on the pool, from `concurrency` clients.
async fn on_sql(pool: &PgPool, asks: &Arc<Vec<Ask>>, concurrency: usize, total: usize) -> anyhow::Result<LoadStats> {
    let (pool, asks) = (pool.clone(), asks.clone());
    closed_loop_turns(concurrency, total, move |turn| {
        let (pool, asks) = (pool.clone(), asks.clone());
        async move { sql_once(&pool, &asks[turn.index]).await }
    })
    .await
}

/// Seeds the bench schema if it holds fewer videos than asked.
async fn ensure_catalog(store: &EventStore, settings: &Settings, videos: usize) -> anyhow::Result<()> {
    let pool = store.pool();
    let have: i64 = sqlx::query_scalar("select count(*) from video").fetch_one(pool).await?;
    if have as usize >= videos {
        println!("catalog: reusing {have} videos");
        return Ok(());
    }
    let ctx = ServiceContext { pool: pool.clone(), store: store.clone(), settings: settings.clone() };
    crate::seed::seed_scale(ctx, videos).await
}

/// Runs the scenarios in the catalog's bench schema and prints the table.
pub async fn bench(settings: &Settings, options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let load = &options.load;
    let schema = format!("bench_catalog_{}", options.videos);
    let migrations = [("catalog", &MIGRATIONS)];
    let keep = !options.drop_schema;
    let scratch = ScratchSchema::open(&load.database_url, schema, load.pool_size, &migrations, keep).await?;
    let rows = scratch.run(|store| scenarios(settings, store, options)).await?;
    print_rows(options, &rows);
    Ok(rows)
}

/// The service under test on loopback, its client, and the mix its keys are drawn from.
struct Served {
    state: AppState,
    client: CatalogClient,
    mix: Mix,
    pool: PgPool,
}

async fn scenarios(settings: &Settings, store: EventStore, options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let pool = store.pool().clone();
    ensure_catalog(&store, settings, options.videos).await?;
    let verifier = Signer::generate("bench").verifier();
    let config = CatalogConfig { read_cache: options.read_cache, ..CatalogConfig::default() };
    let state = AppState::new(pool.clone(), store, verifier, config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let cancel = CancellationToken::new();
    let app = crate::router(state.clone());
    let stop = cancel.clone();
    let server =
        tokio::spawn(async move { axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned()).await });
    let served = Served { state, client: CatalogClient::new(&base), mix: Mix::load(&pool).await?, pool };
    let mut rows = Vec::new();
    for scenario in [Scenario::Listing, Scenario::CategoryListing, Scenario::Search] {
        rows.push(scenario_row(&served, &options.load, scenario).await?);
    }
    cancel.cancel();
    let _ = server.await;
    Ok(rows)
}

async fn scenario_row(served: &Served, load: &LoadOptions, scenario: Scenario) -> anyhow::Result<BenchRow> {
    let (mix, client, pool, clients) = (&served.mix, &served.client, &served.pool, load.concurrency);
    // Warm the plans, and the cache to a steady state: as many requests as measured,
    // other draws from the same mix (a running service has seen traffic before).
    let warm = load.total.max(clients);
    let warm_asks: Arc<Vec<Ask>> = Arc::new((0..warm).map(|i| mix.ask(scenario, (1 << 40) + i as u64)).collect());
    let asks: Arc<Vec<Ask>> = Arc::new((0..load.total).map(|i| mix.ask(scenario, i as u64)).collect());
    let keys = asks.iter().collect::<HashSet<_>>().len();
    over_http(client, &warm_asks, clients, warm).await?;
    on_sql(pool, &warm_asks, clients, (warm / 10).max(clients).min(warm)).await?;
    let before = served.state.read_cache.stats();
    let http = over_http(client, &asks, clients, load.total).await?;
    let cache = served.state.read_cache.stats().since(&before);
    let sql = on_sql(pool, &asks, clients, load.total).await?;
    println!(
        "{}: {} distinct keys; cache {} hits, {} coalesced, {} misses, {} evictions, {} generation checks, {} entries, {} KiB",
        scenario.name(),
        keys,
        cache.hits,
        cache.coalesced,
        cache.misses,
        cache.evictions,
        cache.checks,
        cache.entries,
        cache.bytes / 1024
    );
    Ok(BenchRow { scenario: scenario.name(), keys, hit_rate: cache.hit_rate(), http, sql })
}

fn print_rows(options: &BenchOptions, rows: &[BenchRow]) {
    let load = &options.load;
    println!(
        "catalog reads: {} videos, {} clients, {} requests per scenario, {} connections, read cache {} MiB",
        options.videos,
        load.concurrency,
        load.total,
        load.pool_size,
        options.read_cache.max_bytes >> 20
    );
    println!(
        "{:<34} {:>7} {:>6} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>6}",
        "scenario",
        "reqs",
        "failed",
        "keys",
        "hit %",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "sql p50",
        "sql p95",
        "ratio"
    );
    for r in rows {
        println!(
            "{:<34} {:>7} {:>6} {:>6} {:>6.1} {:>8.0} {:>8.2} {:>8.2} {:>8.2} {:>9.2} {:>9.2} {:>6.2}",
            r.scenario,
            r.http.requests,
            r.failed(),
            r.keys,
            r.hit_rate * 100.0,
            r.http.per_second,
            r.http.p50_ms,
            r.http.p95_ms,
            r.http.p99_ms,
            r.sql.p50_ms,
            r.sql.p95_ms,
            r.ratio()
        );
    }
}

/// `paysite bench catalog`: the 100k-video catalog, 50 clients, unless the environment says
/// otherwise (`CATALOG_BENCH_VIDEOS`, `CATALOG_BENCH_CONCURRENCY`, `CATALOG_BENCH_REQUESTS`,
/// `CATALOG_READ_CACHE_MB`).
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    bench(settings, &options_from_env(settings.database_url.expose())).await.map(|_| ())
}

/// [`options`] with what the environment overrides (the `catalog-bench` binary's and the full
/// bench test's knobs).
pub fn options_from_env(database_url: &str) -> BenchOptions {
    let defaults = options(database_url);
    let videos = std::env::var("CATALOG_BENCH_VIDEOS").ok().and_then(|v| v.parse().ok());
    BenchOptions {
        load: defaults.load.with_env("CATALOG_BENCH_CONCURRENCY", "CATALOG_BENCH_REQUESTS"),
        videos: videos.unwrap_or(defaults.videos),
        read_cache: CatalogConfig::from_env().read_cache,
        ..defaults
    }
}
