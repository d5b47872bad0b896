//! Test harness: the unlocks service, and the real wallet and subscription services it asks,
//! each in its own scratch schema of `paysite_test` (see `runtime::testing`), all served over
//! HTTP on free ports.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use proto_events::catalog::{CatalogEvent, ChannelCategory, Video, VideoChannel};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope, EventFamily};
use runtime::auth::{Claims, Signer};
use runtime::consumer::Handler;
use runtime::testing::{self, Scratch, Versions};
use tokio_util::sync::CancellationToken;
use unlocks::entitlement::Asker;
use unlocks::{State, UnlocksConfig};
use uuid::Uuid;

#[allow(unused_imports)]
pub use runtime::testing::{amqp_url, database_url, kill9};

/// Where the tests' demo media is generated (once, shared by every test).
pub fn media_dir() -> std::path::PathBuf {
    std::env::var("UNLOCKS_TEST_MEDIA_DIR").unwrap_or_else(|_| "/var/tmp/paysite-media-test".into()).into()
}

pub struct TestEnv {
    pub scratch: Scratch,
    pub wallet_scratch: Scratch,
    /// The subscription service's schema: the owner of the reads the access rules take.
    pub subscription_scratch: Scratch,
    pub subscription_url: String,
    pub state: State,
    pub wallet: wallet::State,
    pub wallet_url: String,
    pub base: String,
    pub signer: Signer,
    /// The seed of `signer`, for a process of its own that must trust the same tokens.
    pub signer_seed: [u8; 32],
    pub clock: Arc<Mutex<Option<DateTime<Utc>>>>,
    versions: Versions,
}

runtime::deref_scratch!(TestEnv, scratch);

pub fn test_config(schema: &str, wallet_url: &str, subscription_url: &str) -> UnlocksConfig {
    UnlocksConfig {
        wallet_url: wallet_url.to_owned(),
        subscription_url: subscription_url.to_owned(),
        media_dir: media_dir(),
        catalog_queue: format!("{schema}.catalog"),
        subscriptions_queue: format!("{schema}.subscriptions"),
        reconcile_after: Duration::from_millis(0),
        reconcile_interval: Duration::from_millis(100),
        ..UnlocksConfig::default()
    }
}

impl TestEnv {
    pub async fn new() -> TestEnv {
        Self::with(|c| c).await
    }

    /// A fresh pair of schemas, the wallet served, and the unlocks service served with the
    /// configuration `tune` makes of the test defaults.
    pub async fn with(tune: impl FnOnce(UnlocksConfig) -> UnlocksConfig) -> TestEnv {
        let scratch = Scratch::new(&[("unlocks", &unlocks::MIGRATIONS)], 16).await;
        let wallet_scratch = Scratch::new(&[("wallet", &wallet::MIGRATIONS)], 16).await;
        let wallet = wallet::State::new(
            wallet_scratch.pool.clone(),
            wallet_scratch.store.clone(),
            wallet::WalletConfig {
                subscriptions_queue: format!("{}.subscriptions", wallet_scratch.schema),
                ..Default::default()
            },
        );
        let wallet_url = testing::serve(wallet::router(wallet.clone())).await.base;
        let signer_seed: [u8; 32] = rand::random();
        let signer = Signer::from_seed("test", signer_seed);
        let subscription_scratch = Scratch::new(&[("subscription", &subscription::MIGRATIONS)], 8).await;
        let subscription_state = subscription::State::new(
            subscription_scratch.pool.clone(),
            subscription_scratch.store.clone(),
            subscription::BillingConfig::from_lookup(|_| None, false).unwrap(),
            profile::client::ProfileClient::new("http://127.0.0.1:9"),
            signer.verifier(),
        );
        let subscription_url = testing::serve(subscription::router(subscription_state)).await.base;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut config = test_config(&scratch.schema, &wallet_url, &subscription_url);
        config.media_base_url = format!("http://{}/media/videos", listener.local_addr().unwrap());
        let config = tune(config);
        scratch.track_queue(&config.catalog_queue);
        scratch.track_queue(&config.subscriptions_queue);
        let clock: Arc<Mutex<Option<DateTime<Utc>>>> = Arc::default();
        let c = clock.clone();
        let state = State::new(scratch.pool.clone(), scratch.store.clone(), config, signer.verifier())
            .with_clock(move || c.lock().unwrap().unwrap_or_else(Utc::now));
        let base = testing::serve_on(listener, unlocks::router(state.clone())).base;
        unlocks::demo::ensure(&media_dir()).unwrap();
        TestEnv {
            scratch,
            wallet_scratch,
            subscription_scratch,
            subscription_url,
            state,
            wallet,
            wallet_url,
            base,
            signer,
            signer_seed,
            clock,
            versions: Versions::default(),
        }
    }

