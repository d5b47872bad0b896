//! `catalog-bench`: the catalog benchmark without the `paysite` command (same as
//! `paysite bench catalog`). `DATABASE_URL`, `CATALOG_BENCH_VIDEOS` (100000),
//! `CATALOG_BENCH_CONCURRENCY` (50), `CATALOG_BENCH_REQUESTS` (5000), `CATALOG_READ_CACHE_MB`
//! (64; 0 measures without the read cache).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = runtime::Settings::from_env()?;
    catalog::bench::run(&settings).await
}
