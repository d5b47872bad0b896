//! The benchmark runs end to end (a short run, against the test database).

use deals::bench::{bench, options};
use runtime::bench::LoadOptions;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_runs_every_scenario_without_failures() {
    let options =
        LoadOptions { database_url: runtime::testing::database_url(), concurrency: 4, total: 40, pool_size: 4 };
    let rows = bench(&options).await.unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        assert_eq!((row.stats.requests, row.stats.failed), (40, 0), "{}", row.scenario);
    }
}

/// The full benchmark (`cargo nextest run -p deals --run-ignored only -E 'test(full)'`): the
/// figures of docs/benchmarks.md come from `paysite bench deals`, which runs the same.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark, not a test: minutes of load"]
async fn full_benchmark() {
    bench(&options(&runtime::testing::database_url())).await.unwrap();
}