    /// Stops time at `at` (None: the real clock).
    pub fn set_now(&self, at: Option<DateTime<Utc>>) {
        *self.clock.lock().unwrap() = at;
    }

    /// An access token for `user` on the vixen brand.
    pub fn token(&self, user: Uuid) -> String {
        self.signer.sign(&Self::claims(user))
    }

    fn claims(user: Uuid) -> Claims {
        Claims::new(user, "vixen.localhost:8080", "vixen", Uuid::now_v7(), vec![], Duration::from_secs(3600))
    }

    /// `user` asking on the vixen brand, with their access token (what the HTTP handlers build).
    pub fn asker(&self, user: Uuid) -> Asker {
        let claims = Self::claims(user);
        Asker::of(&claims, "vixen", Some(&self.signer.sign(&claims)))
    }

    pub fn http(&self) -> reqwest::Client {
        runtime::tls::client_builder().timeout(Duration::from_secs(60)).build().unwrap()
    }

    /// `event` on `stream_id` of vixen, as the platform itself publishes it.
    pub fn envelope<E: EventFamily>(&self, event: &E, stream_id: String) -> Envelope {
        testing::envelope(event, stream_id, self.versions.next(), "vixen", Actor::System("test".into()))
    }

    /// Applies envelopes as a consumer does (inbox row and handler in one transaction per
    /// envelope), without the broker.
    pub async fn feed(&self, queue: &str, handler: &dyn Handler, envelopes: &[Envelope]) {
        testing::feed(&self.pool, queue, handler, envelopes).await;
    }

    pub async fn catalog(&self, events: &[CatalogEvent]) {
        let specs = unlocks::consumers(&self.state);
        let envelopes: Vec<Envelope> =
            events.iter().map(|e| self.envelope(e, format!("catalog-{}", Uuid::now_v7()))).collect();
        self.feed(&specs[0].queue, specs[0].handler.as_ref(), &envelopes).await;
    }

    /// Subscription events: recorded by their owner (its read model, as its append writes
    /// it), then heard by this service's consumer.
    pub async fn subscription(&self, events: &[SubscriptionEvent]) {
        self.owner_records(events).await;
        let specs = unlocks::consumers(&self.state);
        let envelopes: Vec<Envelope> =
            events.iter().map(|e| self.envelope(e, format!("subscription-{}", e.subscription_id()))).collect();
        self.feed(&specs[1].queue, specs[1].handler.as_ref(), &envelopes).await;
    }

    /// Subscription events as their owner records them (its read model, as its append writes
    /// it), whether or not this service has heard of them yet.
    pub async fn owner_records(&self, events: &[SubscriptionEvent]) {
        let mut tx = self.subscription_scratch.pool.begin().await.unwrap();
        for event in events {
            subscription::projections::apply_subscription_event(&mut tx, event).await.unwrap();
        }
        tx.commit().await.unwrap();
    }

    /// Publishes envelopes of `domain` on the test's exchange, with confirms.
    pub async fn publish(&self, domain: &str, envelopes: &[Envelope]) {
        self.scratch.publish(domain, envelopes).await;
    }

    /// Declares the consumers' queues and runs the consumers until `cancel`.
    pub async fn consumers(&self, cancel: &CancellationToken) -> Vec<tokio::task::JoinHandle<()>> {
        let mut tasks = vec![];
        for spec in unlocks::consumers(&self.state) {
            self.scratch.declare_queue(&spec.queue, &spec.bindings).await;
            tasks.push(self.spawn_consumer(spec, cancel));
        }
        tasks
    }

    /// Gives a user `gems` gems (a retention deal's).
    pub async fn fund_gems(&self, user: Uuid, gems: u64) {
        wallet::testing::fund_gems(&self.wallet_scratch.pool, &self.wallet_scratch.store, user, gems).await
    }

