//! `paysite bench gateway`: the videos listing (a page of 12 videos with their performers)
//! asked through the whole GraphQL path (gateway -> catalog -> PostgreSQL), beside a raw
//! axum + sqlx JSON endpoint answering the same rows with the catalog's own listing query,
//! in the same run on the same database.
//!
//! Every ratio compares like with like, in two modes measured one after the other
//! ([`CacheMode`]): no read cache on either side, then the catalog's read cache (its limits
//! from the environment, as the service reads them) in front of both sides. In each: closed-loop
//! throughput of the gateway over the raw endpoint (every client sending its next request as
//! soon as the last answered; the raw endpoint measured first and again last, and every
//! throughput ratio taken against the mean of the two), the same with the performers' whole
//! cards (gender, rating, image), and p99 at half load (both paced at half the gateway's
//! measured throughput). The targets are the no-cache mode's: listing >= 0.8, whole cards >= 0.6, half-load
//! p99 ratio <= 1.5; the command exits non-zero when one is missed.
//!
//! Each client keeps one HTTP/1.1 connection, so neither side pays for a client pool.
//! The catalog is the demo catalog in its own schema (`bench_gateway_demo`, seeded on the
//! first run), or with `GATEWAY_BENCH_VIDEOS=N` the large one `paysite bench catalog` seeds
//! (`bench_catalog_N`).

