//! The unlocks benchmark: a quick run checks it works; the full one is `--run-ignored only`.

mod support;

use runtime::bench::LoadOptions;
use unlocks::bench::{bench, options};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_every_scenario() {
    let options = LoadOptions { database_url: support::database_url(), concurrency: 4, total: 40, pool_size: 4 };
    let rows = bench(&options).await.unwrap();
    assert_eq!(rows.len(), 8);
    for row in rows {
        assert_eq!((row.stats.requests, row.stats.failed), (40, 0), "{}", row.scenario);
        assert!(row.stats.p99_ms >= row.stats.p50_ms && row.stats.per_second > 0.0);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-target-unlocks cargo nextest run -p unlocks --run-ignored only --no-capture bench`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_unlocks() {
    let options = options(&support::database_url()).with_env("UNLOCKS_BENCH_CONCURRENCY", "UNLOCKS_BENCH_REQUESTS");
    bench(&options).await.unwrap();
}
