//! `paysite bench refusals`: what the gateway's document limits cost, in one run.
//!
//! 1. Each hostile shape (fragment explosions of 2^10 to 2^30 spreads, depth 50, 2,000
//!    aliases, a 100-operation batch, 1 MB of text, 50 directives; fragment cycles of one, two
//!    and 50 fragments, inside nested fields, through inline fragments and in a batch; chains of
//!    60, 1,500 and 10,000 fragments; lists 500 deep, alone and after four quotes), sent one after another on one keep-alive
//!    connection: the latency of each refusal, p50 / p99 / max, with the code it got. Target:
//!    p99 ≤ 5 ms for every shape.
//! 2. The videos listing, closed loop, through two gateways over the same catalog: one with the
//!    cost checks ([`gateway::graphql::cost::CostGuard`]), one without, in alternating rounds.
//!    Target: the checks cost at most 5 % of the throughput. Both sides remember the texts they
//!    parsed (the guard's memory, which the side without the checks keeps too:
//!    `CostGuard::parse_cache_only`), and neither has a read cache in front of the catalog
//!    beyond the catalog's own (the same catalog serves both).
//!
//! Rate limits are off on both gateways: every request comes from 127.0.0.1.

use std::{path::PathBuf, sync::Arc, time::Instant};

use runtime::{auth::Signer, Settings};
use serde_json::{json, Value};

use super::{
    gateway::{catalog_pool, listing, serve, throughput, Conn, HOST},
    percentile_ms,
};

/// Requests per hostile shape.
const PER_SHAPE: usize = 500;
const CONCURRENCY: usize = 16;
const PER_ROUND: usize = 3_000;
const ROUNDS: usize = 7;