    pub async fn fund_credits(&self, user: Uuid, credits: u64) {
        wallet::testing::fund_credits(&self.wallet_scratch.pool, &self.wallet_scratch.store, user, credits).await
    }

    /// The wallet's debits (pack and video unlocks).
    pub async fn debits(&self) -> i64 {
        self.wallet_scratch.scalar("select count(*) from ledger_entry where entry_type = 'debit'").await
    }

    pub async fn gems(&self, user: Uuid) -> i64 {
        sqlx::query_scalar::<_, i64>("select coalesce((select gems from wallet where user_id = $1), 0)")
            .bind(user)
            .fetch_one(&self.wallet_scratch.pool)
            .await
            .unwrap()
    }

    pub async fn credits(&self, user: Uuid) -> i64 {
        sqlx::query_scalar::<_, i64>("select coalesce((select credits from wallet where user_id = $1), 0)")
            .bind(user)
            .fetch_one(&self.wallet_scratch.pool)
            .await
            .unwrap()
    }

    /// Starts a subscription for `user` on `sites`.
    pub async fn subscribe(&self, user: Uuid, kind: MembershipKind, sites: &[&str], free_limited_trial: bool) -> Uuid {
        let subscription_id = Uuid::now_v7();
        self.subscription(&[started(subscription_id, user, kind, sites, free_limited_trial)]).await;
        subscription_id
    }

    pub async fn cleanup(self) {
        self.subscription_scratch.cleanup().await;
        self.scratch.cleanup().await;
        self.wallet_scratch.cleanup().await;
    }
}

/// A subscription of `kind` on `sites` (the first is the site joined), started now.
pub fn started(
    subscription_id: Uuid,
    user_id: Uuid,
    kind: MembershipKind,
    sites: &[&str],
    free: bool,
) -> SubscriptionEvent {
    testing::subscription_started(subscription_id, user_id, kind, sites, free, Utc::now())
}

/// A subscription cancelled now.
pub fn cancelled(subscription_id: Uuid, user_id: Uuid) -> SubscriptionEvent {
    testing::subscription_cancelled(subscription_id, user_id, Utc::now())
}

/// A published video of `site`, in `pack` when given, of a channel of `category` when given.
/// A video flagged for the free limited trial (what its three full videos are taken from).
pub fn free_trial_video(site: &str) -> Video {
    Video { is_free_limited_trial: true, ..video(site, None, None) }
}

pub fn video(site: &str, pack: Option<(Uuid, Uuid)>, category: Option<ChannelCategory>) -> Video {
    let channel = match (pack, category) {
        (None, None) => None,
        _ => Some(VideoChannel {
            channel_id: pack.map(|p| p.1).unwrap_or_else(Uuid::now_v7),
            slug: "a-channel".into(),
            channel_pack_id: pack.map(|p| p.0),
            category,
        }),
    };
    testing::video(site, channel)
}

pub fn published(video: &Video) -> CatalogEvent {
    CatalogEvent::VideoPublished { video: video.clone(), published_at: Utc::now() }
}

/// A vixen channel (its packs are vixen's to unlock).
pub fn channel_event(channel: Uuid) -> CatalogEvent {
    channel_on(channel, "vixen")
}

/// A channel `site` carries.
pub fn channel_on(channel: Uuid, site: &str) -> CatalogEvent {
    CatalogEvent::ChannelPublished {
        channel_id: channel,
        slug: format!("channel-{}", channel.simple()),
        name: "A channel".into(),
        kind: proto_events::catalog::ChannelKind::Internal,
        category: None,
        sites: vec![site.into()],
        published_at: Utc::now(),
    }
}

/// A pack of a channel with the given videos: (pack, channel).
pub fn pack_event(pack: Uuid, channel: Uuid, videos: Vec<Uuid>) -> CatalogEvent {
    CatalogEvent::ChannelPackPublished {
        channel_pack_id: pack,
        channel_id: channel,
        slug: format!("pack-{}", pack.simple()),
        name: "A pack".into(),
        video_ids: videos,
        published_at: Utc::now(),
    }
}

pub fn cancel_token() -> CancellationToken {
    CancellationToken::new()
}
