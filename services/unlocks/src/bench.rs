//! `paysite bench unlocks`: download grants (the quota-counted write, under the user's lock),
//! playback token issues (the subscription service's read over HTTP, the access rules, eight
//! signatures) and pack unlocks (the whole request: the pack's brand, the access facts, the
//! wallet's debit over HTTP, the record), against the real database in scratch schemas dropped
//! afterwards, with the real subscription service and wallet served beside.

use chrono::Utc;
use proto_events::catalog::{CatalogEvent, ChannelKind, Video};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, EventMeta};
use runtime::auth::Signer;
use runtime::bench::{signed_in, LoadOptions, Row, ScratchSchema, Table};
use runtime::{EventStore, Settings};
use uuid::Uuid;

use crate::entitlement::Asker;
use crate::projections::{apply_catalog_event, apply_subscription_event};
use crate::quota::{QuotaRule, QuotaRules};
use crate::{media, State, UnlocksConfig, MIGRATIONS};

/// How `paysite bench unlocks` prints its rows.
const TABLE: Table = Table::new("unlocks", "requests", "per s");

/// The defaults of `paysite bench unlocks`: 50 clients, 5,000 requests per scenario, 20 connections.
pub fn options(database_url: &str) -> LoadOptions {
    LoadOptions { database_url: database_url.to_owned(), concurrency: 50, total: 5_000, pool_size: 20 }
}

/// The subscription service, served on a free port of this machine in its own schema.
struct Owner {
    pool: sqlx::PgPool,
    url: String,
}

impl Owner {
    async fn serve(store: EventStore, signer: &Signer) -> anyhow::Result<Owner> {
        let pool = store.pool().clone();
        let state = subscription::State::new(
            pool.clone(),
            store,
            subscription::BillingConfig::from_lookup(|_| None, false)?,
            profile::client::ProfileClient::new("http://127.0.0.1:9"),
            signer.verifier(),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let app = subscription::http::router(state);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Owner { pool, url })
    }
}

/// The wallet, served on a free port of this machine in its own schema.
struct Wallet {
    pool: sqlx::PgPool,
    store: EventStore,
    url: String,
}

impl Wallet {
    async fn serve(store: EventStore, signer: &Signer) -> anyhow::Result<Wallet> {
        let pool = store.pool().clone();
        let state = wallet::State::new(pool.clone(), store.clone(), wallet::WalletConfig::default())
            .with_verifier(signer.verifier());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let app = wallet::router(state);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Wallet { pool, store, url })
    }

    /// Gives a wallet `gems` gems, as a retention deal does.
    async fn fund_gems(&self, user_id: Uuid, gems: u64) -> anyhow::Result<()> {
        let command = wallet::domain::Command::GrantRetentionGems {
            subscription_id: Uuid::now_v7(),
            transaction_id: format!("BENCH-{}", Uuid::now_v7()),
            amount: gems,
        };
        let meta = EventMeta::new(Actor::System("bench".into()));
        let mut tx = self.pool.begin().await?;
        let item = wallet::commands::Item::new(command, meta);
        let outcome = wallet::commands::run_in(&mut tx, &self.store, user_id, &[item]).await?.remove(0);
        outcome.map_err(|refused| anyhow::anyhow!("the wallet refused the bench's gems: {refused}"))?;
        tx.commit().await?;
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    /// Each client its own user: downloads counted in parallel.
    DownloadsDistinctUsers,
    /// Every client on one user: downloads serialise on the user's lock.
    DownloadsOneUser,
    /// getToken for a member: subscriptions and unlocks read, eight tokens signed.
    PlaybackTokens,
    /// A member's pack unlock with gems, each request a pack the member does not hold yet.
    PackUnlocks,
    /// A player's range request (64 KiB) of a file served as it is, with no check at all: the
    /// baseline of the next one, same file, same HTTP stack, same run.
    MediaUnchecked,
    /// The same range request through the media endpoint: the media token's signature, the
    /// holder's access token, and what opened the video not revoked since.
    MediaChecked,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::DownloadsDistinctUsers => "downloads, distinct users",
            Scenario::DownloadsOneUser => "downloads, one user",
            Scenario::PlaybackTokens => "playback tokens (8 qualities)",
            Scenario::PackUnlocks => "pack unlocks (brand, access, debit, record)",
            Scenario::MediaUnchecked => "media range, unchecked",
            Scenario::MediaChecked => "media range, checked",
        }
    }
}

