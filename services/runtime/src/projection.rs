//! Read models kept from events, and their rebuild.
//!
//! A projection is fed either by the service's own events (applied in the append's
//! transaction, rebuilt from the event store) or by a consumer (applied in the consumer's
//! transaction, rebuilt from that consumer's inbox, in arrival order). A rebuild replays
//! its source into copies of the projection's tables beside the live ones, then swaps them
//! in within one short transaction, so readers see the old state until the new one is
//! complete, writers are held up only for the swap, and the rebuilt state equals the live one.

use std::sync::Arc;

use async_trait::async_trait;
use futures::future::BoxFuture;
use proto_events::{DecodeError, Envelope, EventFamily};
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

/// Applies one event to a projection's tables, inside the caller's transaction: the one
/// function the live writer (the append's transaction, or the consumer) and a rebuild both
/// call, so that a rebuilt model equals the live one.
pub type ApplyEvent = for<'a> fn(&'a mut PgConnection, &'a Envelope) -> BoxFuture<'a, anyhow::Result<()>>;

/// A read model: its name, where its events come from, the tables it alone writes, and the
/// function that applies one event. Every service's projections are one of these.
pub struct ReadModel {
    name: &'static str,
    source: Source,
    tables: &'static [&'static str],
    apply: ApplyEvent,
}

impl ReadModel {
    /// Kept from the service's own events; `name` as `paysite rebuild-projections` lists it.
    pub const fn own_events(name: &'static str, tables: &'static [&'static str], apply: ApplyEvent) -> Self {
        ReadModel { name, source: Source::OwnEvents, tables, apply }
    }

    /// Fed by, and rebuilt from the inbox of, the consumer reading `queue`.
    pub fn inbox(
        name: &'static str,
        queue: impl Into<String>,
        tables: &'static [&'static str],
        apply: ApplyEvent,
    ) -> Self {
        ReadModel { name, source: Source::Inbox(queue.into()), tables, apply }
    }
}

#[async_trait]
impl Projection for ReadModel {
    fn name(&self) -> &str {
        self.name
    }

    fn source(&self) -> Source {
        self.source.clone()
    }

    fn tables(&self) -> &[&'static str] {
        self.tables
    }

    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        (self.apply)(tx, event).await
    }
}

