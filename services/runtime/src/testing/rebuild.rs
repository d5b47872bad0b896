//! The check every service makes of its read models: rebuilt from their sources, they hold
//! the rows they held live.

use std::sync::Arc;

use sqlx::PgPool;

use crate::projection::{self, Projection};

/// The rows of each `(table, order)` of `tables`, table by table: each row as JSON text, in
/// the order of `order` (the table's columns, `user_id, site`).
pub async fn rows(pool: &PgPool, tables: &[(&str, &str)]) -> Vec<Vec<String>> {
    let mut all = Vec::with_capacity(tables.len());
    for (table, order) in tables {
        let query = format!("select row_to_json(t)::text from (select * from {table} order by {order}) t");
        all.push(sqlx::query_scalar(&query).fetch_all(pool).await.unwrap());
    }
    all
}

/// Rebuilds each of `projections` from its source (each must replay something), then asserts
/// that each of `tables` holds again what it held `live` (the [`rows`] read before).
pub async fn assert_rebuild_restores(
    pool: &PgPool,
    projections: Vec<Arc<dyn Projection>>,
    tables: &[(&str, &str)],
    live: &[Vec<String>],
) {
    for projection in projections {
        let replayed = projection::rebuild(pool, projection.as_ref()).await.unwrap();
        assert!(replayed > 0, "{} replayed nothing", projection.name());
    }
    let rebuilt = rows(pool, tables).await;
    for ((table, _), (live, rebuilt)) in tables.iter().zip(live.iter().zip(&rebuilt)) {
        assert_eq!(live, rebuilt, "{table}");
    }
}
