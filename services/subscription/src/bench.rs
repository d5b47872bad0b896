//! `paysite bench postbacks`: biller postbacks applied per second, signatures checked, over real
//! HTTP against the service's router and the real database, in a scratch schema dropped
//! afterwards; beside the same run's baselines (the signature check alone, in process, and the
//! raw insert of a postback row with no decision).
//!
//! Scenarios: initial sales (each a new subscription: account lookup, event, read model), rebills
//! of existing subscriptions (the stream folded, a renewal appended), and repeats of applied
//! postbacks (verified, then found already applied).

use std::sync::Arc;
use std::time::Instant;

use runtime::auth::Signer;
use runtime::bench::{Latency, LoadOptions, LoadStats, Row, Table};
use runtime::{EventStore, Settings};
use sqlx::PgPool;
use uuid::Uuid;

use crate::billers::{self, Outgoing, Received, SignedRequest};
use crate::config::Biller;
use crate::domain::Step;
use crate::{BillingConfig, State, MIGRATIONS};
use proto_events::subscription::MembershipKind;

/// How `paysite bench postbacks` prints its rows (the signature check's p50 is microseconds).
const TABLE: Table = Table::new("postbacks over HTTP, signatures checked", "requests", "per s")
    .with_latencies(&[Latency::P50, Latency::P99, Latency::Max], 3);

/// The defaults of `paysite bench postbacks`: 32 clients, 4,000 requests per scenario, 20
/// connections.
pub fn options(database_url: &str) -> LoadOptions {
    LoadOptions { database_url: database_url.to_owned(), concurrency: 32, total: 4_000, pool_size: 20 }
}

/// `paysite bench postbacks` with the defaults and the database of `settings`.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    bench(&options(settings.database_url.expose())).await.map(|_| ())
}

/// Runs the scenarios in a scratch schema, prints a table, and returns its rows.
pub async fn bench(options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    let migrations = [("subscription", &MIGRATIONS)];
    TABLE.run_in_scratch(options, "subscription", &migrations, |store| scenarios(store, options)).await
}

/// Requests of one scenario, built before the clock starts (signed when sent: the window).
#[derive(Clone)]
struct Job {
    biller: Biller,
    out: Outgoing,
}

/// Makes a run's requests: billers in turn, references and transactions of this run only.
struct Jobs {
    billers: Vec<Biller>,
    run_id: String,
}

impl Jobs {
    /// The jobs `range` of `kind` (a prefix of their transactions), each a postback of `step`.
    fn make(&self, range: std::ops::Range<usize>, kind: &str, step: &Step) -> Arc<Vec<Job>> {
        let job = |i: usize| Job {
            biller: self.billers[i % self.billers.len()].clone(),
            out: Outgoing::vixen(
                &format!("B{}-{i}", self.run_id),
                &format!("{kind}-{}-{i}", self.run_id),
                step.clone(),
                Uuid::from_u128(i as u128 + 1),
                "BENCH",
            ),
        };
        Arc::new(range.map(job).collect())
    }
}

/// The service under test over HTTP.
#[derive(Clone)]
struct Service {
    http: reqwest::Client,
    base: String,
}

impl Service {
    /// Signs and posts one postback; true when it was applied (or found applied).
    async fn send(&self, job: &Job) -> bool {
        let signed: SignedRequest = billers::encode(&job.biller, &job.out, chrono::Utc::now().timestamp());
        let mut request = self
            .http
            .post(format!("{}/billers/{}/postback", self.base, job.biller.name))
            .header("content-type", signed.content_type)
            .body(signed.body);
        if let Some(h) = signed.signature_header {
            request = request.header(billers::SIGNATURE_HEADER, h);
        }
        matches!(request.send().await, Ok(r) if r.status().is_success())
    }

    /// Posts every job, one per request of the closed loop.
    async fn post_each(&self, options: &LoadOptions, scenario: &str, jobs: &Arc<Vec<Job>>) -> anyhow::Result<Row> {
        let (service, jobs) = (self.clone(), jobs.clone());
        options
            .with_total(jobs.len())
            .measure(scenario, move |turn| {
                let (service, jobs) = (service.clone(), jobs.clone());
                async move { service.send(&jobs[turn.index]).await }
            })
            .await
    }
}

