//! The wallet benchmark: a quick run checks it works; the full one is `--run-ignored only`.

mod support;

use wallet::bench::{bench, BenchOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_every_scenario() {
    let options = BenchOptions { database_url: support::database_url(), concurrency: 4, debits: 60, pool_size: 4 };
    let rows = bench(&options).await.unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!((row.debits, row.failed), (60, 0), "{}", row.scenario);
        assert!(row.p99_ms >= row.p50_ms && row.per_second > 0.0);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-wallet cargo nextest run -p wallet --run-ignored only --no-capture bench`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_wallet_debits() {
    let concurrency = std::env::var("WALLET_BENCH_CONCURRENCY").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let debits = std::env::var("WALLET_BENCH_DEBITS").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    let options = BenchOptions { database_url: support::database_url(), concurrency, debits, pool_size: 20 };
    bench(&options).await.unwrap();
}
