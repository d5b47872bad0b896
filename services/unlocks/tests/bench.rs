//! The unlocks benchmark: a quick run checks it works; the full one is `--run-ignored only`.

mod support;

use unlocks::bench::{bench, BenchOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_every_scenario() {
    let options = BenchOptions { database_url: support::database_url(), concurrency: 4, requests: 40, pool_size: 4 };
    let rows = bench(&options).await.unwrap();
    assert_eq!(rows.len(), 7);
    for row in rows {
        assert_eq!((row.requests, row.failed), (40, 0), "{}", row.scenario);
        assert!(row.p99_ms >= row.p50_ms && row.per_second > 0.0);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-target-unlocks cargo nextest run -p unlocks --run-ignored only --no-capture bench`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_unlocks() {
    let concurrency = std::env::var("UNLOCKS_BENCH_CONCURRENCY").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let requests = std::env::var("UNLOCKS_BENCH_REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    bench(&BenchOptions { database_url: support::database_url(), concurrency, requests, pool_size: 20 }).await.unwrap();
}