async fn scenarios(store: EventStore, options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    let pool = store.pool().clone();
    let config = BillingConfig::from_lookup(|_| None, false)?;
    let signer = Signer::generate("bench");
    let profile = profile_contract::client::ProfileClient::new("http://127.0.0.1:9");
    let state = State::new(pool.clone(), store, config.clone(), profile, signer.verifier());
    let app = crate::router(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let http = runtime::tls::client_builder().pool_max_idle_per_host(options.concurrency).build()?;
    let service = Service { http, base };
    let billers = ["EPOCH", "VXNBILL", "SEGPAY"].iter().map(|b| config.billers[*b].clone()).collect();
    let jobs = Jobs { billers, run_id: Uuid::now_v7().simple().to_string() };
    let n = options.total;
    let member = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
    let initials = jobs.make(0..n, "I", &member);
    let rebills = jobs.make(0..n, "K", &Step::Rebill);
    // Warm connections and plans on a few subscriptions of their own.
    service.post_each(options, "warm-up", &jobs.make(n..n + 200, "W", &member)).await?;
    sqlx::query("analyze").execute(&pool).await?;

    let signed: Arc<Vec<(Biller, SignedRequest)>> = Arc::new(
        initials
            .iter()
            .map(|j| (j.biller.clone(), billers::encode(&j.biller, &j.out, chrono::Utc::now().timestamp())))
            .collect(),
    );
    let mut rows = vec![signature_check(&signed), raw_insert(&pool, &signed, &jobs.run_id, options).await?];
    rows.push(service.post_each(options, "initial sales (new subscriptions)", &initials).await?);
    rows.push(service.post_each(options, "rebills of existing subscriptions", &rebills).await?);
    rows.push(service.post_each(options, "repeats (already applied)", &rebills).await?);
    // Where the time goes: the same path without HTTP (signature check, parse, group
    // commit), on second rebills of the same subscriptions.
    rows.push(in_process(&state, options, &jobs.make(0..n, "K2", &Step::Rebill)).await?);
    server.abort();
    count_events(&pool, n).await?;
    Ok(rows)
}

/// Baseline 1: the signature check alone, in process, one after another.
fn signature_check(signed: &[(Biller, SignedRequest)]) -> Row {
    let started = Instant::now();
    let mut verified = 0;
    for (b, r) in signed {
        let now = chrono::Utc::now().timestamp();
        verified +=
            billers::verify(b, &Received { signature_header: r.signature_header.as_deref(), body: &r.body }, now)
                .is_ok() as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    let count = signed.len() as u64;
    let stats = LoadStats {
        requests: count,
        failed: count - verified,
        per_second: count as f64 / secs,
        p50_ms: secs * 1000.0 / count as f64,
        p95_ms: f64::NAN,
        p99_ms: f64::NAN,
        max_ms: f64::NAN,
    };
    Row::new("baseline: signature check only (1 core)", stats)
}

/// Baseline 2: the raw insert of a postback row, no decision, no HTTP.
async fn raw_insert(
    pool: &PgPool,
    signed: &Arc<Vec<(Biller, SignedRequest)>>,
    run_id: &str,
    options: &LoadOptions,
) -> anyhow::Result<Row> {
    let (pool, signed, run_id) = (pool.clone(), signed.clone(), run_id.to_owned());
    options
        .measure("baseline: raw postback insert (SQL)", move |turn| {
            let (pool, signed, i) = (pool.clone(), signed.clone(), turn.index);
            let transaction_id = format!("R-{run_id}-{i}");
            async move {
                sqlx::query(
                    "insert into postback (biller, transaction_id, subscription_ref, step, occurred_at, raw_body)
                     values ('BASELINE', $1, $2, 'raw', now(), $3)",
                )
                .bind(transaction_id)
                .bind(format!("R-{i}"))
                .bind(String::from_utf8_lossy(&signed[i].1.body).into_owned())
                .execute(&pool)
                .await
                .is_ok()
            }
        })
        .await
}

/// The postbacks' path without HTTP: signature check, parse, group commit.
async fn in_process(state: &State, options: &LoadOptions, jobs: &Arc<Vec<Job>>) -> anyhow::Result<Row> {
    let (state, jobs) = (state.clone(), jobs.clone());
    options
        .measure("rebills in process (no HTTP)", move |turn| {
            let (state, jobs) = (state.clone(), jobs.clone());
            async move {
                let job = &jobs[turn.index];
                let signed = billers::encode(&job.biller, &job.out, chrono::Utc::now().timestamp());
                crate::postbacks::receive(
                    &state,
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
        .await
}

/// Each of the `n` subscriptions renewed twice (the rebills, then the in-process rebills), the
/// repeats applied none.
async fn count_events(pool: &PgPool, n: usize) -> anyhow::Result<()> {
    let events: i64 = sqlx::query_scalar("select count(*) from event").fetch_one(pool).await?;
    let renewals: i64 = sqlx::query_scalar("select count(*) from event where event_type = 'SubscriptionRenewed'")
        .fetch_one(pool)
        .await?;
    anyhow::ensure!(renewals == 2 * n as i64, "expected {} renewals, found {renewals}", 2 * n);
    println!("events written: {events} ({renewals} renewals: each rebill applied once, repeats none)");
    Ok(())
}
