//! The profile benchmark: a quick run checks it works; the full one is `--run-ignored only`.

use profile::bench::{bench, options, BenchOptions};
use profile::config::Argon2Cost;
use runtime::bench::LoadOptions;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_reads_and_logins() {
    let options = BenchOptions {
        load: LoadOptions { database_url: runtime::testing::database_url(), concurrency: 4, total: 80, pool_size: 32 },
        users: 5,
        logins: 6,
        login_concurrency: 2,
        argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
    };
    let rows = bench(&options).await.unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].stats.requests, rows[0].stats.failed), (80, 0), "{}", rows[0].scenario);
    assert_eq!((rows[1].stats.requests, rows[1].stats.failed), (6, 0), "{}", rows[1].scenario);
    for row in rows {
        assert!(row.stats.p99_ms >= row.stats.p50_ms && row.stats.per_second > 0.0);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-target-profile cargo nextest run -p profile --run-ignored only --no-capture bench_profile`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_profile() {
    bench(&options(&runtime::testing::database_url())).await.unwrap();
}
