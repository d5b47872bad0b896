//! The gateway: the only door the browser uses.
//!
//! It resolves the tenant from the Host, serves the SPA (its page with the routing session
//! inlined, and its hashed assets), answers the permanent moves (301) and unknown paths (404)
//! at the edge, and serves the operations routes and the GraphQL API (`/graphql`).

pub mod analytics;
pub mod answers;
pub mod compression;
pub mod conditional;
pub mod config;
mod edge;
pub mod first_screen;
pub mod graphql;
pub mod head;
pub mod hosts;
mod proxy;
pub mod rate_limits;
pub mod rating;
pub mod revocations;
pub mod routes;
pub mod security_headers;
pub mod session;
pub mod sitemaps;
pub mod slugs;
pub mod spa;
pub mod user_profile;
pub mod viewer;
pub mod welcome;

use std::{future::Future, sync::Arc};

use anyhow::Context;
use axum::{extract::DefaultBodyLimit, http::StatusCode, middleware, routing::get, Router};
use runtime::{auth::Verifier, health::Readiness, http::correlate};

pub use config::GatewayConfig;
use hosts::Sites;
use spa::Spa;

/// What the handlers share: the sites by host, the SPA, the schema and its upstream
/// services, and the access-token verifier.
#[derive(Clone)]
pub struct GatewayState {
    sites: Arc<Sites>,
    spa: Spa,
    pub schema: graphql::PaysiteSchema,
    /// The documents `/graphql` executes: the front end's, and APQ registrations while on.
    pub documents: Arc<graphql::persisted::Documents>,
    pub upstreams: Arc<graphql::Upstreams>,
    /// Visitors' answers to persisted queries, dropped by the catalog's and deals' events
    /// ([`answers::follow`] keeps them fresh; until it binds, nothing is kept).
    pub answers: Arc<answers::Answers>,
    /// The catalog's recent answers to "does this brand have this slug" (the edge's 404s).
    pub slugs: Arc<slugs::SlugCache>,
    /// Each brand's sitemaps, built once per change to what they list.
    pub sitemaps: Arc<sitemaps::Sitemaps>,
    pub verifier: Verifier,
    /// Streams media from the services that serve it.
    pub media_http: reqwest::Client,
    /// https origins: session cookies are `__Host-` and Secure.
    pub secure_cookies: bool,
    /// Behind a proxy that appends the client address to `x-forwarded-for`.
    pub trust_forwarded_for: bool,
    /// The sessions whose access tokens are refused ([`revocations::follow`] keeps it current).
    pub revocations: Arc<revocations::Revocations>,
    /// The pages report their errors to the gateway (`PAYSITE_ERROR_REPORTING`).
    pub error_reporting: bool,
    /// Requests per client address on `/graphql` and the sign-in form.
    pub rate_limits: Arc<rate_limits::RateLimits>,
    /// Pages carry their first screen's data (`PAYSITE_FIRST_SCREEN`, [`first_screen`]).
    pub first_screen: first_screen::Settings,
}

impl GatewayState {
    /// Loads and checks the tenants and builds the host table; a bad configuration fails here.
    /// Services are reached at `PAYSITE_<NAME>_URL` (else their default local ports) and access
    /// tokens checked with the profile service's published keys.
    pub fn load(config: &GatewayConfig) -> anyhow::Result<Self> {
        let upstreams = Arc::new(graphql::Upstreams::from_env());
        let jwks = format!("{}/.well-known/jwks.json", runtime::config::service_url("profile", 8101));
        Self::with(config, upstreams, Verifier::from_jwks_url(jwks))
    }

    /// The same with the given upstream clients and verifier (tests, `paysite up`).
    pub fn with(
        config: &GatewayConfig,
        upstreams: Arc<graphql::Upstreams>,
        verifier: Verifier,
    ) -> anyhow::Result<Self> {
        let tenants = tenants::init_from(&config.tenants_dir)?;
        let sites = Sites::new(tenants, &config.brand_origin, &config.members_origin)?;
        let development = runtime::Settings::from_env()
            .map(|s| s.environment == runtime::config::Environment::Development)
            .unwrap_or(false);
        Ok(GatewayState {
            sites: Arc::new(sites),
            spa: Spa::new(&config.dist_dir),
            schema: graphql::schema(Some(upstreams.clone()), development),
            documents: Arc::new(graphql::persisted::Documents::new(config.graphql_apq.unwrap_or(development))?),
            upstreams,
            answers: answers::Answers::from_lookup(|key| std::env::var(key).ok())?,
            slugs: Default::default(),
            sitemaps: Default::default(),
            verifier,
            media_http: runtime::tls::http_client(
                runtime::tls::client_builder().connect_timeout(std::time::Duration::from_secs(2)),
                runtime::tls::settings(),
            )
            .and_then(|b| Ok(b.build()?))
            .expect("media http client (PAYSITE_TLS_CA_FILE)"),
            secure_cookies: config.brand_origin.is_https(),
            trust_forwarded_for: config.trust_forwarded_for,
            revocations: revocations::Revocations::new(),
            error_reporting: config.error_reporting,
            rate_limits: Arc::new(rate_limits::RateLimits::from_env()?),
            first_screen: config.first_screen,
        })
    }

    /// The same with other per-address limits (`RateLimits::off()` for a benchmark measuring
    /// the gateway itself from one address).
    pub fn with_rate_limits(mut self, limits: rate_limits::RateLimits) -> Self {
        self.rate_limits = Arc::new(limits);
        self
    }

