//! `paysite bench deals`: findDeals and interstitial answers per second and their latency,
//! over real HTTP against the service's router and the real database, in a scratch schema
//! dropped afterwards.
//!
//! Scenarios: the carousel (40 of 60 deals) for a visitor; the same for a signed-in user
//! (token check and the porn-portal lookup added); the listing grid (15); and snoozes of
//! the interstitial by distinct users (a write: event, outbox and read model per request).

use std::sync::Arc;

use runtime::auth::Signer;
use runtime::bench::{signed_in, LoadOptions, Row, Table};
use runtime::{EventStore, Settings};
use serde_json::json;
use uuid::Uuid;

use crate::input::validate;
use crate::seed::demo_deals;
use crate::{DealsConfig, Sites, State, MIGRATIONS};

/// How `paysite bench deals` prints its rows.
const TABLE: Table = Table::new("deals over HTTP", "requests", "req/s");

/// The defaults of `paysite bench deals`: 32 clients, 5,000 requests per scenario, 20 connections.
pub fn options(database_url: &str) -> LoadOptions {
    LoadOptions { database_url: database_url.to_owned(), concurrency: 32, total: 5_000, pool_size: 20 }
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
    bench(&options(settings.database_url.expose())).await.map(|_| ())
}

/// Runs the scenarios in a scratch schema, prints a table, and returns its rows.
pub async fn bench(options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    TABLE.run_in_scratch(options, "deals", &[("deals", &MIGRATIONS)], |store| scenarios(store, options)).await
}

async fn scenarios(store: EventStore, options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    let pool = store.pool().clone();
    let config = DealsConfig::default();
    let sites = Sites::load(&config.tenants_dir)?;
    let signer = Signer::generate("bench");
    let state = State::new(pool.clone(), store, config, sites, signer.verifier());
    fill(&state).await?;
    let app = crate::router(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let http = runtime::tls::client_builder().pool_max_idle_per_host(options.concurrency).build()?;
    let token = signer.sign(&signed_in(Uuid::now_v7(), "tushy"));
    let target = Arc::new(Target { http, base, token, signer });
    // Warm the connections and the plans.
    measure(&target, &options.with_total(500), Scenario::CarouselVisitor).await?;
    sqlx::query("analyze event, outbox, deal, interstitial_snooze, portal_subscription").execute(&pool).await?;
    let mut rows = Vec::new();
    for scenario in [Scenario::CarouselVisitor, Scenario::CarouselSignedIn, Scenario::ListingVisitor, Scenario::Snooze]
    {
        rows.push(measure(&target, options, scenario).await?);
    }
    server.abort();
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
            Scenario::Snooze => self
                .http
                .post(format!("{}/internal/interstitial/snooze", self.base))
                .bearer_auth(self.signer.sign(&signed_in(Uuid::now_v7(), "tushy")))
                .json(&json!({ "site": "tushy" })),
        };
        match request.send().await {
            Ok(response) if response.status().is_success() => response.bytes().await.is_ok(),
            _ => false,
        }
    }
}

async fn measure(target: &Arc<Target>, options: &LoadOptions, scenario: Scenario) -> anyhow::Result<Row> {
    let target = target.clone();
    options
        .measure(scenario.name(), move |_| {
            let target = target.clone();
            async move { target.once(scenario).await }
        })
        .await
}
