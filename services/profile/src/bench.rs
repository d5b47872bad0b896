//! `paysite bench profile`: findOneUserProfile over real HTTP at 100 concurrent clients
//! (throughput and latency), and sign-ins per second at the configured argon2id cost, against
//! the real database in a scratch schema dropped afterwards.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, EventMeta};
use runtime::auth::Claims;
use runtime::bench::{Latency, LoadOptions, Row, ScratchSchema, Table};
use runtime::EventStore;
use uuid::Uuid;

use crate::api::CreateAccountRequest;
use crate::config::{Argon2Cost, ProfileConfig};
use crate::login_page::{sign_in, SignIn, Target};
use crate::{State, MIGRATIONS};

/// How `paysite bench profile` prints its rows (below its own title).
const TABLE: Table =
    Table::new("profile", "count", "per s").with_latencies(&[Latency::P50, Latency::P99, Latency::Max], 2);

/// What `paysite bench profile` runs: profile reads as the load (`total` reads from
/// `concurrency` clients), sign-ins apart.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The profile reads, and the connections of the service under test.
    pub load: LoadOptions,
    /// Distinct users read.
    pub users: usize,
    /// Sign-ins in all, and how many at once.
    pub logins: usize,
    pub login_concurrency: usize,
    pub argon2: Argon2Cost,
}

/// The defaults of `paysite bench profile`: 20,000 reads of 200 users from 100 clients, 200
/// sign-ins 4 at a time at the configured argon2id cost, 32 connections.
pub fn options(database_url: &str) -> BenchOptions {
    BenchOptions {
        load: LoadOptions { database_url: database_url.to_owned(), concurrency: 100, total: 20_000, pool_size: 32 },
        users: 200,
        logins: 200,
        login_concurrency: 4,
        argon2: Argon2Cost::default(),
    }
}

/// `paysite bench profile` with the defaults and the database of `settings`.
pub async fn run(settings: &runtime::Settings) -> anyhow::Result<()> {
    bench(&options(settings.database_url.expose())).await.map(|_| ())
}

/// Runs the scenarios in a scratch schema, prints a table, and returns its rows.
pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<Row>> {
    let load = &options.load;
    let scratch =
        ScratchSchema::fresh(&load.database_url, "profile", load.pool_size, &[("profile", &MIGRATIONS)]).await?;
    scratch.run(|store| scenarios(store, options)).await
}

async fn scenarios(store: EventStore, options: &BenchOptions) -> anyhow::Result<Vec<Row>> {
    let config = ProfileConfig { argon2: options.argon2, ..ProfileConfig::default() };
    let state = State::load(store.pool().clone(), store, config).await?;
    println!("paysite bench profile (2 cores shared with PostgreSQL; {} )\n", options.argon2);
    let users = make_users(&state, options.users).await?;
    let rows = vec![profile_reads(&state, &users, &options.load).await?, logins(&state, &users, options).await?];
    TABLE.print_rows(&rows);
    Ok(rows)
}

async fn make_users(state: &State, n: usize) -> anyhow::Result<Vec<(Uuid, String)>> {
    let meta = EventMeta::new(Actor::System("bench".into()));
    let mut users = Vec::with_capacity(n);
    for i in 0..n {
        let username = format!("bench{i}");
        let created = crate::http::create_account_with(
            state,
            CreateAccountRequest {
                user_id: None,
                username: Some(username.clone()),
                password: "Bench12345".into(),
                password_hash: None,
                email: format!("{username}@example.com"),
                site: "vixen".into(),
                biller: None,
                tandem_parent_user_id: None,
                vip_invited: false,
            },
            &meta,
        )
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        let started = SubscriptionEvent::SubscriptionStarted {
            subscription_id: Uuid::now_v7(),
            user_id: created.user_id,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: MembershipKind::Member,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: format!("BENCH-{i}"),
            active_since: Utc::now() - chrono::Duration::days(200),
            nats_code: None,
        };
        let mut conn = state.pool.acquire().await?;
        crate::projections::apply_subscription(&mut conn, &started).await?;
        users.push((created.user_id, username));
    }
    Ok(users)
}

async fn profile_reads(state: &State, users: &[(Uuid, String)], load: &LoadOptions) -> anyhow::Result<Row> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let app = crate::router(state.clone());
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let tokens: Arc<Vec<String>> = Arc::new(
        users
            .iter()
            .map(|(id, _)| {
                let claims =
                    Claims::new(*id, "vixen.localhost", "vixen", Uuid::now_v7(), vec![], Duration::from_secs(3600));
                state.signer.sign(&claims)
            })
            .collect(),
    );
    let http = runtime::tls::client_builder().pool_max_idle_per_host(load.concurrency).build()?;
    let url = format!("http://{addr}/internal/profile");
    let row = load
        .measure(format!("findOneUserProfile over HTTP, {} concurrent", load.concurrency), move |turn| {
            let request = http.get(&url).bearer_auth(&tokens[turn.index % tokens.len()]);
            async move {
                match request.send().await {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                }
            }
        })
        .await;
    server.abort();
    row
}

async fn logins(state: &State, users: &[(Uuid, String)], options: &BenchOptions) -> anyhow::Result<Row> {
    let target = Target {
        origin: "http://vixen.localhost:8080".into(),
        audience: "vixen.localhost".into(),
        tenant: "vixen".into(),
        path: "/".into(),
    };
    let (state, users) = (state.clone(), Arc::new(users.to_vec()));
    let load = LoadOptions { concurrency: options.login_concurrency, total: options.logins, ..options.load.clone() };
    load.measure(format!("sign-in ({}), {} concurrent", options.argon2, options.login_concurrency), move |turn| {
        let (state, target, users) = (state.clone(), target.clone(), users.clone());
        // Distinct addresses, so the failed-login limit never counts these.
        let address = format!("10.0.{}.{}", turn.client, turn.index % 250);
        async move {
            let username = &users[turn.index % users.len()].1;
            matches!(sign_in(&state, username, "Bench12345", &address, None, &target).await, Ok(SignIn::Code { .. }))
        }
    })
    .await
}
