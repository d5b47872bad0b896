//! `paysite bench gateway`: the videos listing (a page of 12 videos with their performers)
//! asked through the whole GraphQL path (gateway -> catalog -> PostgreSQL), beside a raw
//! axum + sqlx JSON endpoint answering the same rows with the catalog's own listing query,
//! in the same run on the same database.
//!
//! Two figures, with the targets: throughput (closed loop, every client sending its
//! next request as soon as the last answered) of the gateway over the raw endpoint, ≥ 0.5;
//! and p99 at half load (both paced at half the gateway's measured throughput), gateway
//! over raw, ≤ 2. A third row asks for the performers' whole cards (gender, rating, image),
//! which costs the gateway one batch call more.
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
    routing::get,
    Json, Router,
};
use catalog::{
    api,
    queries::{self, VideoFilter, VideoOrder},
};
use runtime::{auth::Signer, bench::closed_loop, db, service::ServiceContext, EventStore, Settings};
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
/// The same with the performers' whole cards (one performers batch more).
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

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Figures {
    pub raw_per_second: f64,
    pub gateway_per_second: f64,
    pub cards_per_second: f64,
    pub throughput_ratio: f64,
    pub half_load_rate: f64,
    pub raw_half_p99_ms: f64,
    pub gateway_half_p99_ms: f64,
    pub p99_ratio: f64,
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

/// The listing as a handler that knows only the database: the catalog's own query, its rows
/// as JSON.
async fn raw_videos(
    State(pool): State<PgPool>,
    Query(q): Query<RawQuery>,
) -> Result<Json<api::VideoPage>, axum::http::StatusCode> {
    let filter = VideoFilter { site: q.site, ..Default::default() };
    let offset = (q.page.max(1) - 1) * PAGE_SIZE;
    let (videos, total_count) = queries::list_page(&pool, &filter, VideoOrder::Newest, offset, PAGE_SIZE)
        .await
        .map_err(|_| axum::http::StatusCode::INTERNAL_SERVER_ERROR)?;
    Ok(Json(api::VideoPage { videos, total_count, page: q.page, size: PAGE_SIZE }))
}

pub(super) async fn serve(app: Router) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(addr)
}

