//! `paysite bench profile`: findOneUserProfile over real HTTP at 100 concurrent clients
//! (throughput and latency), and sign-ins per second at the configured argon2id cost, against
//! the real database in a scratch schema dropped afterwards.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use hdrhistogram::Histogram;
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope, EventMeta};
use runtime::auth::Claims;
use runtime::{db, EventStore};
use uuid::Uuid;

use crate::api::CreateAccountRequest;
use crate::config::{Argon2Cost, ProfileConfig};
use crate::login_page::{sign_in, SignIn, Target};
use crate::{State, MIGRATIONS};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub database_url: String,
    /// Clients reading profiles at once.
    pub concurrency: usize,
    /// Profile reads in all.
    pub reads: usize,
    /// Distinct users read.
    pub users: usize,
    /// Sign-ins in all, and how many at once.
    pub logins: usize,
    pub login_concurrency: usize,
    pub argon2: Argon2Cost,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            database_url: runtime::config::DEFAULT_DATABASE_URL.to_owned(),
            concurrency: 100,
            reads: 20_000,
            users: 200,
            logins: 200,
            login_concurrency: 4,
            argon2: Argon2Cost::default(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct BenchRow {
    pub scenario: String,
    pub count: u64,
    pub failed: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// `paysite bench profile`.
pub async fn run(settings: &runtime::Settings) -> anyhow::Result<()> {
    let options = BenchOptions { database_url: settings.database_url.expose().to_owned(), ..Default::default() };
    bench(&options).await.map(|_| ())
}

pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_profile_{}", &Uuid::new_v4().simple().to_string()[..12]);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, 32).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("profile", &MIGRATIONS)]).await?;
        let config = ProfileConfig { argon2: options.argon2, ..ProfileConfig::default() };
        let state = State::load(pool.clone(), EventStore::new(pool.clone(), &schema), config).await?;
        println!("paysite bench profile (2 cores shared with PostgreSQL; {} )\n", options.argon2);
        let users = make_users(&state, options.users).await?;
        let reads = profile_reads(&state, &users, options).await?;
        let logins = logins(&state, &users, options).await?;
        let rows = vec![reads, logins];
        print_rows(&rows);
        Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    result
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
        let encoded = proto_events::encode(&started);
        let envelope = Envelope {
            event_id: Uuid::now_v7(),
            stream_id: format!("subscription-{}", started.subscription_id()),
            stream_version: 1,
            event_type: encoded.event_type,
            schema_version: encoded.schema_version,
            occurred_at: Utc::now(),
            tenant: Some("vixen".into()),
            correlation_id: Uuid::now_v7(),
            causation_id: None,
            actor: Actor::System("bench".into()),
            payload: encoded.payload,
        };
        let mut conn = state.pool.acquire().await?;
        crate::projections::apply_member_event(&mut conn, &envelope).await?;
        users.push((created.user_id, username));
    }
    Ok(users)
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}

async fn profile_reads(state: &State, users: &[(Uuid, String)], options: &BenchOptions) -> anyhow::Result<BenchRow> {
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
    let http = runtime::tls::client_builder().pool_max_idle_per_host(options.concurrency).build()?;
    let url = format!("http://{addr}/internal/profile");
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..options.concurrency {
        let (http, url, tokens, next, total) = (http.clone(), url.clone(), tokens.clone(), next.clone(), options.reads);
        tasks.push(tokio::spawn(async move {
            let (mut h, mut failed) = (histogram(), 0u64);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let t = Instant::now();
                let ok = match http.get(&url).bearer_auth(&tokens[i % tokens.len()]).send().await {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                };
                h.record(t.elapsed().as_micros().max(1) as u64).ok();
                failed += u64::from(!ok);
            }
            (h, failed)
        }));
    }
    let (mut h, mut failed) = (histogram(), 0);
    for task in tasks {
        let (part, f) = task.await?;
        h.add(part).ok();
        failed += f;
    }
    let elapsed = started.elapsed();
    server.abort();
    Ok(row(format!("findOneUserProfile over HTTP, {} concurrent", options.concurrency), &h, failed, elapsed))
}

async fn logins(state: &State, users: &[(Uuid, String)], options: &BenchOptions) -> anyhow::Result<BenchRow> {
    let target = Target {
        origin: "http://vixen.localhost:8080".into(),
        audience: "vixen.localhost".into(),
        tenant: "vixen".into(),
        path: "/".into(),
    };
    let next = Arc::new(AtomicUsize::new(0));
    let users = Arc::new(users.to_vec());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..options.login_concurrency {
        let (state, target, next, users, total) =
            (state.clone(), target.clone(), next.clone(), users.clone(), options.logins);
        tasks.push(tokio::spawn(async move {
            let (mut h, mut failed) = (histogram(), 0u64);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let t = Instant::now();
                // Distinct addresses, so the failed-login limit never counts these.
                let address = format!("10.0.{worker}.{}", i % 250);
                let ok = matches!(
                    sign_in(&state, &users[i % users.len()].1, "Bench12345", &address, None, &target).await,
                    Ok(SignIn::Code { .. })
                );
                h.record(t.elapsed().as_micros().max(1) as u64).ok();
                failed += u64::from(!ok);
            }
            (h, failed)
        }));
    }
    let (mut h, mut failed) = (histogram(), 0);
    for task in tasks {
        let (part, f) = task.await?;
        h.add(part).ok();
        failed += f;
    }
    let elapsed = started.elapsed();
    Ok(row(format!("sign-in ({}), {} concurrent", options.argon2, options.login_concurrency), &h, failed, elapsed))
}

fn row(scenario: String, h: &Histogram<u64>, failed: u64, elapsed: Duration) -> BenchRow {
    let ms = |us: u64| us as f64 / 1000.0;
    BenchRow {
        scenario,
        count: h.len(),
        failed,
        per_second: h.len() as f64 / elapsed.as_secs_f64(),
        p50_ms: ms(h.value_at_quantile(0.5)),
        p99_ms: ms(h.value_at_quantile(0.99)),
        max_ms: ms(h.max()),
    }
}

fn print_rows(rows: &[BenchRow]) {
    println!(
        "{:<64} {:>8} {:>7} {:>10} {:>9} {:>9} {:>9}",
        "scenario", "count", "failed", "per s", "p50 ms", "p99 ms", "max ms"
    );
    for r in rows {
        println!(
            "{:<64} {:>8} {:>7} {:>10.0} {:>9.2} {:>9.2} {:>9.2}",
            r.scenario, r.count, r.failed, r.per_second, r.p50_ms, r.p99_ms, r.max_ms
        );
    }
}