/// `paysite bench unlocks` with the defaults and the database of `settings`.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    bench(&options(settings.database_url.expose())).await.map(|_| ())
}

/// Runs the scenarios in scratch schemas (this service's, the subscription service's and the
/// wallet's), prints a table, and returns its rows.
pub async fn bench(options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    let url = &options.database_url;
    let scratch = ScratchSchema::fresh(url, "unlocks", options.pool_size, &[("unlocks", &MIGRATIONS)]).await?;
    let rows = scratch
        .run(|store| async move {
            let migrations = [("subscription", &subscription::MIGRATIONS)];
            let owner = ScratchSchema::fresh(url, "subscription", 8, &migrations).await?;
            owner
                .run(|owner| async move {
                    let migrations = [("wallet", &wallet::MIGRATIONS)];
                    let wallet = ScratchSchema::fresh(url, "wallet", 8, &migrations).await?;
                    wallet.run(|wallet| scenarios(store, owner, wallet, options)).await
                })
                .await
        })
        .await?;
    TABLE.print(options, &rows);
    print_media_check(&rows);
    Ok(rows)
}

async fn scenarios(
    store: EventStore,
    owner: EventStore,
    wallet: EventStore,
    options: &LoadOptions,
) -> anyhow::Result<Vec<Row>> {
    let signer = Signer::generate("bench");
    let owner = Owner::serve(owner, &signer).await?;
    let wallet = Wallet::serve(wallet, &signer).await?;
    // Quotas large enough never to refuse: the bench measures the counted write.
    let big = QuotaRule { max: u32::MAX, days: 7 };
    let config = UnlocksConfig {
        quotas: QuotaRules { site: big, channels: big, ..QuotaRules::default() },
        subscription_url: owner.url.clone(),
        wallet_url: wallet.url.clone(),
        ..UnlocksConfig::default()
    };
    let state = State::new(store.pool().clone(), store, config, signer.verifier());
    let video = setup(&state).await?;
    let mut rows = Vec::new();
    for scenario in [Scenario::DownloadsDistinctUsers, Scenario::DownloadsOneUser, Scenario::PlaybackTokens] {
        rows.push(measure(&state, &owner, &signer, options, scenario, video).await?);
    }
    rows.push(measure_pack_unlocks(&state, &owner, &wallet, &signer, options).await?);
    // The media check's cost: the two side by side, interleaved twice, in one run.
    let media = MediaBench::start(&state, &owner, &signer, video).await?;
    for scenario in [Scenario::MediaUnchecked, Scenario::MediaChecked, Scenario::MediaUnchecked, Scenario::MediaChecked]
    {
        rows.push(media.measure(options, scenario).await?);
    }
    Ok(rows)
}

