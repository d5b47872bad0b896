//! `paysite bench postbacks`: biller postbacks applied per second, signatures checked, over real
//! HTTP against the service's router and the real database, in a scratch schema dropped
//! afterwards; beside the same run's baselines (the signature check alone, in process, and the
//! raw insert of a postback row with no decision).
//!
//! Scenarios: initial sales (each a new subscription: account lookup, event, read model), rebills
//! of existing subscriptions (the stream folded, a renewal appended), and repeats of applied
//! postbacks (verified, then found already applied).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use runtime::auth::Signer;
use runtime::{db, EventStore, Settings};
use uuid::Uuid;

use crate::billers::{self, Outgoing, Received, SignedRequest};
use crate::config::Biller;
use crate::domain::Step;
use crate::{BillingConfig, State, MIGRATIONS};
use proto_events::subscription::MembershipKind;

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
            requests: 4_000,
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
    pub p99_ms: f64,
    pub max_ms: f64,
}

fn percentile_ms(sorted_us: &[u64], p: f64) -> f64 {
    if sorted_us.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted_us.len() - 1) as f64).round() as usize;
    sorted_us[rank] as f64 / 1000.0
}

/// `paysite bench postbacks` with the defaults and the database of `settings`.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let options = BenchOptions { database_url: settings.database_url.expose().to_owned(), ..BenchOptions::default() };
    bench(&options).await.map(|_| ())
}

/// Requests of one scenario, built before the clock starts (signed when sent: the window).
#[derive(Clone)]
struct Job {
    biller: Biller,
    out: Outgoing,
}

fn outgoing(subscription_ref: String, transaction_id: String, step: Step, user: Uuid) -> Outgoing {
    Outgoing {
        subscription_ref,
        transaction_id,
        step: Ok(step),
        site: Some("vixen".into()),
        join_option_id: Some(10301),
        email: None,
        username: None,
        user_id: Some(user),
        signup_id: None,
        nats_code: Some("BENCH".into()),
    }
}

async fn measure<F, Fut>(name: &'static str, jobs: usize, concurrency: usize, f: F) -> BenchRow
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = bool> + Send + 'static,
{
    let f = Arc::new(f);
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (f, next) = (f.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut failed = 0u64;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs {
                    break;
                }
                let t = Instant::now();
                if !f(i).await {
                    failed += 1;
                }
                latencies.push(t.elapsed().as_micros() as u64);
            }
            (latencies, failed)
        }));
    }
    let mut all = Vec::with_capacity(jobs);
    let mut failed = 0;
    for t in tasks {
        let (l, f) = t.await.expect("bench task");
        all.extend(l);
        failed += f;
    }
    let elapsed = start.elapsed().as_secs_f64();
    all.sort_unstable();
    BenchRow {
        scenario: name,
        requests: all.len() as u64,
        failed,
        per_second: all.len() as f64 / elapsed,
        p50_ms: percentile_ms(&all, 50.0),
        p99_ms: percentile_ms(&all, 99.0),
        max_ms: all.last().copied().unwrap_or(0) as f64 / 1000.0,
    }
}

