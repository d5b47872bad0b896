//! Deals and offers: partner deals in the carousel, the listing (/deals) and the offers
//! interstitial (/offers), porn-portal subscribers' special offers, each user's answer to the
//! interstitial, the carousel's tracking and the /deals confirmation payload check.
//!
//! Read top-down: the pure rules are the deciders and findDeals' rule ([`domain`]), the operators'
//! input checks ([`input`]) and the confirmation payload ([`confirmation`]); the write path is
//! [`commands`]; the internal API is [`http`] (its shapes in [`api`], its typed client in
//! [`client`], its one error type with the status of each refusal in [`error`]), and it serves the
//! generated deal images of [`media`]; the read models, rebuilt from the event store, and the
//! subscription-events consumer are [`projections`](mod@projections), their SQL [`queries`]. The
//! demo deals (`seed`, `demo` feature) and `paysite bench deals` (`bench`, `bench` feature) are
//! left out of a production build.

#[cfg(feature = "bench")]
pub mod bench;
pub use runtime::clock;
pub mod commands;
pub mod config;
pub mod confirmation;
pub mod domain;
pub mod error;
pub mod http;
pub mod input;
pub mod media;
pub mod projections;
pub mod queries;
#[cfg(feature = "demo")]
pub mod seed;

/// The contract (wire types, routes and typed client) lives in `deals-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use deals_contract::{api, client, routes};

use std::sync::Arc;

use runtime::auth::Verifier;
use runtime::consumer::ConsumerSpec;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Queue, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};

pub use clock::Clock;
pub use config::{DealsConfig, Sites};
pub use http::router;

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/deals");

/// Routing keys the subscription-events consumer binds.
pub const SUBSCRIPTION_BINDINGS: &[&str] = &["subscription.*"];

pub static SERVICE: ServiceDef = ServiceDef {
    name: "deals",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[Queue { name: config::SUBSCRIPTIONS_QUEUE, bindings: SUBSCRIPTION_BINDINGS }],
    read_models: || projections_on(config::SUBSCRIPTIONS_QUEUE),
    build,
    seed: SEED,
};

/// The demo deals, with the `demo` feature.
#[cfg(feature = "demo")]
const SEED: Option<runtime::service::Seeder> = Some(seed::seed);
#[cfg(not(feature = "demo"))]
const SEED: Option<runtime::service::Seeder> = None;

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let config = DealsConfig::from_env();
        let sites = Sites::load(&config.tenants_dir)?;
        let jwks = format!("{}/.well-known/jwks.json", runtime::config::service_url("profile", 8101));
        let state = State::new(ctx.pool, ctx.store, config, sites, Verifier::from_jwks_url(jwks));
        Ok(Service::new(router(state.clone()), consumers(&state), projections(&state)))
    })
}

/// What the deals handlers, consumer and seed share.
#[derive(Clone)]
pub struct State {
    pub pool: PgPool,
    pub store: EventStore,
    pub config: Arc<DealsConfig>,
    pub sites: Arc<Sites>,
    pub verifier: Verifier,
    pub clock: Arc<dyn Clock>,
}

impl State {
    pub fn new(pool: PgPool, store: EventStore, config: DealsConfig, sites: Sites, verifier: Verifier) -> Self {
        State { pool, store, config: Arc::new(config), sites: Arc::new(sites), verifier, clock: clock::system() }
    }

    /// The same state telling time by `clock`.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }
}

runtime::verifier_in_state!(State);

/// The subscription-events consumer: keeps who is a porn-portal subscriber.
pub fn consumers(state: &State) -> Vec<ConsumerSpec> {
    let queue = &state.config.subscriptions_queue;
    vec![ConsumerSpec::projection(queue, SUBSCRIPTION_BINDINGS, Arc::new(projections::portal_subscriptions(queue)))]
}

/// The read models `paysite rebuild-projections deals` rebuilds.
pub fn projections(state: &State) -> Vec<Arc<dyn Projection>> {
    projections_on(&state.config.subscriptions_queue)
}

/// The read models, the portal subscriptions' kept from the inbox of `subscriptions_queue`.
fn projections_on(subscriptions_queue: &str) -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(projections::DEALS), Arc::new(projections::portal_subscriptions(subscriptions_queue.to_owned()))]
}