use std::{
    net::SocketAddr,
    path::PathBuf,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use axum::{
    extract::{Query, State},
    http::{header, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use catalog::{
    api,
    queries::{self, VideoFilter, VideoOrder},
    read_cache::{self, Depends, Limits, ReadCache},
};
use runtime::{
    auth::Signer,
    bench::closed_loop,
    client::{CallContext, Upstream},
    db,
    service::ServiceContext,
    EventStore, Settings,
};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::PgPool;
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::TcpStream,
};

use super::percentile_ms;

pub(super) const HOST: &str = "vixen.localhost:8080";
const SITE: &str = "vixen";
const PAGE_SIZE: i64 = 12;
/// Pages cycled through (the demo catalog has about 400 vixen videos: 30 pages of 12).
const PAGES: i64 = 20;

/// The listing card: 12 videos with their performers' names and slugs.
const LISTING: &str = "query($page: Int) { videos(page: $page, size: 12) { totalCount page videos { uuid id newId \
     slug site title releaseDate duration rating award isFreeLimitedTrial images { listing { src width height } } \
     performers { id slug name } } } }";
/// The same with the performers' whole cards (the listing brings them: still one call).
const LISTING_CARDS: &str = "query($page: Int) { videos(page: $page, size: 12) { totalCount page videos { uuid id \
     newId slug site title releaseDate duration rating award isFreeLimitedTrial images { listing { src width height } } \
     performers { id slug name gender rating image { src } } } } }";

#[derive(Clone, Debug)]
pub struct Options {
    pub concurrency: usize,
    pub requests: usize,
    /// Requests per side in the half-load run.
    pub paced_requests: usize,
    /// Large catalog size (`bench_catalog_N`), or the demo catalog.
    pub videos: Option<usize>,
}

impl Options {
    pub fn from_env() -> Self {
        let number = |key: &str| std::env::var(key).ok().and_then(|v| v.parse::<usize>().ok());
        Options {
            concurrency: number("GATEWAY_BENCH_CONCURRENCY").unwrap_or(16),
            requests: number("GATEWAY_BENCH_REQUESTS").unwrap_or(5_000),
            paced_requests: number("GATEWAY_BENCH_PACED_REQUESTS").unwrap_or(3_000),
            videos: number("GATEWAY_BENCH_VIDEOS"),
        }
    }
}

// ----- a minimal keep-alive HTTP/1.1 client: one connection per bench client -----

pub(super) struct Conn {
    addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
}

impl Conn {
    pub(super) fn new(addr: SocketAddr) -> Self {
        Conn { addr, stream: None }
    }

    /// Sends `request` (a whole HTTP/1.1 request) and reads one answer: status and body.
    pub(super) async fn send(&mut self, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        for attempt in 0..2 {
            if self.stream.is_none() {
                let stream = TcpStream::connect(self.addr).await?;
                stream.set_nodelay(true)?;
                self.stream = Some(BufReader::new(stream));
            }
            match Self::exchange(self.stream.as_mut().expect("connected"), request).await {
                Ok(answer) => return Ok(answer),
                Err(e) if attempt == 0 => {
                    tracing::debug!(error = %e, "bench connection dropped, reconnecting");
                    self.stream = None;
                }
                Err(e) => return Err(e),
            }
        }
        unreachable!("two attempts")
    }

    async fn exchange(stream: &mut BufReader<TcpStream>, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        stream.get_mut().write_all(request).await?;
        let mut line = String::new();
        if stream.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut length = 0usize;
        loop {
            line.clear();
            stream.read_line(&mut line).await?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0; length];
        stream.read_exact(&mut body).await?;
        Ok((status, body))
    }
}

fn graphql_request(query: &str, page: i64) -> Vec<u8> {
    let body = json!({ "query": query, "variables": { "page": page } }).to_string();
    format!(
        "POST /graphql HTTP/1.1\r\nHost: {HOST}\r\ncontent-type: application/json\r\nx-paysite-csrf: 1\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn raw_request(page: i64) -> Vec<u8> {
    format!("GET /videos?site={SITE}&page={page} HTTP/1.1\r\nHost: raw\r\n\r\n").into_bytes()
}

// ----- the raw endpoint -----

#[derive(Deserialize)]
struct RawQuery {
    site: String,
    page: i64,
}

/// The raw side: the database, and the catalog's read cache when the mode puts one in front
/// of both sides.
#[derive(Clone)]
struct Raw {
    pool: PgPool,
    cache: Arc<ReadCache>,
}

/// The listing as a handler that knows only the database: the catalog's own query, its rows
/// as JSON. With the cache on, the answer is kept under the same generations the catalog's
/// listing is kept under (`Depends::listing`), so both sides answer from memory alike.
async fn raw_videos(State(raw): State<Raw>, Query(q): Query<RawQuery>) -> Result<Response, StatusCode> {
    let key = format!("raw-listing:{}:{}", q.site, q.page);
    let depends = Depends::listing(&q.site);
    let pool = raw.pool.clone();
    let body = raw
        .cache
        .get_or_compute(&raw.pool, key, &depends, |_| async move {
            let filter = VideoFilter { site: q.site, ..Default::default() };
            let offset = (q.page.max(1) - 1) * PAGE_SIZE;
            let (videos, total_count) =
                queries::list_page(&pool, &filter, VideoOrder::Newest, offset, PAGE_SIZE).await?;
            read_cache::encode(&api::VideoPage {
                videos,
                total_count,
                page: q.page,
                size: PAGE_SIZE,
                performers: Vec::new(),
            })
        })
        .await
        .map_err(|_: anyhow::Error| StatusCode::INTERNAL_SERVER_ERROR)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The hop alone ([the module's doc](self)): the raw endpoint's answer fetched with the
/// internal client every service call uses (the same pooled keep-alive connections, caller
/// headers and timeout) and answered as it came.
async fn hop(State(upstream): State<Arc<Upstream>>, uri: Uri) -> Result<Response, StatusCode> {
    let answer = upstream
        .pass_through(Method::GET, path_of(&uri), &[], Vec::new(), upstream.timeout(), &CallContext::anonymous(SITE))
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    passed_on(answer.status, answer.body)
}

/// The hop with the leanest client there is: this bench's own HTTP/1.1 exchange (no headers
/// beyond the request line and Host, no pool bookkeeping) on one of `conns` kept-alive
/// connections, the body answered as it came. What the hop costs with no client overhead.
async fn bare_hop(State(conns): State<Arc<ConnPool>>, uri: Uri) -> Result<Response, StatusCode> {
    let request = format!("GET {} HTTP/1.1\r\nHost: raw\r\n\r\n", path_of(&uri)).into_bytes();
    let mut conn = conns.take();
    let answer = conn.send(&request).await;
    conns.give(conn);
    let (status, body) = answer.map_err(|_| StatusCode::BAD_GATEWAY)?;
    passed_on(status, body)
}

fn path_of(uri: &Uri) -> &str {
    uri.path_and_query().map_or("/videos", |p| p.as_str())
}

/// The raw endpoint's answer, as it came.
fn passed_on(status: u16, body: Vec<u8>) -> Result<Response, StatusCode> {
    let status = StatusCode::from_u16(status).map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok((status, [(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Idle connections to one address; a request takes one (or opens one) and gives it back.
struct ConnPool {
    addr: SocketAddr,
    idle: Mutex<Vec<Conn>>,
}

impl ConnPool {
    fn take(&self) -> Conn {
        let idle = self.idle.lock().expect("idle connections").pop();
        idle.unwrap_or_else(|| Conn::new(self.addr))
    }

    fn give(&self, conn: Conn) {
        self.idle.lock().expect("idle connections").push(conn);
    }
}

pub(super) async fn serve(app: Router) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(addr)
}

/// The bench catalog's schema: the demo catalog's, or the large one's of `videos`.
fn schema_of(videos: Option<usize>) -> String {
    match videos {
        Some(n) => format!("bench_catalog_{n}"),
        None => "bench_gateway_demo".to_owned(),
    }
}

/// The catalog schema with content in it.
pub(super) async fn catalog_pool(settings: &Settings, videos: Option<usize>) -> anyhow::Result<(PgPool, EventStore)> {
    let url = settings.database_url.expose().to_owned();
    let schema = schema_of(videos);
    db::ensure_database(&url).await?;
    let pool = db::connect(&url, &schema, 24).await?;
    db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("catalog", &catalog::MIGRATIONS)]).await?;
    let store = EventStore::new(pool.clone(), &schema);
    let have: i64 = sqlx::query_scalar("select count(*) from video").fetch_one(&pool).await?;
    if have == 0 {
        let ctx = ServiceContext { pool: pool.clone(), store: store.clone(), settings: settings.clone() };
        match videos {
            Some(n) => catalog::seed_scale(ctx, n).await?,
            None => {
                let seed = catalog::SERVICE.seed.context("the catalog seeds")?;
                seed(ctx).await?
            }
        }
    }
    Ok((pool, store))
}

/// One closed-loop run: `requests` requests from `concurrency` clients, each on its own
/// connection, cycling through the pages.
pub(super) async fn throughput(
    addr: SocketAddr,
    concurrency: usize,
    requests: usize,
    make: fn(i64) -> Vec<u8>,
) -> anyhow::Result<runtime::bench::LoadStats> {
    let conns: Arc<Vec<tokio::sync::Mutex<Conn>>> =
        Arc::new((0..concurrency).map(|_| tokio::sync::Mutex::new(Conn::new(addr))).collect());
    let next = Arc::new(AtomicUsize::new(0));
    closed_loop(concurrency, requests, move |client| {
        let (conns, next) = (conns.clone(), next.clone());
        async move {
            let page = 1 + (next.fetch_add(1, Ordering::Relaxed) as i64 % PAGES);
            let mut conn = conns[client].lock().await;
            matches!(conn.send(&make(page)).await, Ok((200, body)) if !body.is_empty())
        }
    })
    .await
}

/// Requests offered at `rate` per second (paced, with enough clients that pacing rather
/// than the clients sets the load); each request's own latency recorded, sorted.
async fn paced(addr: SocketAddr, rate: f64, requests: usize, make: fn(i64) -> Vec<u8>) -> anyhow::Result<Vec<u64>> {
    let clients = 32;
    let conns: Arc<Vec<tokio::sync::Mutex<Conn>>> =
        Arc::new((0..clients).map(|_| tokio::sync::Mutex::new(Conn::new(addr))).collect());
    let next = Arc::new(AtomicUsize::new(0));
    let latencies = Arc::new(Mutex::new(Vec::with_capacity(requests)));
    let start = tokio::time::Instant::now() + Duration::from_millis(50);
    let recorded = latencies.clone();
    closed_loop(clients, requests, move |client| {
        let (conns, next, recorded) = (conns.clone(), next.clone(), recorded.clone());
        async move {
            let i = next.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep_until(start + Duration::from_secs_f64(i as f64 / rate)).await;
            let page = 1 + (i as i64 % PAGES);
            let mut conn = conns[client].lock().await;
            let t = Instant::now();
            let ok = matches!(conn.send(&make(page)).await, Ok((200, _)));
            recorded.lock().expect("latencies").push(t.elapsed().as_micros() as u64);
            ok
        }
    })
    .await?;
    let mut sorted = std::mem::take(&mut *latencies.lock().expect("latencies"));
    sorted.sort_unstable();
    Ok(sorted)
}

pub(super) fn listing(page: i64) -> Vec<u8> {
    graphql_request(LISTING, page)
}

fn listing_cards(page: i64) -> Vec<u8> {
    graphql_request(LISTING_CARDS, page)
}

/// The uuids of page 1 on both sides must be the same rows.
async fn same_rows(gateway: SocketAddr, raw: SocketAddr) -> anyhow::Result<usize> {
    let (status, body) = Conn::new(gateway).send(&listing(1)).await?;
    let answer: Value = serde_json::from_slice(&body)?;
    anyhow::ensure!(status == 200 && answer.get("errors").is_none(), "the gateway answered {status}: {answer}");
    let (_, raw_body) = Conn::new(raw).send(&raw_request(1)).await?;
    let raw_answer: Value = serde_json::from_slice(&raw_body)?;
    let uuids = |list: &Value| -> Vec<String> {
        list.as_array().into_iter().flatten().map(|v| v["uuid"].as_str().unwrap_or_default().to_owned()).collect()
    };
    let (g, r) = (uuids(&answer["data"]["videos"]["videos"]), uuids(&raw_answer["videos"]));
    anyhow::ensure!(g.len() == PAGE_SIZE as usize && g == r, "the two sides answer different rows: {g:?} / {r:?}");
    Ok(g.len())
}

/// Which side has which cache: every ratio printed compares like with like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMode {
    /// No read cache on either side: the catalog's is off, the raw endpoint has none. What the
    /// gateway's own cost is measured with (the targets).
    Neither,
    /// The catalog's read cache, with the limits the environment gives the service
    /// (`CATALOG_READ_CACHE_MB`, `CATALOG_READ_CACHE_ENTRIES`), in front of both sides: the
    /// catalog's own, and one of the same limits around the raw endpoint's query.
    Both,
}

impl CacheMode {
    fn describe(self, limits: Limits) -> String {
        match self {
            CacheMode::Neither => "no read cache on either side".to_owned(),
            CacheMode::Both => format!(
                "the same read cache in front of both sides ({} MiB, {} entries)",
                limits.max_bytes >> 20,
                limits.max_entries
            ),
        }
    }
}

/// What one mode measured.
#[derive(Clone, Debug)]
pub struct Figures {
    pub mode: CacheMode,
    /// The raw endpoint, measured first and again last: every throughput ratio is taken
    /// against the mean of the two, so that a drift of the machine during the run falls on
    /// both sides of it alike.
    pub raw: runtime::bench::LoadStats,
    pub raw_again: runtime::bench::LoadStats,
    pub gateway: runtime::bench::LoadStats,
    pub cards: runtime::bench::LoadStats,
    /// The hop alone, closed loop: with the internal client, and with the bare one.
    pub hop: runtime::bench::LoadStats,
    pub bare_hop: runtime::bench::LoadStats,
    pub half_load_rate: f64,
    pub raw_half_p99_ms: f64,
    pub gateway_half_p99_ms: f64,
    pub raw_half_p50_ms: f64,
    pub gateway_half_p50_ms: f64,
    pub hop_half_p99_ms: f64,
    pub hop_half_p50_ms: f64,
    /// The no-cache mode's visitor rows (the gateway's kept answers against the raw endpoint
    /// without a cache), when the broker was there to keep them fresh.
    pub visitor: Option<Visitor>,
}

/// A visitor's listing as the front end asks it (GET of the persisted `VideoListing`) through
/// the gateway's kept answers, and how long a catalog write takes to change the kept answer.
#[derive(Clone, Debug)]
pub struct Visitor {
    pub kept: runtime::bench::LoadStats,
    /// From a write's commit to the first changed answer, per write.
    pub staleness_ms: Vec<f64>,
}

impl Figures {
    /// The visitor's kept listing over the raw endpoint without a cache.
    pub fn visitor_ratio(&self) -> Option<f64> {
        self.visitor.as_ref().map(|v| v.kept.per_second / self.raw_rate())
    }

    /// The raw endpoint's rate: the mean of its two runs.
    pub fn raw_rate(&self) -> f64 {
        (self.raw.per_second + self.raw_again.per_second) / 2.0
    }

    pub fn listing_ratio(&self) -> f64 {
        self.gateway.per_second / self.raw_rate()
    }

    pub fn cards_ratio(&self) -> f64 {
        self.cards.per_second / self.raw_rate()
    }

    pub fn p99_ratio(&self) -> f64 {
        self.gateway_half_p99_ms / self.raw_half_p99_ms
    }

    /// The hop alone over the raw endpoint: the ceiling of the listing ratio.
    pub fn hop_ratio(&self) -> f64 {
        self.hop.per_second / self.raw_rate()
    }

    pub fn bare_hop_ratio(&self) -> f64 {
        self.bare_hop.per_second / self.raw_rate()
    }

    pub fn hop_p99_ratio(&self) -> f64 {
        self.hop_half_p99_ms / self.raw_half_p99_ms
    }
}

/// The targets, with no cache on either side.
pub const LISTING_TARGET: f64 = 0.8;
pub const CARDS_TARGET: f64 = 0.6;
pub const P99_TARGET: f64 = 1.5;
/// A visitor's listing from the gateway's kept answers against the raw endpoint without a cache.
pub const VISITOR_TARGET: f64 = 2.0;
/// From a catalog write's commit to the first changed answer of a visitor.
pub const STALENESS_TARGET_MS: f64 = 1000.0;

/// The gateway's configuration as the process's environment gives it, with the repository's
/// tenants when the environment names none and no front end to serve.
fn gateway_config() -> anyhow::Result<::gateway::GatewayConfig> {
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    ::gateway::GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => std::env::var(key).ok().or_else(|| tenants.to_str().map(str::to_owned)),
        "PAYSITE_DIST_DIR" => Some("/nonexistent".to_owned()),
        _ => std::env::var(key).ok(),
    })
}

/// One mode: a catalog service, a raw endpoint and a gateway over the same schema, the cache
/// as the mode says; closed loop on both sides, then both paced at half the gateway's rate.
async fn measure(
    settings: &Settings,
    pool: &PgPool,
    store: &EventStore,
    options: &Options,
    catalog_config: &catalog::CatalogConfig,
    mode: CacheMode,
) -> anyhow::Result<Figures> {
    let limits = match mode {
        CacheMode::Neither => Limits { max_bytes: 0, ..catalog_config.read_cache },
        CacheMode::Both => catalog_config.read_cache,
    };
    let catalog_state = catalog::AppState::new(
        pool.clone(),
        store.clone(),
        Signer::generate("bench").verifier(),
        catalog::CatalogConfig { read_cache: limits, ..catalog_config.clone() },
    );
    let catalog_addr = serve(catalog::router(catalog_state)).await?;
    let raw = Raw { pool: pool.clone(), cache: Arc::new(ReadCache::new(limits)) };
    let raw_addr = serve(Router::new().route("/videos", get(raw_videos)).with_state(raw)).await?;
    let upstream = Arc::new(Upstream::new("raw", format!("http://{raw_addr}"), Duration::from_secs(5)));
    let hop_addr = serve(Router::new().route("/videos", get(hop)).with_state(upstream)).await?;
    let conns = Arc::new(ConnPool { addr: raw_addr, idle: Mutex::new(Vec::new()) });
    let bare_hop_addr = serve(Router::new().route("/videos", get(bare_hop)).with_state(conns)).await?;

    let catalog_url = format!("http://{catalog_addr}");
    let upstreams = ::gateway::graphql::Upstreams::with_base(|name, port| match name {
        "catalog" => catalog_url.clone(),
        _ => format!("http://127.0.0.1:{port}"),
    });
    let state =
        ::gateway::GatewayState::with(&gateway_config()?, Arc::new(upstreams), Signer::generate("bench").verifier())?
            .with_rate_limits(::gateway::rate_limits::RateLimits::off());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let gateway_addr = listener.local_addr()?;
    let gateway_state = state.clone();
    tokio::spawn(::gateway::serve(listener, state, std::future::pending()));

    same_rows(gateway_addr, raw_addr).await?;
    let (c, n) = (options.concurrency, options.requests);
    // Warm both sides (plans, caches, connections).
    throughput(raw_addr, c, n / 5, raw_request).await?;
    throughput(gateway_addr, c, n / 5, listing).await?;
    throughput(gateway_addr, c, n / 5, listing_cards).await?;
    throughput(hop_addr, c, n / 5, raw_request).await?;
    throughput(bare_hop_addr, c, n / 5, raw_request).await?;

    let raw = throughput(raw_addr, c, n, raw_request).await?;
    let gateway = throughput(gateway_addr, c, n, listing).await?;
    let cards = throughput(gateway_addr, c, n, listing_cards).await?;
    let hop = throughput(hop_addr, c, n, raw_request).await?;
    let bare_hop = throughput(bare_hop_addr, c, n, raw_request).await?;
    let raw_again = throughput(raw_addr, c, n, raw_request).await?;
    anyhow::ensure!(
        raw.failed + gateway.failed + cards.failed + hop.failed + bare_hop.failed + raw_again.failed == 0,
        "failed requests: raw {raw:?} gateway {gateway:?} {cards:?} hop {hop:?} bare hop {bare_hop:?} raw again \
         {raw_again:?}"
    );

    let rate = gateway.per_second / 2.0;
    let raw_half = paced(raw_addr, rate, options.paced_requests, raw_request).await?;
    let gw_half = paced(gateway_addr, rate, options.paced_requests, listing).await?;
    let hop_half = paced(hop_addr, rate, options.paced_requests, raw_request).await?;
    let visitor = match mode {
        CacheMode::Neither => visitor(settings, pool, store, options, &gateway_state, gateway_addr).await?,
        CacheMode::Both => None,
    };
    Ok(Figures {
        mode,
        raw,
        raw_again,
        gateway,
        cards,
        hop,
        bare_hop,
        half_load_rate: rate,
        raw_half_p99_ms: percentile_ms(&raw_half, 99.0),
        gateway_half_p99_ms: percentile_ms(&gw_half, 99.0),
        raw_half_p50_ms: percentile_ms(&raw_half, 50.0),
        gateway_half_p50_ms: percentile_ms(&gw_half, 50.0),
        hop_half_p99_ms: percentile_ms(&hop_half, 99.0),
        hop_half_p50_ms: percentile_ms(&hop_half, 50.0),
        visitor,
    })
}

/// The persisted `VideoListing`'s query string (hash and variables), as the front end GETs it.
static VISITOR_QUERY: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn visitor_listing(page: i64) -> Vec<u8> {
    let query = VISITOR_QUERY.get().expect("the visitor's query is set before it is sent");
    let page = page.rem_euclid(PAGES) + 1;
    format!(
        "GET /graphql?{query}&variables=%7B%22page%22%3A{page}%2C%22size%22%3A{PAGE_SIZE}%7D HTTP/1.1\r\nHost: \
         {HOST}\r\nx-paysite-csrf: 1\r\n\r\n"
    )
    .into_bytes()
}

/// A video of the bench's own, far down the listing (its totalCount changes, not its order).
fn bench_video(n: u32) -> proto_events::catalog::CatalogEvent {
    let id = uuid::Uuid::now_v7();
    serde_json::from_value(json!({
        "type": "VideoPublished",
        "payload": {
            "video": {
                "video_id": id, "legacy_id": format!("bench-{n}"), "new_id": format!("bench-{n}"),
                "slug": format!("bench-staleness-{id}"), "site": SITE, "title": "Bench staleness",
                "description": "A video the gateway bench publishes and unpublishes again.",
                "release_date": "2001-01-01T00:00:00Z", "duration_seconds": 60, "performer_ids": [],
                "category_slugs": [], "is_third_party_channel": false, "is_free_limited_trial": false,
                "award": 0, "qualities": ["p720"]
            },
            "published_at": "2001-01-01T00:00:00Z"
        }
    }))
    .expect("a VideoPublished")
}

/// The visitor rows: the gateway follows the catalog's events on an exchange of the bench's
/// own (the catalog's relay publishing this schema's outbox to it), then a visitor's listing
/// is measured closed loop through the kept answers, and each of `STALENESS_WRITES` catalog
/// writes (a video published, then unpublished) is timed until the kept answer changes.
/// `None` (and said why) when there is no broker.
async fn visitor(
    settings: &Settings,
    pool: &PgPool,
    store: &EventStore,
    options: &Options,
    gateway: &::gateway::GatewayState,
    gateway_addr: SocketAddr,
) -> anyhow::Result<Option<Visitor>> {
    const STALENESS_WRITES: u32 = 40;
    let hash = gateway.documents.hash_of_operation("VideoListing").context("the front end's VideoListing")?;
    let extensions = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } }).to_string();
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("operationName", "VideoListing")
        .append_pair("extensions", &extensions)
        .finish();
    let _ = VISITOR_QUERY.set(query);
    let schema = schema_of(options.videos);
    let mut events = settings.clone();
    events.exchange = format!("bench.gateway.{}", std::process::id());
    let cancel = tokio_util::sync::CancellationToken::new();
    let _stop = cancel.clone().drop_guard();
    let relay = runtime::relay::RelaySettings {
        poll_interval: Duration::from_millis(200),
        ..runtime::relay::RelaySettings::new("catalog", &schema, &events)
    };
    tokio::spawn(runtime::relay::run(pool.clone(), relay, cancel.clone()));
    ::gateway::follow_answers(gateway, ::gateway::revocations::Source::from_settings(&events), cancel.clone()).await;
    if !gateway.answers.is_following() {
        println!("no broker at AMQP_URL: the visitor rows (the gateway's kept answers) are not measured");
        return Ok(None);
    }
    // What the seed left in the outbox goes out first (each event drops the kept answers).
    let started = Instant::now();
    loop {
        let left: i64 = sqlx::query_scalar("select count(*) from outbox").fetch_one(pool).await?;
        if left == 0 {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(300),
            "the catalog's outbox did not drain ({left} left)"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (c, n) = (options.concurrency, options.requests);
    throughput(gateway_addr, c, n / 5, visitor_listing).await?;
    let kept = throughput(gateway_addr, c, n, visitor_listing).await?;
    anyhow::ensure!(kept.failed == 0, "failed visitor requests: {kept:?}");

    let mut conn = Conn::new(gateway_addr);
    let meta = proto_events::EventMeta::new(proto_events::Actor::System("bench-gateway".into()));
    let mut staleness_ms = Vec::new();
    for n in 0..STALENESS_WRITES {
        let (_, before) = conn.send(&visitor_listing(-1)).await?;
        let (_, kept_again) = conn.send(&visitor_listing(-1)).await?;
        anyhow::ensure!(before == kept_again, "the visitor's listing changed with no write");
        let published = bench_video(n);
        let id = match &published {
            proto_events::catalog::CatalogEvent::VideoPublished { video, .. } => video.video_id,
            _ => unreachable!("a VideoPublished"),
        };
        let unpublished =
            proto_events::catalog::CatalogEvent::VideoUnpublished { video_id: id, unpublished_at: chrono::Utc::now() };
        for write in [published, unpublished] {
            let (_, before) = conn.send(&visitor_listing(-1)).await?;
            catalog::commands::publish_all(store, &meta, std::slice::from_ref(&write), 1, false).await?;
            runtime::relay::wake(pool, &schema);
            let written = Instant::now();
            loop {
                let (status, now) = conn.send(&visitor_listing(-1)).await?;
                anyhow::ensure!(status == 200, "the visitor's listing answered {status}");
                if now != before {
                    staleness_ms.push(written.elapsed().as_secs_f64() * 1e3);
                    break;
                }
                anyhow::ensure!(written.elapsed() < Duration::from_secs(10), "the kept listing did not change in 10 s");
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    }
    Ok(Some(Visitor { kept, staleness_ms }))
}

/// Both modes, one after the other in one run, each printed with the cache each side had.
pub async fn bench(settings: &Settings, options: &Options) -> anyhow::Result<Vec<Figures>> {
    let (pool, store) = catalog_pool(settings, options.videos).await?;
    let catalog_config = catalog::CatalogConfig::from_env();
    let mut modes = vec![CacheMode::Neither];
    if catalog_config.read_cache.max_bytes > 0 && catalog_config.read_cache.max_entries > 0 {
        modes.push(CacheMode::Both);
    } else {
        println!("the environment turns the catalog's read cache off: only the no-cache mode is measured");
    }
    let videos: i64 = sqlx::query_scalar("select count(*) from video").fetch_one(&pool).await?;
    let (c, n) = (options.concurrency, options.requests);
    println!(
        "gateway: videos listing (12 videos with performers), {videos} videos in the catalog, {c} clients \
         (one connection each), {n} requests per side"
    );
    let mut all = Vec::new();
    for mode in modes {
        let f = measure(settings, &pool, &store, options, &catalog_config, mode).await?;
        println!("\n{}", mode.describe(catalog_config.read_cache));
        println!(
            "{:<44} {:>9} {:>8} {:>8} {:>8} {:>8}",
            "closed loop", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"
        );
        for (name, s) in [
            ("raw axum + sqlx (first)", &f.raw),
            ("gateway (GraphQL -> catalog)", &f.gateway),
            ("gateway, performers' whole cards", &f.cards),
            ("the hop alone (pass-through to raw)", &f.hop),
            ("the hop alone, bare HTTP/1.1 client", &f.bare_hop),
            ("raw axum + sqlx (again, last)", &f.raw_again),
        ] {
            println!(
                "{:<44} {:>9.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
                name, s.per_second, s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms
            );
        }
        println!(
            "gateway/raw: listing {:.2}, whole performer cards {:.2}; half load ({:.0} req/s offered to each, {} \
             requests): p99 raw {:.2} ms, gateway {:.2} ms, ratio {:.2}; p50 raw {:.2} ms, gateway {:.2} ms",
            f.listing_ratio(),
            f.cards_ratio(),
            f.half_load_rate,
            options.paced_requests,
            f.raw_half_p99_ms,
            f.gateway_half_p99_ms,
            f.p99_ratio(),
            f.raw_half_p50_ms,
            f.gateway_half_p50_ms
        );
        println!(
            "the hop alone: {:.2} of the raw endpoint's rate with the internal client, {:.2} with a bare one (the \
             ceiling of the listing ratio for a gateway in front of a service); half load with the internal client: \
             p99 {:.2} ms (ratio {:.2}), p50 {:.2} ms",
            f.hop_ratio(),
            f.bare_hop_ratio(),
            f.hop_half_p99_ms,
            f.hop_p99_ratio(),
            f.hop_half_p50_ms
        );
        if let Some(v) = &f.visitor {
            let mut sorted = v.staleness_ms.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |p: f64| sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1];
            println!(
                "{:<44} {:>9.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
                "visitor's listing, GET of its hash, kept",
                v.kept.per_second,
                v.kept.p50_ms,
                v.kept.p95_ms,
                v.kept.p99_ms,
                v.kept.max_ms
            );
            println!(
                "visitor (the gateway's kept answers, fresh by the catalog's events) / raw without a cache: {:.2} \
                 (goal >= {VISITOR_TARGET}); staleness after a catalog write ({} writes, commit to the first changed \
                 answer): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms (goal p99 <= {STALENESS_TARGET_MS} ms)",
                f.visitor_ratio().unwrap_or_default(),
                sorted.len(),
                at(0.50),
                at(0.99),
                sorted.last().copied().unwrap_or_default()
            );
        }
        all.push(f);
    }
    pool.close().await;
    Ok(all)
}

/// The targets a run missed (the no-cache mode's figures against the targets).
pub fn missed(figures: &Figures) -> Vec<String> {
    let mut missed = Vec::new();
    if figures.listing_ratio() < LISTING_TARGET {
        missed.push(format!("listing {:.2} < {LISTING_TARGET}", figures.listing_ratio()));
    }
    if figures.cards_ratio() < CARDS_TARGET {
        missed.push(format!("whole performer cards {:.2} < {CARDS_TARGET}", figures.cards_ratio()));
    }
    if figures.p99_ratio() > P99_TARGET {
        missed.push(format!("half-load p99 ratio {:.2} > {P99_TARGET}", figures.p99_ratio()));
    }
    if let Some(v) = &figures.visitor {
        if v.kept.per_second / figures.raw_rate() < VISITOR_TARGET {
            missed.push(format!(
                "visitor's kept listing {:.2} < {VISITOR_TARGET}",
                v.kept.per_second / figures.raw_rate()
            ));
        }
        let mut sorted = v.staleness_ms.clone();
        sorted.sort_by(f64::total_cmp);
        let p99 = sorted.get(((sorted.len() as f64 * 0.99).ceil() as usize).saturating_sub(1)).copied().unwrap_or(0.0);
        if p99 > STALENESS_TARGET_MS {
            missed.push(format!("staleness p99 {p99:.0} ms > {STALENESS_TARGET_MS} ms"));
        }
    }
    missed
}

/// `paysite bench gateway`: exits non-zero when a target is missed.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let all = bench(settings, &Options::from_env()).await?;
    let neither = all.iter().find(|f| f.mode == CacheMode::Neither).context("the no-cache mode ran")?;
    let missed = missed(neither);
    println!(
        "\ntargets, no cache on either side: listing >= {LISTING_TARGET}, whole performer cards >= {CARDS_TARGET}, \
         half-load p99 ratio <= {P99_TARGET}; the visitor's kept listing >= {VISITOR_TARGET}, staleness p99 <= \
         {STALENESS_TARGET_MS} ms: {}",
        if missed.is_empty() { "met".to_owned() } else { format!("NOT met ({})", missed.join("; ")) }
    );
    anyhow::ensure!(missed.is_empty(), "bench gateway: targets missed: {}", missed.join("; "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(per_second: f64) -> runtime::bench::LoadStats {
        runtime::bench::LoadStats {
            requests: 1_000,
            failed: 0,
            per_second,
            p50_ms: 1.0,
            p95_ms: 2.0,
            p99_ms: 3.0,
            max_ms: 4.0,
        }
    }

    fn figures(raw: f64, raw_again: f64, gateway: f64, p99: (f64, f64)) -> Figures {
        Figures {
            mode: CacheMode::Neither,
            raw: stats(raw),
            raw_again: stats(raw_again),
            gateway: stats(gateway),
            cards: stats(gateway * 0.75),
            hop: stats(raw * 0.9),
            bare_hop: stats(raw),
            half_load_rate: gateway / 2.0,
            raw_half_p99_ms: p99.0,
            gateway_half_p99_ms: p99.1,
            raw_half_p50_ms: 0.5,
            gateway_half_p50_ms: 0.7,
            hop_half_p99_ms: p99.0,
            hop_half_p50_ms: 0.6,
            visitor: None,
        }
    }

    #[test]
    fn ratios_are_taken_against_the_mean_of_the_two_raw_runs() {
        let f = figures(6_000.0, 4_000.0, 4_000.0, (2.0, 3.0));
        assert!((f.raw_rate() - 5_000.0).abs() < 1e-9);
        assert!((f.listing_ratio() - 0.8).abs() < 1e-9);
        assert!((f.cards_ratio() - 0.6).abs() < 1e-9);
        assert!((f.hop_ratio() - 1.08).abs() < 1e-9);
        assert!((f.bare_hop_ratio() - 1.2).abs() < 1e-9);
        assert!((f.p99_ratio() - 1.5).abs() < 1e-9);
    }

    #[test]
    fn the_targets_are_missed_below_their_lines_and_met_on_them() {
        assert!(missed(&figures(5_000.0, 5_000.0, 4_000.0, (2.0, 3.0))).is_empty());
        let short = missed(&figures(5_000.0, 5_000.0, 2_500.0, (2.0, 6.0)));
        assert_eq!(short.len(), 3, "{short:?}");
        assert!(short[0].starts_with("listing 0.50"), "{short:?}");
        assert!(short[1].starts_with("whole performer cards 0.38"), "{short:?}");
        assert!(short[2].starts_with("half-load p99 ratio 3.00"), "{short:?}");
    }
}
