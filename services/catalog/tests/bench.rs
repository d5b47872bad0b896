//! The catalog benchmark: a quick run on a small catalog checks it works; the full one
//! (100k videos, 50 clients) is `--run-ignored only`.

use catalog::bench::{bench, BenchOptions};

fn settings() -> runtime::Settings {
    let url = runtime::testing::database_url();
    runtime::Settings::from_lookup(|k| (k == "DATABASE_URL").then(|| url.clone())).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_benchmark_reports_every_scenario() {
    let videos = 600 + (uuid::Uuid::new_v4().as_u128() % 1000) as usize;
    let options = BenchOptions {
        database_url: runtime::testing::database_url(),
        videos,
        concurrency: 4,
        requests: 60,
        pool_size: 4,
        drop_schema: true,
        ..BenchOptions::default()
    };
    let rows = bench(&settings(), &options).await.unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!((row.requests, row.failed), (60, 0), "{}", row.scenario);
        assert!(row.p99_ms >= row.p50_ms && row.per_second > 0.0 && row.sql_p95_ms > 0.0);
        // A skewed mix repeats keys, and repeats are answered by the cache.
        assert!(row.keys > 1 && row.keys < 60, "{}: {} keys", row.scenario, row.keys);
        assert!(row.hit_rate > 0.0, "{}", row.scenario);
    }
}

/// `CARGO_TARGET_DIR=/var/tmp/paysite-target-catalog cargo nextest run -p catalog --run-ignored only --no-capture bench_catalog`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run on purpose"]
async fn bench_catalog_reads() {
    let number = |k: &str, d: usize| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let options = BenchOptions {
        database_url: runtime::testing::database_url(),
        videos: number("CATALOG_BENCH_VIDEOS", 100_000),
        concurrency: number("CATALOG_BENCH_CONCURRENCY", 50),
        requests: number("CATALOG_BENCH_REQUESTS", 5_000),
        pool_size: 20,
        drop_schema: false,
        read_cache: catalog::CatalogConfig::from_env().read_cache,
    };
    bench(&settings(), &options).await.unwrap();
}