/// Runs the scenarios, prints a table, and returns its rows.
pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_subscription_{}", &Uuid::new_v4().simple().to_string()[..12]);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, options.pool_size).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("subscription", &MIGRATIONS)]).await?;
        let config = BillingConfig::from_lookup(|_| None, false)?;
        let signer = Signer::generate("bench");
        let profile = profile_contract::client::ProfileClient::new("http://127.0.0.1:9");
        let state = State::new(
            pool.clone(),
            EventStore::new(pool.clone(), &schema),
            config.clone(),
            profile,
            signer.verifier(),
        );
        let app = crate::router(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let server = tokio::spawn(async move { axum::serve(listener, app).await });
        let http = runtime::tls::client_builder().pool_max_idle_per_host(options.concurrency).build()?;
        let billers: Vec<Biller> = ["EPOCH", "VXNBILL", "SEGPAY"].iter().map(|b| config.billers[*b].clone()).collect();
        let n = options.requests;
        let run_id = Uuid::now_v7().simple().to_string();
        let job = |i: usize, kind: &str, step: Step| {
            let biller = billers[i % billers.len()].clone();
            let out = outgoing(
                format!("B{run_id}-{i}"),
                format!("{kind}-{run_id}-{i}"),
                step,
                Uuid::from_u128(i as u128 + 1),
            );
            Job { biller, out }
        };
        let member = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
        let initials: Arc<Vec<Job>> = Arc::new((0..n).map(|i| job(i, "I", member.clone())).collect());
        let rebills: Arc<Vec<Job>> = Arc::new((0..n).map(|i| job(i, "K", Step::Rebill)).collect());
        let send = {
            let (http, base) = (http.clone(), base.clone());
            move |job: Job| {
                let (http, base) = (http.clone(), base.clone());
                async move {
                    let signed: SignedRequest = billers::encode(&job.biller, &job.out, chrono::Utc::now().timestamp());
                    let mut request = http
                        .post(format!("{base}/billers/{}/postback", job.biller.name))
                        .header("content-type", signed.content_type)
                        .body(signed.body);
                    if let Some(h) = signed.signature_header {
                        request = request.header(billers::SIGNATURE_HEADER, h);
                    }
                    matches!(request.send().await, Ok(r) if r.status().is_success())
                }
            }
        };
        // Warm connections and plans on a few subscriptions of their own.
        let warm: Arc<Vec<Job>> = Arc::new((0..200).map(|i| job(n + i, "W", member.clone())).collect());
        let (s, w) = (send.clone(), warm.clone());
        measure("warm-up", warm.len(), options.concurrency, move |i| s(w[i].clone())).await;
        sqlx::query("analyze").execute(&pool).await?;

        let mut rows = Vec::new();
        // Baseline 1: the signature check alone, in process.
        let signed: Arc<Vec<(Biller, SignedRequest)>> = Arc::new(
            initials
                .iter()
                .map(|j| (j.biller.clone(), billers::encode(&j.biller, &j.out, chrono::Utc::now().timestamp())))
                .collect(),
        );
        let verify_start = Instant::now();
        let mut verified = 0;
        for (b, r) in signed.iter() {
            let now = chrono::Utc::now().timestamp();
            verified +=
                billers::verify(b, &Received { signature_header: r.signature_header.as_deref(), body: &r.body }, now)
                    .is_ok() as u64;
        }
        let secs = verify_start.elapsed().as_secs_f64();
        rows.push(BenchRow {
            scenario: "baseline: signature check only (1 core)",
            requests: signed.len() as u64,
            failed: signed.len() as u64 - verified,
            per_second: signed.len() as f64 / secs,
            p50_ms: secs * 1000.0 / signed.len() as f64,
            p99_ms: f64::NAN,
            max_ms: f64::NAN,
        });
        // Baseline 2: the raw insert of a postback row, no decision, no HTTP.
        let (p, sig) = (pool.clone(), signed.clone());
        let raw_run = run_id.clone();
        rows.push(
            measure("baseline: raw postback insert (SQL)", n, options.concurrency, move |i| {
                let (p, sig, raw_run) = (p.clone(), sig.clone(), raw_run.clone());
                async move {
                    sqlx::query(
                        "insert into postback (biller, transaction_id, subscription_ref, step, occurred_at, raw_body)
                         values ('BASELINE', $1, $2, 'raw', now(), $3)",
                    )
                    .bind(format!("R-{raw_run}-{i}"))
                    .bind(format!("R-{i}"))
                    .bind(String::from_utf8_lossy(&sig[i].1.body).into_owned())
                    .execute(&p)
                    .await
                    .is_ok()
                }
            })
            .await,
        );
        let (s, j) = (send.clone(), initials.clone());
        rows.push(measure("initial sales (new subscriptions)", n, options.concurrency, move |i| s(j[i].clone())).await);
        let (s, j) = (send.clone(), rebills.clone());
        rows.push(measure("rebills of existing subscriptions", n, options.concurrency, move |i| s(j[i].clone())).await);
        let (s, j) = (send.clone(), rebills.clone());
        rows.push(measure("repeats (already applied)", n, options.concurrency, move |i| s(j[i].clone())).await);
        // Where the time goes: the same path without HTTP (signature check, parse, group
        // commit), on second rebills of the same subscriptions.
        let second: Arc<Vec<Job>> = Arc::new((0..n).map(|i| job(i, "K2", Step::Rebill)).collect());
        let (st, j) = (state.clone(), second.clone());
        rows.push(
            measure("rebills in process (no HTTP)", n, options.concurrency, move |i| {
                let (st, job) = (st.clone(), j[i].clone());
                async move {
                    let signed = billers::encode(&job.biller, &job.out, chrono::Utc::now().timestamp());
                    crate::postbacks::receive(
                        &st,
                        &job.biller.name,
                        signed.signature_header.as_deref(),
                        Some(signed.content_type),
                        &signed.body,
                        None,
                    )
                    .await
                    .is_ok()
                }
            })
            .await,
        );
        let events: i64 = sqlx::query_scalar("select count(*) from event").fetch_one(&pool).await?;
        let renewals: i64 = sqlx::query_scalar("select count(*) from event where event_type = 'SubscriptionRenewed'")
            .fetch_one(&pool)
            .await?;
        server.abort();
        anyhow::ensure!(renewals == 2 * n as i64, "expected {} renewals, found {renewals}", 2 * n);
        println!("events written: {events} ({renewals} renewals: each rebill applied once, repeats none)");
        anyhow::Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    let rows = result?;
    println!(
        "postbacks over HTTP, signatures checked: {} clients, {} requests per scenario, {} connections",
        options.concurrency, options.requests, options.pool_size
    );
    println!(
        "{:<42} {:>8} {:>6} {:>9} {:>8} {:>8} {:>8}",
        "scenario", "requests", "failed", "per s", "p50 ms", "p99 ms", "max ms"
    );
    for r in &rows {
        println!(
            "{:<42} {:>8} {:>6} {:>9.0} {:>8.3} {:>8.2} {:>8.2}",
            r.scenario, r.requests, r.failed, r.per_second, r.p50_ms, r.p99_ms, r.max_ms
        );
    }
    Ok(rows)
}
