//! Channel-pack and pay-per-video unlocks, download quotas and signed media.
//!
//! The pure part: the unlocks decider ([`domain`]), the entitlement rules ([`entitlement`]),
//! quotas and resolutions ([`quota`]) and media tokens ([`token`]). Around it: the write path
//! ([`commands`]), the unlock process manager and its reconciler ([`domain::process`]), tokens,
//! downloads and the media endpoint ([`media`]), the read models ([`projections`],
//! [`queries`]), the catalog and subscription consumers ([`consumer`]), the internal API
//! ([`http`]) with its client ([`client`]) and the generated demo media ([`demo`]).

#[cfg(feature = "bench")]
pub mod bench;
pub mod commands;
pub mod config;
pub mod consumer;
#[cfg(feature = "demo")]
pub mod demo;
pub mod domain;
pub mod entitlement;
pub mod error;
pub mod http;
pub mod media;
pub mod media_checks;
pub mod projections;
pub mod queries;
pub mod quota;
pub mod token;

/// The contract (wire types, routes and typed client) lives in `unlocks-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use unlocks_contract::{api, client, routes};

use std::sync::Arc;

use chrono::{DateTime, Utc};
use runtime::auth::Verifier;
use runtime::consumer::ConsumerSpec;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Queue, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};
use uuid::Uuid;

pub use config::UnlocksConfig;
pub use http::router;

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/unlocks");

/// The unlocks service as `paysite` runs it. Its seed generates the demo media (`demo` feature).
pub static SERVICE: ServiceDef = ServiceDef {
    name: "unlocks",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[
        Queue { name: config::CATALOG_QUEUE, bindings: consumer::CATALOG_BINDINGS },
        Queue { name: config::SUBSCRIPTIONS_QUEUE, bindings: consumer::SUBSCRIPTION_BINDINGS },
    ],
    read_models: || projections_on(config::CATALOG_QUEUE, config::SUBSCRIPTIONS_QUEUE),
    build,
    seed: SEED,
};

#[cfg(feature = "demo")]
const SEED: Option<runtime::service::Seeder> = Some(seed);
#[cfg(not(feature = "demo"))]
const SEED: Option<runtime::service::Seeder> = None;

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let config = UnlocksConfig::from_env()?;
        let verifier =
            Verifier::from_jwks_url(format!("{}/.well-known/jwks.json", runtime::config::service_url("profile", 8101)));
        // Demo clips are generated in the background at startup if missing, so playback works
        // locally; never in production, where the media come from UNLOCKS_MEDIA_DIR (a
        // mounted volume) or the CDN of UNLOCKS_MEDIA_BASE_URL.
        #[cfg(feature = "demo")]
        if ctx.settings.environment != runtime::config::Environment::Production {
            let dir = config.media_dir.clone();
            tokio::task::spawn_blocking(move || {
                if let Err(e) = demo::ensure(&dir) {
                    tracing::warn!(error = %format!("{e:#}"), "demo media not generated");
                }
            });
        }
        let state = State::new(ctx.pool, ctx.store, config, verifier);
        let service = Service::new(router(state.clone()), consumers(&state), projections(&state));
        Ok(service.with_jobs(vec![domain::process::Reconciler::new(state).job()]))
    })
}

#[cfg(feature = "demo")]
fn seed(_ctx: ServiceContext) -> BoxFuture<anyhow::Result<()>> {
    Box::pin(async move {
        let config = UnlocksConfig::from_env()?;
        let dir = config.media_dir.clone();
        let written = tokio::task::spawn_blocking(move || demo::ensure(&dir)).await??;
        tracing::info!(dir = %config.media_dir.display(), written, "demo media ready");
        Ok(())
    })
}

type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;
#[cfg(any(test, feature = "test-hooks"))]
type Hook = Arc<dyn Fn(Uuid) + Send + Sync>;

/// What the handlers, consumers and the reconciler share.
#[derive(Clone)]
pub struct State {
    pub pool: PgPool,
    pub store: EventStore,
    pub config: Arc<UnlocksConfig>,
    pub wallet: wallet_contract::client::WalletClient,
    /// The subscription read of a user, for the access rules.
    pub subscriptions: subscription_contract::client::SubscriptionClient,
    pub signer: token::TokenSigner,
    pub verifier: Verifier,
    /// What the media endpoint remembers between range requests.
    pub media_checks: Arc<media_checks::MediaChecks>,
    /// Commands of one user, batched per transaction.
    pub book: commands::Book,
    pub clock: Clock,
    /// Called between a debit's receipt and the unlock's record (the crash test stops there).
    /// A test hook: only built with the `test-hooks` feature.
    #[cfg(any(test, feature = "test-hooks"))]
    pub after_debit: Hook,
    /// Unlocks whose debit this process is sending now (how many senders each): the
    /// reconciler leaves them alone.
    pub in_flight: Arc<std::sync::Mutex<std::collections::HashMap<Uuid, usize>>>,
}

runtime::verifier_in_state!(State);

impl State {
    pub fn new(pool: PgPool, store: EventStore, config: UnlocksConfig, verifier: Verifier) -> Self {
        State {
            wallet: wallet_contract::client::WalletClient::new(runtime::client::Upstream::new(
                "wallet",
                config.wallet_url.clone(),
                config.wallet_timeout,
            )),
            subscriptions: subscription_contract::client::SubscriptionClient::new(runtime::client::Upstream::new(
                "subscription",
                config.subscription_url.clone(),
                std::time::Duration::from_secs(5),
            )),
            in_flight: Default::default(),
            signer: token::TokenSigner::new(config.media_secret.expose().as_bytes()),
            media_checks: Arc::default(),
            book: commands::Book::new(store.clone()),
            pool,
            store,
            config: Arc::new(config),
            verifier,
            clock: Arc::new(Utc::now),
            #[cfg(any(test, feature = "test-hooks"))]
            after_debit: Arc::new(|_| {}),
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// The same state telling time by `clock`.
    pub fn with_clock(mut self, clock: impl Fn() -> DateTime<Utc> + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    #[cfg(any(test, feature = "test-hooks"))]
    pub fn with_after_debit(mut self, hook: impl Fn(Uuid) + Send + Sync + 'static) -> Self {
        self.after_debit = Arc::new(hook);
        self
    }
}

/// The catalog and subscription consumers.
pub fn consumers(state: &State) -> Vec<ConsumerSpec> {
    let (catalog, subscriptions) = (&state.config.catalog_queue, &state.config.subscriptions_queue);
    vec![
        ConsumerSpec::projection(catalog, consumer::CATALOG_BINDINGS, Arc::new(projections::catalog(catalog))),
        ConsumerSpec::new(
            subscriptions,
            consumer::SUBSCRIPTION_BINDINGS,
            Arc::new(consumer::SubscriptionEvents::new(state.store.clone())),
        ),
    ]
}

/// The read models `paysite rebuild-projections unlocks` rebuilds.
pub fn projections(state: &State) -> Vec<Arc<dyn Projection>> {
    projections_on(&state.config.catalog_queue, &state.config.subscriptions_queue)
}

/// The read models, the catalog's and the subscriptions' kept from those queues' inboxes.
fn projections_on(catalog_queue: &str, subscriptions_queue: &str) -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(projections::UNLOCKS),
        Arc::new(projections::catalog(catalog_queue.to_owned())),
        Arc::new(projections::subscriptions(subscriptions_queue.to_owned())),
    ]
}
