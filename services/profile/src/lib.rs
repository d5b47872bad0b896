//! Users, credentials, sessions and profile settings; the identity provider of every brand host.
//!
//! Read top-down: the pure rules are the validation rules ([`validation`]), the user decider
//! ([`domain`]), the badges ([`badges`]) and the user type others see ([`user_type`]); the write
//! path is [`commands`]; sign-in and sessions are [`sessions`] (the failed-password throttle in
//! [`sessions::limiter`]), with the login form in [`login_page`], opaque tokens in [`tokens`] and
//! the signing key in [`keys`]; the internal API is [`http`] (its shapes in [`api`], its typed
//! client in [`client`], its one error type with the status of each refusal in [`error`]); the read
//! models are [`projections`](mod@projections), their SQL [`queries`]. The demo users' accounts
//! (`seed`, `demo` feature; their ids and password are the contract's [`profile_contract::demo`])
//! and `paysite bench profile` (`bench`, `bench` feature) are left out of a production build.

#[cfg(feature = "bench")]
pub mod bench;
pub mod commands;
pub mod config;
pub mod domain;
pub mod error;
pub mod http;
pub mod keys;
pub mod login_page;
pub mod projections;
pub mod queries;
#[cfg(feature = "demo")]
pub mod seed;
pub mod sessions;
pub mod tokens;
pub mod user_type;

/// The contract (wire types, routes and typed client) lives in `profile-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use profile_contract::{api, badges, client, passwords, routes, validation};

use std::sync::Arc;

use runtime::auth::{Signer, Verifier};
use runtime::consumer::ConsumerSpec;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Queue, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};

pub use config::ProfileConfig;
pub use http::router;
pub use profile_contract::demo::{demo_user_id, DEMO_PASSWORD, DEMO_USERS};

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/profile");

pub static SERVICE: ServiceDef = ServiceDef {
    name: "profile",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[Queue { name: config::PROJECTIONS_QUEUE, bindings: projections::BINDINGS }],
    read_models: || projections_on(config::PROJECTIONS_QUEUE),
    build,
    seed: SEED,
};

/// The demo users' accounts, with the `demo` feature.
#[cfg(feature = "demo")]
const SEED: Option<runtime::service::Seeder> = Some(seed::seed);
#[cfg(not(feature = "demo"))]
const SEED: Option<runtime::service::Seeder> = None;

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let config = ProfileConfig::from_env()?;
        let state = State::load(ctx.pool, ctx.store, config).await?;
        Ok(Service::new(router(state.clone()), consumers(&state), projections(&state)))
    })
}

/// What the handlers and the consumer share.
#[derive(Clone)]
pub struct State {
    pub pool: PgPool,
    pub store: EventStore,
    pub config: Arc<ProfileConfig>,
    pub signer: Signer,
    pub verifier: Verifier,
    pub passwords: passwords::Passwords,
}

impl State {
    /// Loads (or makes, once) the signing key.
    pub async fn load(pool: PgPool, store: EventStore, config: ProfileConfig) -> anyhow::Result<Self> {
        let signer = keys::load_signer(&pool, &config).await?;
        let passwords = passwords::Passwords::new(config.argon2);
        passwords.warm().await?;
        Ok(State { verifier: signer.verifier(), passwords, signer, pool, store, config: Arc::new(config) })
    }
}

runtime::verifier_in_state!(State);

/// The consumer of the subscription service's events (the memberships badges read).
pub fn consumers(state: &State) -> Vec<ConsumerSpec> {
    let queue = &state.config.projections_queue;
    vec![ConsumerSpec::projection(queue, projections::BINDINGS, Arc::new(projections::members(queue)))]
}

/// The read models `paysite rebuild-projections profile` rebuilds.
pub fn projections(state: &State) -> Vec<Arc<dyn Projection>> {
    projections_on(&state.config.projections_queue)
}

/// The read models, the members' kept from the inbox of `projections_queue`.
fn projections_on(projections_queue: &str) -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(projections::USER_PROFILES), Arc::new(projections::members(projections_queue.to_owned()))]
}
