//! The gateway: the only door the browser uses.
//!
//! It resolves the tenant from the Host, serves the SPA (its page with the routing session
//! inlined, and its hashed assets), answers the permanent moves (301) and unknown paths (404)
//! at the edge, and serves the operations routes. The GraphQL schema comes later.

pub mod config;
mod edge;
pub mod hosts;
pub mod routes;
pub mod spa;
pub mod tenants;

use std::{future::Future, sync::Arc};

use anyhow::Context;
use axum::{middleware, routing::get, Router};
use runtime::{
    health::Readiness,
    http::{correlate, ops_router},
};

pub use config::GatewayConfig;
use hosts::Sites;
use spa::Spa;
use tenants::Tenants;

/// What the handlers share: the sites by host and the SPA.
#[derive(Clone)]
pub struct GatewayState {
    sites: Arc<Sites>,
    spa: Spa,
}

impl GatewayState {
    /// Loads and checks the tenants and builds the host table; a bad configuration fails here.
    pub fn load(config: &GatewayConfig) -> anyhow::Result<Self> {
        let tenants = Tenants::load(&config.tenants_dir)?;
        let sites = Sites::new(&tenants, &config.brand_origin, &config.members_origin)?;
        Ok(GatewayState { sites: Arc::new(sites), spa: Spa::new(&config.dist_dir) })
    }

    pub fn sites(&self) -> &Sites {
        &self.sites
    }
}

/// The whole HTTP surface: the tenant-resolved edge, plus `/healthz`, `/readyz` and `/metrics`
/// (which answer on any host, for probes), all under the correlation middleware.
pub fn router(state: GatewayState) -> Router {
    let readiness = Readiness { service: "gateway".to_owned(), pool: None, uses_broker: false };
    let edge = Router::new()
        .route("/api/tenant-config", get(edge::tenant_config))
        .nest_service("/assets", state.spa.assets())
        .fallback(edge::page)
        .layer(middleware::from_fn_with_state(state.clone(), edge::resolve_site))
        .with_state(state);
    edge.merge(ops_router(readiness)).layer(middleware::from_fn(correlate))
}

/// Serves `state` on `listener` until `shutdown` resolves, then lets in-flight requests finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: GatewayState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state)).with_graceful_shutdown(shutdown).await
}

/// Loads the configuration's tenants, binds its address and serves until `shutdown`.
pub async fn run(config: GatewayConfig, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let state = GatewayState::load(&config)?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("binding the gateway to {}", config.addr))?;
    tracing::info!(
        addr = %listener.local_addr()?,
        brand_origin = %config.brand_origin.origin("{brand}"),
        members_origin = %config.members_origin.origin("{brand}"),
        dist = %config.dist_dir.display(),
        "gateway listening"
    );
    serve(listener, state, shutdown).await?;
    Ok(())
}
