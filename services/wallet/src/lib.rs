//! Gems and pay-per-video credits as a ledger.
//!
//! The pure part: the wallet decider ([`domain`]), the gems calendar ([`calendar`]) and what
//! the wallet knows of subscriptions ([`subscriptions`]). Around it: the write path
//! ([`commands`]), the read models ([`projections`], [`queries`]), the subscription-events
//! consumer ([`consumer`]), the weekly gems job ([`scheduler`]), the internal API ([`http`])
//! with its answers that are not a success ([`error`]) and the debit benchmark (`bench`
//! feature).

#[cfg(feature = "bench")]
pub mod bench;
pub mod calendar;
pub use runtime::clock;
pub mod commands;
pub mod config;
pub mod consumer;
pub mod domain;
pub mod error;
pub mod http;
pub mod projections;
pub mod queries;
pub mod scheduler;
pub mod subscriptions;
#[cfg(feature = "testing")]
pub mod testing;

/// The contract (wire types, routes and typed client) lives in `wallet-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use wallet_contract::{api, client, routes};

use std::sync::Arc;

use runtime::auth::Verifier;
use runtime::consumer::ConsumerSpec;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Queue, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};

pub use clock::Clock;
pub use commands::Ledger;
pub use config::WalletConfig;
pub use http::router;

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/wallet");

/// The wallet as `paysite` runs it. It seeds nothing: its demo balances come from the
/// subscription events and Fridays of the other services' seeds.
pub static SERVICE: ServiceDef = ServiceDef {
    name: "wallet",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[Queue { name: config::SUBSCRIPTIONS_QUEUE, bindings: consumer::BINDINGS }],
    read_models: || projections_on(config::SUBSCRIPTIONS_QUEUE),
    build,
    seed: None,
};

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let config = WalletConfig::from_env()?;
        let state = State::new(ctx.pool, ctx.store, config);
        let service = Service::new(router(state.clone()), consumers(&state), projections(&state));
        Ok(service.with_jobs(vec![scheduler::Scheduler::new(state).job()]))
    })
}

/// What the wallet's handlers, consumer and job share.
#[derive(Clone)]
pub struct State {
    pub pool: PgPool,
    pub store: EventStore,
    pub config: Arc<WalletConfig>,
    pub ledger: Ledger,
    pub clock: Arc<dyn Clock>,
    /// Checks the access tokens the gateway forwards (the profile service's keys).
    pub verifier: Verifier,
}

impl State {
    pub fn new(pool: PgPool, store: EventStore, config: WalletConfig) -> Self {
        State {
            ledger: Ledger::new(store.clone()),
            pool,
            store,
            config: Arc::new(config),
            clock: clock::system(),
            verifier: Verifier::from_jwks_url(format!(
                "{}/.well-known/jwks.json",
                runtime::config::service_url("profile", 8101)
            )),
        }
    }

    /// The same state checking access tokens with `verifier`.
    pub fn with_verifier(mut self, verifier: Verifier) -> Self {
        self.verifier = verifier;
        self
    }

    /// The same state telling time by `clock`.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }
}

/// The subscription-events consumer.
pub fn consumers(state: &State) -> Vec<ConsumerSpec> {
    let handler = Arc::new(consumer::SubscriptionEvents::new(state.store.clone()));
    vec![ConsumerSpec::new(&state.config.subscriptions_queue, consumer::BINDINGS, handler)]
}

/// The read models `paysite rebuild-projections wallet` rebuilds.
pub fn projections(state: &State) -> Vec<Arc<dyn Projection>> {
    projections_on(&state.config.subscriptions_queue)
}

/// The read models, the subscriptions' kept from the inbox of `subscriptions_queue`.
fn projections_on(subscriptions_queue: &str) -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(projections::LEDGER), Arc::new(projections::subscriptions(subscriptions_queue.to_owned()))]
}
