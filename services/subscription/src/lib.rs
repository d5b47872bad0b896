//! Who has paid for what: subscriptions, billers and their postbacks, join and account creation,
//! one-click purchases, retention.
//!
//! Read top-down: the pure rules are the decider ([`domain`]: one normalised state machine for
//! every biller), the billers' postback formats and signatures ([`billers`]) and the subscription
//! read of product.md, "Subscriptions and their states" derived from a user's subscriptions ([`view`]). The write path is [`commands`] (a
//! biller fact stored once, then decided), fed by biller postbacks ([`postbacks`], committed in
//! groups by [`batcher`]) and by the native biller's charges: one-click purchases ([`purchases`])
//! and retention and cancel ([`retention`]). Beside it, one module per flow of its own: the join
//! form and signups ([`joins`]) and outgoing one-click upsells ([`outgoing`], sales recorded once
//! per member and offer). The internal API and the billers' postback door are [`http`] (shapes in
//! [`api`], typed client in [`client`], its one error type with the status of each refusal in
//! [`error`]); the read models are [`projections`](mod@projections), their SQL [`queries`];
//! billers, prices and offers are configuration ([`config`]). The demo users' memberships (`seed`,
//! `demo` feature) and `paysite bench postbacks` (`bench`, `bench` feature) are left out of a
//! production build.

pub mod batcher;
#[cfg(feature = "bench")]
pub mod bench;
pub mod billers;
pub use runtime::clock;
pub mod commands;
pub mod config;
pub mod domain;
pub mod error;
pub mod http;
pub mod joins;
pub mod outgoing;
pub mod postbacks;
pub mod projections;
pub mod purchases;
pub mod queries;
pub mod retention;
#[cfg(feature = "demo")]
pub mod seed;
pub mod view;

/// The contract (wire types, routes and typed client) lives in `subscription-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use subscription_contract::{api, client, routes};

use std::sync::Arc;

use profile_contract::client::ProfileClient;
use runtime::auth::Verifier;
use runtime::consumer::ConsumerSpec;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Queue, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};

pub use clock::Clock;
pub use config::BillingConfig;
pub use http::router;

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/subscription");

/// The native biller: one-click purchases, retention deals and cancels are its charges.
pub const NATIVE_BILLER: &str = "RGNATIVE";

pub static SERVICE: ServiceDef = ServiceDef {
    name: "subscription",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[Queue { name: config::PROFILES_QUEUE, bindings: projections::PROFILE_BINDINGS }],
    read_models: || projections_on(config::PROFILES_QUEUE),
    build,
    seed: SEED,
};

/// The demo users' memberships, with the `demo` feature.
#[cfg(feature = "demo")]
const SEED: Option<runtime::service::Seeder> = Some(seed::seed);
#[cfg(not(feature = "demo"))]
const SEED: Option<runtime::service::Seeder> = None;

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let production = ctx.settings.environment == runtime::config::Environment::Production;
        let config = BillingConfig::from_env(production)?;
        let profile = ProfileClient::from_env();
        let verifier = Verifier::from_jwks_url(profile.jwks_url());
        let state = State::new(ctx.pool, ctx.store, config, profile, verifier);
        let service = Service::new(router(state.clone()), consumers(&state), projections(&state));
        Ok(service.with_jobs(vec![joins::sweeper(state.clone())]))
    })
}

/// What the handlers, consumer and seed share.
#[derive(Clone)]
pub struct State {
    pub pool: PgPool,
    pub store: EventStore,
    pub config: Arc<BillingConfig>,
    pub profile: ProfileClient,
    pub verifier: Verifier,
    pub clock: Arc<dyn Clock>,
    /// Group commit of postbacks (started with the state: call inside a Tokio runtime).
    pub batcher: batcher::Batcher,
    /// Hashes a join form's password (the profile service's hashing, at its cost).
    pub passwords: profile_contract::passwords::Passwords,
    /// Refused (forged or unknown) postbacks counted per sender address and per biller.
    pub forged_postbacks: Arc<postbacks::ForgedPostbacks>,
}

impl State {
    pub fn new(
        pool: PgPool,
        store: EventStore,
        config: BillingConfig,
        profile: ProfileClient,
        verifier: Verifier,
    ) -> Self {
        let batcher = batcher::Batcher::start(store.clone());
        let passwords = profile_contract::passwords::Passwords::new(config.argon2);
        State {
            pool,
            store,
            config: Arc::new(config),
            profile,
            verifier,
            clock: clock::system(),
            batcher,
            passwords,
            forged_postbacks: Arc::new(postbacks::ForgedPostbacks::default()),
        }
    }

    /// The same state telling time by `clock`.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }
}

runtime::verifier_in_state!(State);

/// The profile-events consumer: account e-mails and tandem links.
pub fn consumers(state: &State) -> Vec<ConsumerSpec> {
    let queue = &state.config.profiles_queue;
    vec![ConsumerSpec::projection(queue, projections::PROFILE_BINDINGS, Arc::new(projections::accounts(queue)))]
}

/// The read models `paysite rebuild-projections subscription` rebuilds.
pub fn projections(state: &State) -> Vec<Arc<dyn Projection>> {
    projections_on(&state.config.profiles_queue)
}

/// The read models, the accounts' kept from the inbox of `profiles_queue`.
fn projections_on(profiles_queue: &str) -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(projections::MEMBERS), Arc::new(projections::accounts(profiles_queue.to_owned()))]
}