fn post(body: &str) -> Vec<u8> {
    format!(
        "POST /graphql HTTP/1.1\r\nHost: {HOST}\r\ncontent-type: application/json\r\nx-paysite-csrf: 1\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn query(text: &str) -> Vec<u8> {
    post(&json!({ "query": text }).to_string())
}

fn explosion(levels: u32) -> String {
    let mut query = format!("query Boom {{ ...F{levels} }}\nfragment F0 on QueryRoot {{ __typename }}\n");
    for k in 1..=levels {
        query.push_str(&format!("fragment F{k} on QueryRoot {{ ...F{j} ...F{j} }}\n", j = k - 1));
    }
    query
}

/// The hostile shapes, by name.
fn shapes() -> Vec<(String, Vec<u8>)> {
    let mut shapes: Vec<(String, Vec<u8>)> =
        [10, 20, 30].iter().map(|&k| (format!("fragment explosion 2^{k}"), query(&explosion(k)))).collect();
    let deep = format!("{{ {}tenantConfig{} }}", "__typename ... on QueryRoot { ".repeat(50), " }".repeat(50));
    shapes.push(("depth 50".to_owned(), query(&deep)));
    let aliases: String = (0..2000).map(|i| format!("a{i}: tenantConfig ")).collect();
    shapes.push(("2,000 aliases".to_owned(), query(&format!("{{ {aliases} }}"))));
    let batch: Vec<Value> = (0..100).map(|_| json!({ "query": "{ __typename }" })).collect();
    shapes.push(("batch of 100 operations".to_owned(), post(&Value::Array(batch).to_string())));
    shapes.push(("1 MB of text".to_owned(), query(&format!("{{ tenantConfig {} }}", " ".repeat(1 << 20)))));
    let directives = "@include(if: true) ".repeat(50);
    shapes.push(("50 directives".to_owned(), query(&format!("{{ tenantConfig {directives} }}"))));
    // Fragment cycles, each of which overflowed the stack before they were refused.
    let cycle = "query { ...A } fragment A on QueryRoot { ...B } fragment B on QueryRoot { ...A }";
    shapes.push(("cycle of two fragments".to_owned(), query(cycle)));
    shapes.push(("self-spread".to_owned(), query("query { ...A } fragment A on QueryRoot { a: __typename ...A }")));
    let long: String =
        (0..50).map(|i| format!("fragment C{i} on QueryRoot {{ __typename ...C{} }}\n", (i + 1) % 50)).collect();
    shapes.push(("cycle of 50 fragments".to_owned(), query(&format!("{{ ...C0 }}\n{long}"))));
    shapes.push((
        "cycle inside nested fields".to_owned(),
        query("{ a { b { ...A } } } fragment A on QueryRoot { c { d { ...A } } }"),
    ));
    shapes.push((
        "cycle through inline fragments".to_owned(),
        query("{ ... on QueryRoot { ...A } } fragment A on QueryRoot { ... on QueryRoot { ... { ...A } } }"),
    ));
    let batch = json!([{ "query": "{ __typename }" }, { "query": cycle }]);
    shapes.push(("cycle in a batch".to_owned(), post(&batch.to_string())));
    shapes.push(("chain of 60 fragments".to_owned(), query(&chain(60))));
    shapes.push(("chain of 1,500 fragments".to_owned(), query(&chain(1_500))));
    shapes.push(("chain of 10,000 fragments".to_owned(), query(&chain(10_000))));
    let lists = |before: &str| {
        format!("{{ videoAccess(videoIds: [{before}{}\"v\"{}]) {{ videoId }} }}", "[".repeat(500), "]".repeat(500))
    };
    shapes.push(("lists 500 deep".to_owned(), query(&lists(""))));
    shapes.push(("lists 500 deep after \"\"\"\"".to_owned(), query(&lists("\"\"\"\", "))));
    shapes
}

/// `n` distinct fragments, each spreading the next.
fn chain(n: usize) -> String {
    let mut text = String::from("{ ...F0 }\n");
    for i in 0..n {
        text.push_str(&format!("fragment F{i} on QueryRoot {{ ...F{} }}\n", i + 1));
    }
    text + &format!("fragment F{n} on QueryRoot {{ __typename }}")
}

/// Sends `request` on a new connection, as far as the server reads it, and reads the answer's
/// status line (the server may answer and close before the body is all sent).
async fn send_alone(addr: std::net::SocketAddr, request: &[u8]) -> anyhow::Result<(u16, Vec<u8>)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let text = String::from_utf8_lossy(request).replacen("HTTP/1.1\r\n", "HTTP/1.1\r\nconnection: close\r\n", 1);
    let _ = stream.write_all(text.as_bytes()).await; // a refusal may close the connection mid-body
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    anyhow::ensure!(status != 0, "no answer to an oversized request");
    Ok((status, Vec::new()))
}

/// The code of a refusal: the first GraphQL error's (in a batch, of the first refused
/// operation), else the HTTP status.
fn refusal_code(status: u16, body: &[u8]) -> Option<String> {
    let answer: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let code_of = |answer: &Value| answer["errors"][0]["extensions"]["code"].as_str().map(str::to_owned);
    let code = match &answer {
        Value::Array(answers) => answers.iter().find_map(code_of),
        answer => code_of(answer),
    };
    match (status, code) {
        (_, Some(code)) => Some(code),
        (200, None) => None,
        (status, None) => Some(format!("HTTP {status}")),
    }
}

pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    let (pool, store) = catalog_pool(settings, None).await?;
    let catalog_state = catalog::AppState::new(
        pool.clone(),
        store,
        Signer::generate("bench").verifier(),
        catalog::CatalogConfig::default(),
    );
    let catalog_addr = serve(catalog::router(catalog_state)).await?;
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let config = ::gateway::GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => tenants.to_str().map(str::to_owned),
        "PAYSITE_DIST_DIR" => Some("/nonexistent".to_owned()),
        _ => None,
    })?;
    let catalog_url = format!("http://{catalog_addr}");
    let gateway = |guarded: bool| -> anyhow::Result<::gateway::GatewayState> {
        let upstreams = ::gateway::graphql::Upstreams::with_base(|name, port| match name {
            "catalog" => catalog_url.clone(),
            _ => format!("http://127.0.0.1:{port}"),
        });
        let state = ::gateway::GatewayState::with(&config, Arc::new(upstreams), Signer::generate("bench").verifier())?
            .with_rate_limits(::gateway::rate_limits::RateLimits::off());
        Ok(if guarded { state } else { state.without_cost_guard() })
    };
    let start = |state: ::gateway::GatewayState| async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(::gateway::serve(listener, state, std::future::pending()));
        anyhow::Ok(addr)
    };
    let guarded = start(gateway(true)?).await?;
    let unguarded = start(gateway(false)?).await?;

    println!("refusals: each hostile shape {PER_SHAPE} times, one after another on one connection");
    println!("{:<28} {:>26} {:>8} {:>8} {:>8}", "shape", "refused with", "p50 ms", "p99 ms", "max ms");
    let mut worst_p99: f64 = 0.0;
    let mut conn = Conn::new(guarded);
    for (name, request) in shapes() {
        let mut latencies = Vec::with_capacity(PER_SHAPE);
        let mut code = None;
        // A body past the limit is refused before it is read, and the connection closed: such a
        // shape goes on a connection of its own each time.
        let oversized = request.len() > ::gateway::graphql::MAX_BODY_BYTES * 4;
        for i in 0..PER_SHAPE + 20 {
            let t = Instant::now();
            let (status, body) =
                if oversized { send_alone(guarded, &request).await? } else { conn.send(&request).await? };
            let took = t.elapsed().as_micros() as u64;
            let refused = refusal_code(status, &body);
            anyhow::ensure!(refused.is_some(), "{name} was not refused");
            code = refused;
            if i >= 20 {
                latencies.push(took); // the first 20 warm the connection
            }
        }
        latencies.sort_unstable();
        let p99 = percentile_ms(&latencies, 99.0);
        worst_p99 = worst_p99.max(p99);
        println!(
            "{:<28} {:>26} {:>8.3} {:>8.3} {:>8.3}",
            name,
            code.unwrap_or_default(),
            percentile_ms(&latencies, 50.0),
            p99,
            latencies.last().copied().unwrap_or(0) as f64 / 1000.0
        );
    }
    println!(
        "worst refusal p99 {worst_p99:.3} ms (target <= 5 ms: {})",
        if worst_p99 <= 5.0 { "met" } else { "NOT met" }
    );

    // Warm both, then alternate rounds so that neither side gets the quieter machine.
    throughput(guarded, CONCURRENCY, PER_ROUND / 5, listing).await?;
    throughput(unguarded, CONCURRENCY, PER_ROUND / 5, listing).await?;
    let (mut with, mut without, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Alternate which side goes first, so neither always follows the other.
        let (a, b) = if round % 2 == 0 {
            let a = throughput(unguarded, CONCURRENCY, PER_ROUND, listing).await?;
            (a, throughput(guarded, CONCURRENCY, PER_ROUND, listing).await?)
        } else {
            let b = throughput(guarded, CONCURRENCY, PER_ROUND, listing).await?;
            (throughput(unguarded, CONCURRENCY, PER_ROUND, listing).await?, b)
        };
        anyhow::ensure!(a.failed + b.failed == 0, "failed requests: {a:?} {b:?}");
        println!("  round {}: without {:.0} req/s, with {:.0} req/s", round + 1, a.per_second, b.per_second);
        without.push(a.per_second);
        with.push(b.per_second);
        ratios.push(b.per_second / a.per_second);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (w, wo, ratio) = (median(&mut with), median(&mut without), median(&mut ratios));
    println!(
        "videos listing, closed loop, {CONCURRENCY} clients, {PER_ROUND} requests a round, {ROUNDS} alternating rounds: \
         median without the cost checks {wo:.0} req/s, with them {w:.0} req/s; median of the rounds' ratios {ratio:.3} \
         (target >= 0.95: {})",
        if ratio >= 0.95 { "met" } else { "NOT met" }
    );
    pool.close().await;
    Ok(())
}
