//! `paysite bench unlocks`: download grants (the quota-counted write, under the user's lock)
//! and playback token issues (the subscription service's read over HTTP, the access rules,
//! eight signatures), against the real database in scratch schemas dropped afterwards, with
//! the real subscription service served beside. Pack unlocks need the wallet running and are
//! measured by the tests' concurrency cases (see docs/benchmarks.md).

use chrono::Utc;
use proto_events::catalog::{CatalogEvent, Video};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Claims, Signer};
use runtime::{db, EventStore};
use uuid::Uuid;

use crate::entitlement::Asker;
use crate::projections::{apply_catalog_event, apply_subscription_event};
use crate::quota::{QuotaRule, QuotaRules};
use crate::{media, State, UnlocksConfig, MIGRATIONS};

/// The subscription service, served on a free port of this machine in its own schema.
struct Owner {
    pool: sqlx::PgPool,
    schema: String,
    url: String,
}

async fn subscription_owner(database_url: &str, signer: &Signer) -> anyhow::Result<Owner> {
    let schema = format!("bench_subscription_{}", &Uuid::new_v4().simple().to_string()[..12]);
    let pool = db::connect(database_url, &schema, 8).await?;
    db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("subscription", &subscription::MIGRATIONS)])
        .await?;
    let state = subscription::State::new(
        pool.clone(),
        EventStore::new(pool.clone(), &schema),
        subscription::BillingConfig::from_lookup(|_| None, false)?,
        profile::client::ProfileClient::new("http://127.0.0.1:9"),
        signer.verifier(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let app = subscription::http::router(state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(Owner { pool, schema, url })
}

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
    /// A player's range request (64 KiB) of a file served as it is, with no check at all: the
    /// baseline of the next one, same file, same HTTP stack, same run.
    MediaUnchecked,
    /// The same range request through the media endpoint: the media token's signature, the
    /// holder's access token, and what opened the video not revoked since (issue 19).
    MediaChecked,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::DownloadsDistinctUsers => "downloads, distinct users",
            Scenario::DownloadsOneUser => "downloads, one user",
            Scenario::PlaybackTokens => "playback tokens (8 qualities)",
            Scenario::MediaUnchecked => "media range, unchecked",
            Scenario::MediaChecked => "media range, checked",
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
    let signer = Signer::generate("bench");
    let owner = subscription_owner(&options.database_url, &signer).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("unlocks", &MIGRATIONS)]).await?;
        // Quotas large enough never to refuse: the bench measures the counted write.
        let big = QuotaRule { max: u32::MAX, days: 7 };
        let config = UnlocksConfig {
            quotas: QuotaRules { site: big, channels: big, ..QuotaRules::default() },
            subscription_url: owner.url.clone(),
            ..UnlocksConfig::default()
        };
        let state = State::new(pool.clone(), EventStore::new(pool.clone(), &schema), config, signer.verifier());
        let video = setup(&state).await?;
        let mut rows = Vec::new();
        for scenario in [Scenario::DownloadsDistinctUsers, Scenario::DownloadsOneUser, Scenario::PlaybackTokens] {
            rows.push(run(&state, &owner, &signer, options, scenario, video).await?);
        }
        // The media check's cost: the two side by side, interleaved twice, in one run.
        let media = MediaBench::start(&state, &owner, &signer, video).await?;
        for scenario in
            [Scenario::MediaUnchecked, Scenario::MediaChecked, Scenario::MediaUnchecked, Scenario::MediaChecked]
        {
            rows.push(media.run(options, scenario).await?);
        }
        anyhow::Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    let _ = sqlx::query(&format!("drop schema {} cascade", owner.schema)).execute(&owner.pool).await;
    owner.pool.close().await;
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
    let pick = |name: &str| rows.iter().filter(|r| r.scenario == name).collect::<Vec<_>>();
    let (checked, unchecked) = (pick("media range, checked"), pick("media range, unchecked"));
    if let (Some(c), Some(u)) = (checked.last(), unchecked.last()) {
        println!(
            "media check: p50 +{:.2} ms, p99 +{:.2} ms per range request (last pair; target: p99 +1 ms at most); throughput checked/unchecked {:.2}",
            c.p50_ms - u.p50_ms,
            c.p99_ms - u.p99_ms,
            c.per_second / u.per_second
        );
    }
    Ok(rows)
}

/// The media endpoint and a plain file server of the same file, both on loopback.
struct MediaBench {
    checked_url: String,
    unchecked_url: String,
    bearer: String,
    http: reqwest::Client,
}

