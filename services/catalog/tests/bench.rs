//! The catalog benchmark: a quick run on a small catalog checks it works; the full one
//! (100k videos, 50 clients) is `--run-ignored only`.

use catalog::bench::{bench, options, options_from_env, BenchOptions};
use runtime::bench::LoadOptions;

fn settings() -> runtime::Settings {
    let url = runtime::testing::database_url();
    runtime::Settings::from_lookup(|k| (k == "DATABASE_URL").then(|| url.clone())).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_every_scenario() {
    let videos = 600 + (uuid::Uuid::new_v4().as_u128() % 1000) as usize;
    let url = runtime::testing::database_url();
    let options = BenchOptions {
        load: LoadOptions { database_url: url.clone(), concurrency: 4, total: 60, pool_size: 4 },
        videos,
        drop_schema: true,
        ..options(&url)
    };
    let rows = bench(&settings(), &options).await.unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!((row.http.requests, row.failed()), (60, 0), "{}", row.scenario);
        assert!(row.http.p99_ms >= row.http.p50_ms && row.http.per_second > 0.0 && row.sql.p95_ms > 0.0);
        // A skewed mix repeats keys, and repeats are answered by the cache.
        assert!(row.keys > 1 && row.keys < 60, "{}: {} keys", row.scenario, row.keys);
        assert!(row.hit_rate > 0.0, "{}", row.scenario);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-target-catalog cargo nextest run -p catalog --run-ignored only --no-capture bench_catalog`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_catalog_reads() {
    let options = options_from_env(&runtime::testing::database_url());
    bench(&settings(), &options).await.unwrap();
}
