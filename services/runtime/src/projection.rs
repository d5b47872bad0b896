//! Read models kept from events, and their rebuild.
//!
//! A projection is fed either by the service's own events (applied in the append's
//! transaction, rebuilt from the event store) or by a consumer (applied in the consumer's
//! transaction, rebuilt from that consumer's inbox, in arrival order). A rebuild empties
//! the projection's tables and replays its source in one transaction, so readers see the
//! old state until the new one is complete, and the rebuilt state equals the live one.

use std::sync::Arc;

use async_trait::async_trait;
use proto_events::Envelope;
use sqlx::{PgConnection, PgPool};

use crate::consumer::Handler;

/// Where a projection's events come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The service's own event store.
    OwnEvents,
    /// What the named consumer received (its inbox).
    Inbox(String),
}

#[async_trait]
pub trait Projection: Send + Sync + 'static {
    fn name(&self) -> &str;
    fn source(&self) -> Source;
    /// The tables this projection alone writes; emptied before a rebuild.
    fn tables(&self) -> &[&'static str];
    /// Applies one event. Must only write the projection's own tables: it is replayed.
    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()>;
}

/// Feeds a consumer-fed projection from its queue.
pub struct ProjectionHandler(pub Arc<dyn Projection>);

#[async_trait]
impl Handler for ProjectionHandler {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        self.0.apply(tx, event).await
    }
}

/// Replays a projection's source into emptied tables. Returns the events replayed.
///
/// Safe while the service runs: the projection's tables are locked against writers for
/// the length of the rebuild (readers are not blocked), so the service's writes pause.
pub async fn rebuild(pool: &PgPool, projection: &dyn Projection) -> anyhow::Result<u64> {
    const PAGE: i64 = 2_000;
    let mut tx = pool.begin().await?;
    for table in projection.tables() {
        crate::db::check_schema_name(table)?;
    }
    // Writers wait until the rebuilt state is committed, then see it; readers go on
    // reading the old state meanwhile. Without the lock a writer could act on a row the
    // rebuild deleted and not yet restored.
    if !projection.tables().is_empty() {
        sqlx::query(&format!("lock table {} in exclusive mode", projection.tables().join(", ")))
            .execute(&mut *tx)
            .await?;
    }
    for table in projection.tables() {
        sqlx::query(&format!("delete from {table}")).execute(&mut *tx).await?;
    }
    let mut after = 0i64;
    let mut replayed = 0u64;
    loop {
        let page: Vec<(i64, serde_json::Value)> = match projection.source() {
            Source::OwnEvents => {
                sqlx::query_as(
                    "select global_position, json_build_object(
                        'event_id', event_id, 'stream_id', stream_id, 'stream_version', stream_version,
                        'type', event_type, 'schema_version', schema_version, 'occurred_at', occurred_at,
                        'tenant', tenant, 'correlation_id', correlation_id, 'causation_id', causation_id,
                        'actor', actor, 'payload', payload)::jsonb
                     from event where global_position > $1 order by global_position limit $2",
                )
                .bind(after)
                .bind(PAGE)
                .fetch_all(&mut *tx)
                .await?
            }
            Source::Inbox(consumer) => {
                sqlx::query_as("select seq, envelope from inbox where consumer = $1 and seq > $2 order by seq limit $3")
                    .bind(consumer)
                    .bind(after)
                    .bind(PAGE)
                    .fetch_all(&mut *tx)
                    .await?
            }
        };
        let Some((last, _)) = page.last() else { break };
        after = *last;
        for (_, json) in page {
            let envelope: Envelope = serde_json::from_value(json)?;
            projection.apply(&mut tx, &envelope).await?;
            replayed += 1;
        }
    }
    tx.commit().await?;
    tracing::info!(projection = projection.name(), replayed, "projection rebuilt");
    Ok(replayed)
}