impl MediaBench {
    async fn start(state: &State, owner: &Owner, signer: &Signer, video: Uuid) -> anyhow::Result<MediaBench> {
        crate::demo::ensure(&state.config.media_dir)?;
        let user_id = member(state, owner).await?;
        let claims = Claims::new(
            user_id,
            "vixen.localhost:8080",
            "vixen",
            Uuid::now_v7(),
            vec![],
            std::time::Duration::from_secs(3600),
        );
        let bearer = signer.sign(&claims);
        let asker = Asker::of(&claims, "vixen", Some(&bearer));
        let meta = EventMeta::new(Actor::User(user_id));
        let tokens = media::video_tokens(state, &asker, video, "desktop", &meta)
            .await
            .map_err(|e| anyhow::anyhow!("no token for the bench: {e}"))?;
        let token = tokens.tokens.p1080.ok_or_else(|| anyhow::anyhow!("no p1080 token"))?.token;
        let serve = |app: axum::Router| async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let base = format!("http://{}", listener.local_addr()?);
            tokio::spawn(async move { axum::serve(listener, app).await });
            anyhow::Ok(base)
        };
        let checked = serve(crate::router(state.clone())).await?;
        let file = media::media_file(&state.config.media_dir, video, proto_events::catalog::VideoQuality::P1080)
            .ok_or_else(|| anyhow::anyhow!("no demo file"))?;
        let plain = axum::Router::new().route_service("/file", tower_http::services::ServeFile::new(file));
        let unchecked = serve(plain).await?;
        Ok(MediaBench {
            checked_url: format!("{checked}/media/videos/{video}/p1080?token={token}"),
            unchecked_url: format!("{unchecked}/file"),
            bearer,
            http: runtime::tls::client_builder().pool_max_idle_per_host(256).build()?,
        })
    }

    async fn run(&self, options: &BenchOptions, scenario: Scenario) -> anyhow::Result<BenchRow> {
        let url = if scenario == Scenario::MediaChecked { &self.checked_url } else { &self.unchecked_url };
        let (http, url, bearer) = (self.http.clone(), url.clone(), self.bearer.clone());
        let stats = runtime::bench::closed_loop(options.concurrency, options.requests, move |_| {
            let request = http.get(&url).bearer_auth(&bearer).header("range", "bytes=0-65535");
            async move {
                match request.send().await {
                    Ok(r) if r.status() == reqwest::StatusCode::PARTIAL_CONTENT => r.bytes().await.is_ok(),
                    _ => false,
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

/// A vixen member, as the subscription service records one (and this service hears of it).
async fn member(state: &State, owner: &Owner) -> anyhow::Result<Uuid> {
    let user_id = Uuid::now_v7();
    let started = SubscriptionEvent::SubscriptionStarted {
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
    };
    let mut tx = owner.pool.begin().await?;
    subscription::projections::apply_subscription_event(&mut tx, &started).await?;
    tx.commit().await?;
    let mut tx = state.pool.begin().await?;
    apply_subscription_event(&mut tx, &started, Utc::now()).await?;
    tx.commit().await?;
    Ok(user_id)
}

async fn run(
    state: &State,
    owner: &Owner,
    signer: &Signer,
    options: &BenchOptions,
    scenario: Scenario,
    video: Uuid,
) -> anyhow::Result<BenchRow> {
    let count = if scenario == Scenario::DownloadsOneUser { 1 } else { options.concurrency };
    let mut askers = Vec::new();
    for _ in 0..count {
        let user_id = member(state, owner).await?;
        let claims = Claims::new(
            user_id,
            "vixen.localhost:8080",
            "vixen",
            Uuid::now_v7(),
            vec![],
            std::time::Duration::from_secs(3600),
        );
        askers.push(Asker::of(&claims, "vixen", Some(&signer.sign(&claims))));
    }
    let shared = state.clone();
    let stats = runtime::bench::closed_loop(options.concurrency, options.requests, move |client| {
        let (state, asker) = (shared.clone(), askers[client % askers.len()].clone());
        async move {
            let meta = EventMeta::new(Actor::User(asker.user_id));
            match scenario {
                Scenario::PlaybackTokens => media::video_tokens(&state, &asker, video, "desktop", &meta).await.is_ok(),
                _ => media::download(&state, &asker, video, "p1080", &meta).await.is_ok(),
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