/// The media check's cost, from the last checked and unchecked rows.
fn print_media_check(rows: &[Row]) {
    let last = |scenario: Scenario| rows.iter().rfind(|r| r.scenario == scenario.name()).map(|r| &r.stats);
    if let (Some(c), Some(u)) = (last(Scenario::MediaChecked), last(Scenario::MediaUnchecked)) {
        println!(
            "media check: p50 +{:.2} ms, p99 +{:.2} ms per range request (last pair; target: p99 +1 ms at most); throughput checked/unchecked {:.2}",
            c.p50_ms - u.p50_ms,
            c.p99_ms - u.p99_ms,
            c.per_second / u.per_second
        );
    }
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
        let claims = signed_in(user_id, "vixen");
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

    async fn measure(&self, options: &LoadOptions, scenario: Scenario) -> anyhow::Result<Row> {
        let url = if scenario == Scenario::MediaChecked { &self.checked_url } else { &self.unchecked_url };
        let (http, url, bearer) = (self.http.clone(), url.clone(), self.bearer.clone());
        options
            .measure(scenario.name(), move |_| {
                let request = http.get(&url).bearer_auth(&bearer).header("range", "bytes=0-65535");
                async move {
                    match request.send().await {
                        Ok(r) if r.status() == reqwest::StatusCode::PARTIAL_CONTENT => r.bytes().await.is_ok(),
                        _ => false,
                    }
                }
            })
            .await
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

/// `options.total` pack unlocks: one vixen channel with enough packs that each member
/// unlocks a pack it does not hold yet at every turn, each member funded for all of them.
async fn measure_pack_unlocks(
    state: &State,
    owner: &Owner,
    wallet: &Wallet,
    signer: &Signer,
    options: &LoadOptions,
) -> anyhow::Result<Row> {
    let members = options.concurrency.max(1);
    let packs_per_member = options.total.div_ceil(members);
    let channel_id = Uuid::now_v7();
    let packs: Vec<Uuid> = (0..packs_per_member).map(|_| Uuid::now_v7()).collect();
    let mut tx = state.pool.begin().await?;
    let channel = CatalogEvent::ChannelPublished {
        channel_id,
        slug: "bench-channel".into(),
        name: "Bench channel".into(),
        kind: ChannelKind::Internal,
        category: None,
        sites: vec!["vixen".into()],
        published_at: Utc::now(),
    };
    apply_catalog_event(&mut tx, &channel).await?;
    for (n, channel_pack_id) in packs.iter().enumerate() {
        let pack = CatalogEvent::ChannelPackPublished {
            channel_pack_id: *channel_pack_id,
            channel_id,
            slug: format!("bench-pack-{n}"),
            name: format!("Bench pack {n}"),
            video_ids: vec![],
            published_at: Utc::now(),
        };
        apply_catalog_event(&mut tx, &pack).await?;
    }
    tx.commit().await?;
    let mut askers = Vec::new();
    for _ in 0..members {
        let user_id = member(state, owner).await?;
        wallet.fund_gems(user_id, packs.len() as u64 * u64::from(state.config.pack_gems)).await?;
        let claims = signed_in(user_id, "vixen");
        askers.push(Asker::of(&claims, "vixen", Some(&signer.sign(&claims))));
    }
    let shared = state.clone();
    options
        .measure(Scenario::PackUnlocks.name(), move |turn| {
            let (state, asker) = (shared.clone(), askers[turn.index % members].clone());
            let pack = packs[turn.index / members];
            async move {
                let meta = EventMeta::new(Actor::User(asker.user_id));
                crate::domain::process::unlock_channel_pack(&state, &asker, pack, &meta).await.is_ok()
            }
        })
        .await
}

async fn measure(
    state: &State,
    owner: &Owner,
    signer: &Signer,
    options: &LoadOptions,
    scenario: Scenario,
    video: Uuid,
) -> anyhow::Result<Row> {
    let count = if scenario == Scenario::DownloadsOneUser { 1 } else { options.concurrency };
    let mut askers = Vec::new();
    for _ in 0..count {
        let claims = signed_in(member(state, owner).await?, "vixen");
        askers.push(Asker::of(&claims, "vixen", Some(&signer.sign(&claims))));
    }
    let shared = state.clone();
    options
        .measure(scenario.name(), move |turn| {
            let (state, asker) = (shared.clone(), askers[turn.client % askers.len()].clone());
            async move {
                let meta = EventMeta::new(Actor::User(asker.user_id));
                match scenario {
                    Scenario::PlaybackTokens => {
                        media::video_tokens(&state, &asker, video, "desktop", &meta).await.is_ok()
                    }
                    _ => media::download(&state, &asker, video, "p1080", &meta).await.is_ok(),
                }
            }
        })
        .await
}
