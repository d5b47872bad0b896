//! Creating the service's database against the real PostgreSQL: replicas (and test binaries)
//! starting together each create it when it is missing, and all of them go on.

use runtime::db;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_starts_create_a_missing_database_once_and_all_go_on() {
    let name = format!("paysite_race_{}", uuid::Uuid::now_v7().simple());
    let url = format!("postgres://postgres@127.0.0.1:5432/{name}");
    let mut starts = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let url = url.clone();
        starts.spawn(async move { db::ensure_database(&url).await });
    }
    while let Some(started) = starts.join_next().await {
        started.unwrap().unwrap_or_else(|e| panic!("a start failed on the race: {e:#}"));
    }
    let admin = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres").await.unwrap();
    let count: i64 = sqlx::query_scalar("select count(*) from pg_database where datname = $1")
        .bind(&name)
        .fetch_one(&admin)
        .await
        .unwrap();
    assert_eq!(count, 1);
    sqlx::query(&format!("drop database \"{name}\"")).execute(&admin).await.unwrap();
}