/// Decodes an event another service published; `None` for a type this reader does not know (a
/// newer producer's event, none of its business), which is acknowledged and passed over.
pub fn decode_known<E: EventFamily>(envelope: &Envelope) -> Result<Option<E>, DecodeError> {
    match proto_events::decode(envelope) {
        Ok(event) => Ok(Some(event)),
        Err(DecodeError::UnknownType { event_type, .. }) => {
            tracing::debug!(event_id = %envelope.event_id, event_type, "event type of no interest passed over");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Feeds a consumer-fed projection from its queue.
pub struct ProjectionHandler(pub Arc<dyn Projection>);

#[async_trait]
impl Handler for ProjectionHandler {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        self.0.apply(tx, event).await
    }
}

/// Rebuilds a projection from its source (see [`rebuild_with_progress`]).
pub async fn rebuild(pool: &PgPool, projection: &dyn Projection) -> anyhow::Result<u64> {
    rebuild_with_progress(pool, projection, &|_, _| {}).await
}

/// Rebuilds a projection from its source and swaps the rebuilt tables in. Returns the events
/// replayed; `progress(replayed, total)` is told as pages go by.
///
/// Readers and writers are not held up by the replay: it writes into copies of the tables
/// (`<schema>_rebuild.<table>`, made `like` them, indexes and constraints included) while
/// the service goes on. Then one short transaction locks the live tables against writers,
/// replays what arrived meanwhile, and swaps the copies in (drop the old table, move the
/// copy into the schema): readers wait only for that moment. A rebuild that fails leaves the
/// live tables as they were. Tables with triggers, or that a foreign key or a view refers
/// to, cannot be swapped by name; their projection is rebuilt in place in one transaction,
/// with writers waiting (readers go on reading the old state).
pub async fn rebuild_with_progress(
    pool: &PgPool,
    projection: &dyn Projection,
    progress: &(dyn Fn(u64, u64) + Send + Sync),
) -> anyhow::Result<u64> {
    for table in projection.tables() {
        crate::db::check_schema_name(table)?;
    }
    let schema: String = sqlx::query_scalar("select current_schema()").fetch_one(pool).await?;
    crate::db::check_schema_name(&schema)?;
    let total = source_size(pool, &projection.source()).await?;
    if projection.tables().is_empty() || !swappable(pool, &schema, projection.tables()).await? {
        return rebuild_in_place(pool, projection, total, progress).await;
    }
    let shadow = format!("{schema}_rebuild");
    crate::db::check_schema_name(&shadow)?;
    // Its own connection, closed afterwards: its statements were prepared against the copies.
    let mut conn = pool.acquire().await?.detach();
    sqlx::raw_sql(&format!("drop schema if exists {shadow} cascade; create schema {shadow}"))
        .execute(&mut conn)
        .await?;
    for table in projection.tables() {
        sqlx::query(&format!("create table {shadow}.{table} (like {schema}.{table} including all)"))
            .execute(&mut conn)
            .await?;
    }
    let path = format!("set local search_path = {shadow}, {schema}");
    // The long part, beside the live service, from one snapshot (repeatable read): every event
    // committed before it, into the copies. The transactions in flight at that snapshot are
    // noted: their events may sit below the last position replayed, and are taken up later.
    let mut tx = sqlx::Connection::begin(&mut conn).await?;
    sqlx::query("set transaction isolation level repeatable read").execute(&mut *tx).await?;
    let in_flight: Vec<i64> =
        sqlx::query_scalar("select (x::text::bigint) % 4294967296 from pg_snapshot_xip(pg_current_snapshot()) x")
            .fetch_all(&mut *tx)
            .await?;
    sqlx::query(&path).execute(&mut *tx).await?;
    let mut after = 0i64;
    let mut replayed = replay_rest(&mut tx, projection, &mut after, 0, &|n| progress(n, total.max(n))).await?;
    tx.commit().await?;
    // The short part: writers wait; what the snapshot missed and what came since is
    // replayed; the copies take the tables' place.
    let mut tx = sqlx::Connection::begin(&mut conn).await?;
    sqlx::query(&path).execute(&mut *tx).await?;
    let live: Vec<String> = projection.tables().iter().map(|t| format!("{schema}.{t}")).collect();
    sqlx::query(&format!("lock table {} in exclusive mode", live.join(", "))).execute(&mut *tx).await?;
    if !in_flight.is_empty() {
        replayed += replay_missed(&mut tx, projection, after, &in_flight).await?;
    }
    replayed = replay_rest(&mut tx, projection, &mut after, replayed, &|_| {}).await?;
    for table in projection.tables() {
        sqlx::query(&format!("drop table {schema}.{table}")).execute(&mut *tx).await?;
        sqlx::query(&format!("alter table {shadow}.{table} set schema {schema}")).execute(&mut *tx).await?;
    }
    sqlx::query(&format!("drop schema {shadow}")).execute(&mut *tx).await?;
    tx.commit().await?;
    let _ = sqlx::Connection::close(conn).await;
    progress(replayed, replayed);
    tracing::info!(projection = projection.name(), replayed, "projection rebuilt and swapped in");
    Ok(replayed)
}

/// How many events a rebuild replays (for its progress).
async fn source_size(pool: &PgPool, source: &Source) -> anyhow::Result<u64> {
    let n: i64 = match source {
        Source::OwnEvents => sqlx::query_scalar("select count(*) from event").fetch_one(pool).await?,
        Source::Inbox(consumer) => {
            sqlx::query_scalar("select count(*) from inbox where consumer = $1").bind(consumer).fetch_one(pool).await?
        }
    };
    Ok(n.max(0) as u64)
}

/// Whether `tables` can be replaced by name: no triggers on them, no foreign key or view
/// that refers to them (those follow the table itself, not its name).
async fn swappable(pool: &PgPool, schema: &str, tables: &[&'static str]) -> anyhow::Result<bool> {
    let names: Vec<String> = tables.iter().map(|t| (*t).to_owned()).collect();
    let tied: bool = sqlx::query_scalar(
        "with t as (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = $1 and c.relname = any($2))
         select exists (select 1 from pg_trigger where tgrelid in (select oid from t) and not tgisinternal)
             or exists (select 1 from pg_constraint where contype = 'f' and confrelid in (select oid from t))
             or exists (select 1 from pg_depend d join pg_rewrite r on r.oid = d.objid
                        where d.refobjid in (select oid from t) and d.classid = 'pg_rewrite'::regclass
                          and r.ev_class not in (select oid from t))",
    )
    .bind(schema)
    .bind(&names)
    .fetch_one(pool)
    .await?;
    Ok(!tied)
}

/// Applies the source's events up to `upto` written by the transactions `in_flight` (xids
/// modulo 2^32, as `xmin` holds them): committed after the rebuild's snapshot, below its
/// last position. Their streams had nothing later yet, so applying them now keeps order.
async fn replay_missed(
    tx: &mut PgConnection,
    projection: &dyn Projection,
    upto: i64,
    in_flight: &[i64],
) -> anyhow::Result<u64> {
    let rows: Vec<serde_json::Value> = match projection.source() {
        Source::OwnEvents => {
            sqlx::query_scalar(
                "select json_build_object(
                    'event_id', event_id, 'stream_id', stream_id, 'stream_version', stream_version,
                    'type', event_type, 'schema_version', schema_version, 'occurred_at', occurred_at,
                    'tenant', tenant, 'correlation_id', correlation_id, 'causation_id', causation_id,
                    'actor', actor, 'payload', payload)::jsonb
                 from event where global_position <= $1 and xmin::text::bigint = any($2) order by global_position",
            )
            .bind(upto)
            .bind(in_flight)
            .fetch_all(&mut *tx)
            .await?
        }
        Source::Inbox(consumer) => {
            sqlx::query_scalar(
                "select envelope from inbox where consumer = $1 and seq <= $2 and xmin::text::bigint = any($3)
                 order by seq",
            )
            .bind(consumer)
            .bind(upto)
            .bind(in_flight)
            .fetch_all(&mut *tx)
            .await?
        }
    };
    let n = rows.len() as u64;
    for json in rows {
        projection.apply(&mut *tx, &serde_json::from_value(json)?).await?;
    }
    Ok(n)
}

/// Applies the next page of the source after `after` (moved on); returns how many events.
/// Replays page after page past `after` until none is left; `replayed` counts on from what was
/// replayed before, and `progress` is told the count after each page.
async fn replay_rest(
    tx: &mut PgConnection,
    projection: &dyn Projection,
    after: &mut i64,
    mut replayed: u64,
    progress: &dyn Fn(u64),
) -> anyhow::Result<u64> {
    loop {
        let applied = replay_page(tx, projection, after).await?;
        if applied == 0 {
            return Ok(replayed);
        }
        replayed += applied;
        progress(replayed);
    }
}

async fn replay_page(tx: &mut PgConnection, projection: &dyn Projection, after: &mut i64) -> anyhow::Result<u64> {
    const PAGE: i64 = 2_000;
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
            .bind(*after)
            .bind(PAGE)
            .fetch_all(&mut *tx)
            .await?
        }
        Source::Inbox(consumer) => {
            sqlx::query_as("select seq, envelope from inbox where consumer = $1 and seq > $2 order by seq limit $3")
                .bind(consumer)
                .bind(*after)
                .bind(PAGE)
                .fetch_all(&mut *tx)
                .await?
        }
    };
    let Some((last, _)) = page.last() else { return Ok(0) };
    *after = *last;
    let n = page.len() as u64;
    for (_, json) in page {
        let envelope: Envelope = serde_json::from_value(json)?;
        projection.apply(&mut *tx, &envelope).await?;
    }
    Ok(n)
}

/// The rebuild in one transaction, the projection's tables locked against writers (not
/// readers) throughout: for tables that cannot be swapped by name.
async fn rebuild_in_place(
    pool: &PgPool,
    projection: &dyn Projection,
    total: u64,
    progress: &(dyn Fn(u64, u64) + Send + Sync),
) -> anyhow::Result<u64> {
    let mut tx = pool.begin().await?;
    // Without the lock a writer could act on a row the rebuild deleted and not yet restored.
    if !projection.tables().is_empty() {
        sqlx::query(&format!("lock table {} in exclusive mode", projection.tables().join(", ")))
            .execute(&mut *tx)
            .await?;
    }
    for table in projection.tables() {
        sqlx::query(&format!("delete from {table}")).execute(&mut *tx).await?;
    }
    let replayed = replay_rest(&mut tx, projection, &mut 0, 0, &|n| progress(n, total.max(n))).await?;
    tx.commit().await?;
    tracing::info!(projection = projection.name(), replayed, "projection rebuilt in place");
    Ok(replayed)
}
