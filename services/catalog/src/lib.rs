//! Videos, performers, categories, channels, picture sets, search and the community around
//! them (comments, ratings, expert reviews, favourites), reels, showcases, angels, the
//! curator wall and recommendation shelves.
//!
//! The pure rules are in [`domain`]; the write path in [`commands`]; the read models in
//! [`projections`] (rebuilt from the event store) and their SQL in [`queries`]; the internal
//! API in [`http`] with its shapes in [`api`] and a typed client in [`client`]; the demo
//! catalog in `seed` (`demo` feature) and `paysite bench catalog` in `bench` (`bench`
//! feature), both left out of a production build. Listing pages and search
//! results are served from [`read_cache`] while the read models they came from are unchanged.

#[cfg(feature = "bench")]
pub mod bench;
pub mod commands;
pub mod config;
pub mod domain;
pub mod http;
pub mod media;
pub mod projections;
pub mod queries;
pub mod read_cache;
pub mod recommendations;
#[cfg(feature = "demo")]
pub mod seed;

/// The contract (wire types, routes and typed client) lives in `catalog-contract`; these keep
/// the service's own `crate::api`, `crate::routes` and `crate::client` paths.
pub use catalog_contract::{api, client, routes};

use std::sync::Arc;

use runtime::auth::Verifier;
use runtime::projection::Projection;
use runtime::service::{BoxFuture, Service, ServiceContext, ServiceDef};
use runtime::EventStore;
use sqlx::{migrate::Migrator, PgPool};

pub use config::CatalogConfig;
pub use http::router;
#[cfg(feature = "demo")]
pub use seed::{seed_scale, seed_scale_with_progress};

pub static MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/catalog");

pub static SERVICE: ServiceDef = ServiceDef {
    name: "catalog",
    port: api::PORT,
    migrations: &MIGRATIONS,
    queues: &[],
    read_models: projections,
    build,
    seed: SEED,
};

/// The demo catalog, with the `demo` feature.
#[cfg(feature = "demo")]
const SEED: Option<runtime::service::Seeder> = Some(seed::seed_demo);
#[cfg(not(feature = "demo"))]
const SEED: Option<runtime::service::Seeder> = None;

fn build(ctx: ServiceContext) -> BoxFuture<anyhow::Result<Service>> {
    Box::pin(async move {
        let verifier =
            Verifier::from_jwks_url(format!("{}/.well-known/jwks.json", runtime::config::service_url("profile", 8101)));
        let state = AppState::new(ctx.pool, ctx.store, verifier, CatalogConfig::from_env());
        Ok(Service::new(router(state.clone()), vec![], projections()))
    })
}

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub store: EventStore,
    pub verifier: Verifier,
    pub config: Arc<CatalogConfig>,
    /// Listing pages and search results of this process (see [`read_cache`]).
    pub read_cache: Arc<read_cache::ReadCache>,
}

impl AppState {
    pub fn new(pool: PgPool, store: EventStore, verifier: Verifier, config: CatalogConfig) -> Self {
        let read_cache = Arc::new(read_cache::ReadCache::new(config.read_cache));
        AppState { pool, store, verifier, config: Arc::new(config), read_cache }
    }
}

/// The read models `paysite rebuild-projections catalog` rebuilds.
pub fn projections() -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(projections::READ_MODELS)]
}
