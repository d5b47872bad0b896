//! `paysite bench deals`: findDeals and interstitial answers per second and their latency,
//! over real HTTP against the service's router and the real database, in a scratch schema
//! dropped afterwards.
//!
//! Scenarios: the carousel (40 of 60 deals) for a visitor; the same for a signed-in user
//! (token check and the porn-portal lookup added); the listing grid (15); and snoozes of
//! the interstitial by distinct users (a write: event, outbox and read model per request).

use std::sync::Arc;
use std::time::Duration;

use runtime::auth::{Claims, Signer};
use runtime::{db, EventStore, Settings};
use serde_json::json;
use uuid::Uuid;

use crate::input::validate;
use crate::seed::demo_deals;
use crate::{DealsConfig, Sites, State, MIGRATIONS};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub database_url: String,
    /// Clients at once, each one request after another.
    pub concurrency: usize,
    /// Requests per scenario.
    pub requests: usize,
    /// Database connections of the service under test.
    pub pool_size: u32,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            database_url: runtime::config::DEFAULT_DATABASE_URL.to_owned(),
            concurrency: 32,
            requests: 5_000,
            pool_size: 20,
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
    pub max_ms: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    CarouselVisitor,
    CarouselSignedIn,
    ListingVisitor,
    Snooze,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::CarouselVisitor => "findDeals carousel (40), visitor",
            Scenario::CarouselSignedIn => "findDeals carousel (40), signed in",
            Scenario::ListingVisitor => "findDeals listing (15), visitor",
            Scenario::Snooze => "interstitial snooze, distinct users",
        }
    }
}

/// `paysite bench deals` with the defaults and the database of `settings`.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let options = BenchOptions { database_url: settings.database_url.expose().to_owned(), ..BenchOptions::default() };
    bench(&options).await.map(|_| ())
}

/// Runs the scenarios, prints a table, and returns its rows.
pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_deals_{}", &Uuid::new_v4().simple().to_string()[..12]);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, options.pool_size).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("deals", &MIGRATIONS)]).await?;
        let config = DealsConfig::default();
        let sites = Sites::load(&config.tenants_dir)?;
        let signer = Signer::generate("bench");
        let state = State::new(pool.clone(), EventStore::new(pool.clone(), &schema), config, sites, signer.verifier());
        fill(&state).await?;
        let app = crate::router(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let server = tokio::spawn(async move { axum::serve(listener, app).await });
        let http = runtime::tls::client_builder().pool_max_idle_per_host(options.concurrency).build()?;
        let token = signer.sign(&Claims::new(
            Uuid::now_v7(),
            "tushy.localhost:8080",
            "tushy",
            Uuid::now_v7(),
            vec![],
            Duration::from_secs(3600),
        ));
        let target = Arc::new(Target { http, base, token, signer });
        // Warm the connections and the plans.
        let warm = BenchOptions { requests: 500, ..options.clone() };
        measure(&target, &warm, Scenario::CarouselVisitor).await?;
        sqlx::query("analyze event, outbox, deal, interstitial_snooze, portal_subscription").execute(&pool).await?;
        let mut rows = Vec::new();
        for scenario in
            [Scenario::CarouselVisitor, Scenario::CarouselSignedIn, Scenario::ListingVisitor, Scenario::Snooze]
        {
            rows.push(measure(&target, options, scenario).await?);
        }
        server.abort();
        anyhow::Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    let rows = result?;
    println!(
        "deals over HTTP: {} clients, {} requests per scenario, {} connections",
        options.concurrency, options.requests, options.pool_size
    );
    println!(
        "{:<38} {:>8} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "scenario", "requests", "failed", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"
    );
    for r in &rows {
        println!(
            "{:<38} {:>8} {:>6} {:>8.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            r.scenario, r.requests, r.failed, r.per_second, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms
        );
    }
    Ok(rows)
}

/// The demo deals of every brand, and 52 more on tushy (60 there, 46 in the carousel).
async fn fill(state: &State) -> anyhow::Result<()> {
    crate::seed::seed_state(state).await?;
    let template = demo_deals("tushy").remove(1);
    for n in 0..52u32 {
        let id = Uuid::now_v7();
        let input = crate::input::DealInput {
            id: Some(id),
            name: Some(format!("bench-{n}")),
            rank: Some(i64::from(n % 20)),
            rank_listing: Some(i64::from(n)),
            enabled: n % 8 != 0,
            enabled_list: true,
            ..template.clone()
        };
        let deal = validate(input, id, |s| state.sites.contains(s))?;
        let meta = proto_events::EventMeta::new(proto_events::Actor::System("deals.bench".into()));
        crate::commands::run_deal(state, id, crate::domain::DealCommand::Create { deal, at: state.clock.now() }, &meta)
            .await??;
    }
    Ok(())
}

struct Target {
    http: reqwest::Client,
    base: String,
    token: String,
    signer: Signer,
}

impl Target {
    async fn once(&self, scenario: Scenario) -> bool {
        let request = match scenario {
            // A visitor's request comes through the gateway, with its service token.
            Scenario::CarouselVisitor => runtime::client::with_caller(
                self.http.get(format!("{}/internal/deals?type=carousel&site=tushy", self.base)),
                None,
                "deals",
            ),
            Scenario::CarouselSignedIn => {
                self.http.get(format!("{}/internal/deals?type=carousel&site=tushy", self.base)).bearer_auth(&self.token)
            }
            Scenario::ListingVisitor => runtime::client::with_caller(
                self.http.get(format!("{}/internal/deals?type=listing&site=tushy", self.base)),
                None,
                "deals",
            ),
            Scenario::Snooze => {
                let claims = Claims::new(
                    Uuid::now_v7(),
                    "tushy.localhost:8080",
                    "tushy",
                    Uuid::now_v7(),
                    vec![],
                    Duration::from_secs(3600),
                );
                self.http
                    .post(format!("{}/internal/interstitial/snooze", self.base))
                    .bearer_auth(self.signer.sign(&claims))
                    .json(&json!({ "site": "tushy" }))
            }
        };
        match request.send().await {
            Ok(response) if response.status().is_success() => response.bytes().await.is_ok(),
            _ => false,
        }
    }
}

async fn measure(target: &Arc<Target>, options: &BenchOptions, scenario: Scenario) -> anyhow::Result<BenchRow> {
    let target = target.clone();
    let stats = runtime::bench::closed_loop(options.concurrency, options.requests, move |_| {
        let target = target.clone();
        async move { target.once(scenario).await }
    })
    .await?;
    Ok(BenchRow {
        scenario: scenario.name(),
        requests: stats.requests,
        failed: stats.failed,
        per_second: stats.per_second,
        p50_ms: stats.p50_ms,
        p95_ms: stats.p95_ms,
        p99_ms: stats.p99_ms,
        max_ms: stats.max_ms,
    })
}
