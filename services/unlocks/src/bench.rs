//! `paysite bench unlocks`: download grants (the quota-counted write, under the user's lock)
//! and playback token issues (entitlement reads and eight signatures), against the real
//! database in a scratch schema dropped afterwards. Pack unlocks need the wallet running
//! and are measured by the tests' concurrency cases (see docs/benchmarks.md).

use chrono::Utc;
use proto_events::catalog::{CatalogEvent, Video};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, EventMeta};
use runtime::auth::Signer;
use runtime::{db, EventStore};
use uuid::Uuid;

use crate::projections::{apply_catalog_event, apply_subscription_event};
use crate::quota::{QuotaRule, QuotaRules};
use crate::{media, State, UnlocksConfig, MIGRATIONS};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub database_url: String,
    /// Clients at once, each one request after another.
    pub concurrency: usize,
    /// Requests per scenario.
    pub requests: usize,
    pub pool_size: u32,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            database_url: runtime::config::DEFAULT_DATABASE_URL.to_owned(),
            concurrency: 50,
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
    /// Each client its own user: downloads counted in parallel.
    DownloadsDistinctUsers,
    /// Every client on one user: downloads serialise on the user's lock.
    DownloadsOneUser,
    /// getToken for a member: subscriptions and unlocks read, eight tokens signed.
    PlaybackTokens,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::DownloadsDistinctUsers => "downloads, distinct users",
            Scenario::DownloadsOneUser => "downloads, one user",
            Scenario::PlaybackTokens => "playback tokens (8 qualities)",
        }
    }
}

/// `paysite bench unlocks`.
pub async fn run_default(database_url: &str) -> anyhow::Result<()> {
    bench(&BenchOptions { database_url: database_url.to_owned(), ..BenchOptions::default() }).await.map(|_| ())
}

/// Runs the scenarios, prints a table, and returns its rows.
pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_unlocks_{}", &Uuid::new_v4().simple().to_string()[..12]);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, options.pool_size).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("unlocks", &MIGRATIONS)]).await?;
        // Quotas large enough never to refuse: the bench measures the counted write.
        let big = QuotaRule { max: u32::MAX, days: 7 };
        let config = UnlocksConfig {
            quotas: QuotaRules { site: big, channels: big, ..QuotaRules::default() },
            ..UnlocksConfig::default()
        };
        let state = State::new(
            pool.clone(),
            EventStore::new(pool.clone(), &schema),
            config,
            Signer::generate("bench").verifier(),
        );
        let video = setup(&state).await?;
        let mut rows = Vec::new();
        for scenario in [Scenario::DownloadsDistinctUsers, Scenario::DownloadsOneUser, Scenario::PlaybackTokens] {
            rows.push(run(&state, options, scenario, video).await?);
        }
        anyhow::Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    let rows = result?;
    println!(
        "unlocks: {} clients, {} requests per scenario, {} connections",
        options.concurrency, options.requests, options.pool_size
    );
    println!(
        "{:<32} {:>8} {:>6} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "scenario", "requests", "failed", "per s", "p50 ms", "p95 ms", "p99 ms", "max ms"
    );
    for r in &rows {
        println!(
            "{:<32} {:>8} {:>6} {:>10.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            r.scenario, r.requests, r.failed, r.per_second, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms
        );
    }
    Ok(rows)
}

/// One published vixen video with every quality.
async fn setup(state: &State) -> anyhow::Result<Uuid> {
    let video_id = Uuid::now_v7();
    let video = Video {
        video_id,
        legacy_id: "bench".into(),
        new_id: "bench".into(),
        slug: "bench".into(),
        site: "vixen".into(),
        title: "Bench".into(),
        description: String::new(),
        release_date: Utc::now(),
        duration_seconds: 60,
        performer_ids: vec![],
        category_slugs: vec![],
        channel: None,
        is_third_party_channel: false,
        is_free_limited_trial: false,
        award: 0,
        qualities: crate::quota::QUALITIES.iter().map(|q| q.quality).collect(),
    };
    let mut tx = state.pool.begin().await?;
    apply_catalog_event(&mut tx, &CatalogEvent::VideoPublished { video, published_at: Utc::now() }).await?;
    tx.commit().await?;
    Ok(video_id)
}

async fn member(state: &State) -> anyhow::Result<Uuid> {
    let user_id = Uuid::now_v7();
    let mut tx = state.pool.begin().await?;
    apply_subscription_event(
        &mut tx,
        &SubscriptionEvent::SubscriptionStarted {
            subscription_id: Uuid::now_v7(),
            user_id,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: MembershipKind::Member,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: "bench".into(),
            active_since: Utc::now(),
            nats_code: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(user_id)
}

async fn run(state: &State, options: &BenchOptions, scenario: Scenario, video: Uuid) -> anyhow::Result<BenchRow> {
    let users: Vec<Uuid> = match scenario {
        Scenario::DownloadsOneUser => vec![member(state).await?],
        _ => {
            let mut users = Vec::new();
            for _ in 0..options.concurrency {
                users.push(member(state).await?);
            }
            users
        }
    };
    let shared = state.clone();
    let stats = runtime::bench::closed_loop(options.concurrency, options.requests, move |client| {
        let (state, user_id) = (shared.clone(), users[client % users.len()]);
        async move {
            let meta = EventMeta::new(Actor::User(user_id));
            match scenario {
                Scenario::PlaybackTokens => {
                    media::video_tokens(&state, user_id, video, "desktop", Some("vixen"), &meta).await.is_ok()
                }
                _ => media::download(&state, user_id, video, "p1080", Some("vixen"), &meta).await.is_ok(),
            }
        }
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