    /// The same without the document cost checks (`paysite bench refusals` compares the two).
    pub fn without_cost_guard(mut self) -> Self {
        self.schema = graphql::schema_without_cost_guard(Some(self.upstreams.clone()));
        self
    }

    pub fn sites(&self) -> &Sites {
        &self.sites
    }
}

/// What the gateway's `/readyz` checks: nothing it owns can be unready (it keeps no state).
pub fn readiness() -> Readiness {
    Readiness::new("gateway", None)
}

/// The paths of the operations routes: served only on the operations listener
/// (`PAYSITE_OPS_ADDR`, [`runtime::http::serve_ops`]); on the brand hosts, which an Ingress
/// publishes, they are a 404 like any page a brand lacks.
pub const OPERATIONS_PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// The browser's HTTP surface: the tenant-resolved edge under the correlation middleware.
pub fn router(state: GatewayState) -> Router {
    let mut edge = Router::new();
    for path in OPERATIONS_PATHS {
        edge = edge.route(path, axum::routing::any(not_here));
    }
    let edge = edge
        .route("/api/tenant-config", get(edge::tenant_config))
        .route(
            "/api/analytics/events",
            axum::routing::post(analytics::events).layer(DefaultBodyLimit::max(analytics::MAX_EVENT_BYTES)),
        )
        .route(
            "/graphql",
            axum::routing::any(graphql::http::graphql)
                .layer(middleware::from_fn_with_state(state.clone(), rate_limits::limit_graphql)),
        )
        .merge(session::router())
        .merge(graphql::catalog::rest::router())
        .merge(graphql::subscription::rest::router())
        .nest_service("/assets", state.spa.assets())
        .route_service("/favicon.ico", state.spa.favicon())
        .route("/robots.txt", get(sitemaps::robots))
        .fallback(edge::page)
        // Media goes as the services answer it (ranges, their validators), never re-encoded.
        .layer(compression::layer())
        // Kept gzip-compressed, and sent so to a crawler that takes it (sitemaps.rs).
        .route("/sitemap.xml", get(sitemaps::index))
        .route("/sitemaps/{name}", get(sitemaps::file))
        .route("/media/deals/{*path}", get(edge::deals_media))
        .route("/media/videos/{*path}", get(edge::unlocks_media))
        .route("/media/{*path}", get(edge::catalog_media))
        .layer(middleware::from_fn_with_state(state.clone(), edge::resolve_site))
        .layer(middleware::from_fn_with_state(state.clone(), security_headers::add))
        .layer(DefaultBodyLimit::max(graphql::MAX_BODY_BYTES * 4))
        .with_state(state);
    runtime::http::measured(edge, "gateway").layer(middleware::from_fn(correlate))
}

async fn not_here() -> impl axum::response::IntoResponse {
    (StatusCode::NOT_FOUND, [(axum::http::header::CACHE_CONTROL, "no-store")])
}

/// Serves `state` on `listener` until `shutdown` resolves, then lets in-flight requests finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: GatewayState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // The peer address feeds the per-address login limit when no proxy names the client.
    axum::serve(listener, router(state).into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(shutdown)
        .await
}

/// How long a starting gateway waits for the profile's list of revoked sessions before it
/// serves anyway (it keeps trying, and refuses what it learns from then on).
pub const REVOCATIONS_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Starts following the session events for `state` (until `cancel`), and waits a moment for
/// the profile's list of revoked sessions, so that a restarted gateway is not blind to them.
pub async fn follow_sessions(
    state: &GatewayState,
    source: revocations::Source,
    cancel: tokio_util::sync::CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let task =
        tokio::spawn(revocations::follow(state.revocations.clone(), state.upstreams.profile.clone(), source, cancel));
    if !state.revocations.wait_loaded(REVOCATIONS_WAIT).await {
        tracing::warn!("serving before the list of revoked sessions could be loaded; still trying");
    }
    task
}

/// Starts keeping visitors' answers fresh from the catalog's and the deals' events (their own
/// queue, [`answers::follow`]), and waits a moment for the first binding: until then, and
/// whenever the broker is away, visitors' answers are computed afresh and not kept.
pub async fn follow_answers(
    state: &GatewayState,
    source: revocations::Source,
    cancel: tokio_util::sync::CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let task = tokio::spawn(answers::follow(state.answers.clone(), source, cancel));
    let started = tokio::time::Instant::now();
    while !state.answers.is_following() && started.elapsed() < answers::FOLLOW_WAIT {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    task
}

/// Loads the configuration's tenants, binds its addresses (brand hosts, operations) and serves
/// until `shutdown`.
pub async fn run(config: GatewayConfig, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let state = GatewayState::load(&config)?;
    let settings = runtime::Settings::from_env()?;
    let cancel = tokio_util::sync::CancellationToken::new();
    let _sessions = follow_sessions(&state, revocations::Source::from_settings(&settings), cancel.clone()).await;
    let _answers = follow_answers(&state, revocations::Source::from_settings(&settings), cancel.clone()).await;
    let mut ops_task = tokio::task::JoinSet::new();
    let ops = runtime::http::serve_ops(config.ops_addr, readiness(), cancel.clone(), &mut ops_task).await?;
    let _stop_following = cancel.drop_guard();
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("binding the gateway to {}", config.addr))?;
    tracing::info!(
        addr = %listener.local_addr()?,
        ops = %ops,
        brand_origin = %config.brand_origin.origin("{brand}"),
        members_origin = %config.members_origin.origin("{brand}"),
        dist = %config.dist_dir.display(),
        "gateway listening"
    );
    serve(listener, state, shutdown).await?;
    Ok(())
}