/// The catalog schema with content in it.
pub(super) async fn catalog_pool(settings: &Settings, videos: Option<usize>) -> anyhow::Result<(PgPool, EventStore)> {
    let url = settings.database_url.expose().to_owned();
    let schema = match videos {
        Some(n) => format!("bench_catalog_{n}"),
        None => "bench_gateway_demo".to_owned(),
    };
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

pub async fn bench(settings: &Settings, options: &Options) -> anyhow::Result<Figures> {
    let (pool, store) = catalog_pool(settings, options.videos).await?;
    let catalog_state = catalog::AppState::new(
        pool.clone(),
        store,
        Signer::generate("bench").verifier(),
        catalog::CatalogConfig::default(),
    );
    let catalog_addr = serve(catalog::router(catalog_state)).await?;
    let raw_addr = serve(Router::new().route("/videos", get(raw_videos)).with_state(pool.clone())).await?;

    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let config = ::gateway::GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => tenants.to_str().map(str::to_owned),
        "PAYSITE_DIST_DIR" => Some("/nonexistent".to_owned()),
        _ => None,
    })?;
    let catalog_url = format!("http://{catalog_addr}");
    let upstreams = ::gateway::graphql::Upstreams::with_base(|name, port| match name {
        "catalog" => catalog_url.clone(),
        _ => format!("http://127.0.0.1:{port}"),
    });
    let state = ::gateway::GatewayState::with(&config, Arc::new(upstreams), Signer::generate("bench").verifier())?
        .with_rate_limits(::gateway::rate_limits::RateLimits::off());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let gateway_addr = listener.local_addr()?;
    tokio::spawn(::gateway::serve(listener, state, std::future::pending()));

    same_rows(gateway_addr, raw_addr).await?;
    let (c, n) = (options.concurrency, options.requests);
    // Warm both sides (plans, caches, connections).
    throughput(raw_addr, c, n / 5, raw_request).await?;
    throughput(gateway_addr, c, n / 5, listing).await?;

    let raw = throughput(raw_addr, c, n, raw_request).await?;
    let gw = throughput(gateway_addr, c, n, listing).await?;
    let cards = throughput(gateway_addr, c, n, listing_cards).await?;
    anyhow::ensure!(
        raw.failed + gw.failed + cards.failed == 0,
        "failed requests: raw {raw:?} gateway {gw:?} {cards:?}"
    );

    let rate = gw.per_second / 2.0;
    let raw_half = paced(raw_addr, rate, options.paced_requests, raw_request).await?;
    let gw_half = paced(gateway_addr, rate, options.paced_requests, listing).await?;
    let (raw_p99, gw_p99) = (percentile_ms(&raw_half, 99.0), percentile_ms(&gw_half, 99.0));
    let figures = Figures {
        raw_per_second: raw.per_second,
        gateway_per_second: gw.per_second,
        cards_per_second: cards.per_second,
        throughput_ratio: gw.per_second / raw.per_second,
        half_load_rate: rate,
        raw_half_p99_ms: raw_p99,
        gateway_half_p99_ms: gw_p99,
        p99_ratio: gw_p99 / raw_p99,
    };
    pool.close().await;

    let videos: i64 = figures_videos(settings, options.videos).await.unwrap_or(0);
    println!(
        "gateway: videos listing (12 videos with performers), {videos} videos in the catalog, {c} clients \
         (one connection each), {n} requests per side"
    );
    println!("{:<44} {:>9} {:>8} {:>8} {:>8} {:>8}", "closed loop", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms");
    for (name, s) in [
        ("raw axum + sqlx", &raw),
        ("gateway (GraphQL -> catalog)", &gw),
        ("gateway, performers' whole cards (+1 batch)", &cards),
    ] {
        println!(
            "{:<44} {:>9.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            name, s.per_second, s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms
        );
    }
    println!(
        "throughput ratio gateway/raw: {:.2} (target >= 0.5); with whole performer cards: {:.2}",
        figures.throughput_ratio,
        cards.per_second / raw.per_second
    );
    println!(
        "half load ({:.0} req/s offered to each, {} requests): p99 raw {:.2} ms, gateway {:.2} ms, ratio {:.2} \
         (target <= 2); p50 raw {:.2} ms, gateway {:.2} ms",
        rate,
        options.paced_requests,
        raw_p99,
        gw_p99,
        figures.p99_ratio,
        percentile_ms(&raw_half, 50.0),
        percentile_ms(&gw_half, 50.0)
    );
    Ok(figures)
}

async fn figures_videos(settings: &Settings, videos: Option<usize>) -> anyhow::Result<i64> {
    let (pool, _) = catalog_pool(settings, videos).await?;
    let n = sqlx::query_scalar("select count(*) from video").fetch_one(&pool).await?;
    pool.close().await;
    Ok(n)
}

pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let f = bench(settings, &Options::from_env()).await?;
    let verdict = |met: bool| if met { "met" } else { "NOT met" };
    println!(
        "targets: throughput {:.0} / {:.0} req/s = {:.2} (>= 0.5: {}); whole cards {:.0} req/s; \
         p99 at half load ({:.0} req/s) {:.2} / {:.2} ms = {:.2} (<= 2: {})",
        f.gateway_per_second,
        f.raw_per_second,
        f.throughput_ratio,
        verdict(f.throughput_ratio >= 0.5),
        f.cards_per_second,
        f.half_load_rate,
        f.gateway_half_p99_ms,
        f.raw_half_p99_ms,
        f.p99_ratio,
        verdict(f.p99_ratio <= 2.0)
    );
    Ok(())
}
