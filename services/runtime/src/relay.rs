//! The outbox relay: publishes committed events to RabbitMQ, in order, at least once.
//!
//! One relay per service is active, the holder of a Postgres advisory lock; others stand
//! by and take over when it dies (its session ends, the lock frees). The relay wakes on
//! LISTEN/NOTIFY and polls as a safety net. It publishes outbox rows oldest first with
//! persistent delivery and publisher confirms, and deletes a row only after the broker
//! confirmed it. Rows are taken by what is still there, not by a high-water mark, so a
//! transaction that committed after a later one is not skipped.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex, OnceLock,
    },
    time::{Duration, Instant},
};

use chrono::{DateTime, Utc};
use futures::future::try_join_all;
use lapin::{options::BasicPublishOptions, options::ConfirmSelectOptions};
use sqlx::{postgres::PgListener, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::broker;

/// The NOTIFY channel the relay of `schema` listens on.
pub fn outbox_channel(schema: &str) -> String {
    format!("paysite_outbox_{schema}")
}

/// Wakes the relay of `schema` after a commit that appended events.
///
/// Not done inside the appending transaction: Postgres serialises the commits of all
/// notifying transactions of a database, WAL flush included, which would cap appends at
/// one per fsync. Instead a separate, asynchronously committed NOTIFY is sent, and
/// wake-ups that arrive while one is pending fold into it.
pub fn wake(pool: &PgPool, schema: &str) {
    // The relay of `schema` is active in this process: wake it without a round trip.
    if let Some(relay) = active_here().lock().unwrap().get(schema) {
        relay.wake.notify_one();
        return;
    }
    if crate::db::check_schema_name(schema).is_err() {
        tracing::warn!(schema, "no relay wake-up for an invalid schema name");
        return;
    }
    static PENDING: OnceLock<Mutex<HashMap<String, Arc<AtomicBool>>>> = OnceLock::new();
    let flag = PENDING.get_or_init(Default::default).lock().unwrap().entry(schema.to_owned()).or_default().clone();
    if flag.swap(true, Ordering::AcqRel) {
        return;
    }
    let (pool, channel) = (pool.clone(), outbox_channel(schema));
    tokio::spawn(async move {
        // Commits after this point send their own wake-up; those before are covered by this one.
        flag.store(false, Ordering::Release);
        // One round trip; the channel is built from a checked schema name.
        let sql = format!("begin; set local synchronous_commit = off; notify {channel}; commit;");
        let notify = sqlx::raw_sql(&sql).execute(&pool);
        if let Err(e) = notify.await {
            tracing::debug!(error = %e, "relay wake-up not sent; the relay's poll will find the events");
        }
    });
}

/// The relay active in this process for a schema (the holder of its lock), woken directly by
/// this process's commits. Its NOTIFY would cost the database a transaction per commit, and
/// its listener one notification per commit to read. Commits in other processes still
/// NOTIFY it.
struct ActiveRelay {
    /// Tells this relay's registration from another's (a relay that lost its lock and one
    /// that took over may overlap in one process).
    id: Uuid,
    wake: Arc<tokio::sync::Notify>,
}

fn active_here() -> &'static Mutex<HashMap<String, ActiveRelay>> {
    static ACTIVE: OnceLock<Mutex<HashMap<String, ActiveRelay>>> = OnceLock::new();
    ACTIVE.get_or_init(Default::default)
}

/// This process's registration as the active relay of a schema, for as long as it lives.
struct ActiveHere {
    schema: String,
    id: Uuid,
    wake: Arc<tokio::sync::Notify>,
}

impl ActiveHere {
    fn register(schema: &str) -> Self {
        let (id, wake) = (Uuid::now_v7(), Arc::new(tokio::sync::Notify::new()));
        let relay = ActiveRelay { id, wake: wake.clone() };
        active_here().lock().unwrap().insert(schema.to_owned(), relay);
        ActiveHere { schema: schema.to_owned(), id, wake }
    }
}

impl Drop for ActiveHere {
    fn drop(&mut self) {
        let mut active = active_here().lock().unwrap();
        if active.get(&self.schema).is_some_and(|relay| relay.id == self.id) {
            active.remove(&self.schema);
        }
    }
}

#[derive(Clone, Debug)]
pub struct RelaySettings {
    /// The service whose events these are: the routing key's first part and the schema.
    pub service: String,
    pub schema: String,
    pub amqp_url: String,
    pub exchange: String,
    pub batch_size: i64,
    pub poll_interval: Duration,
}

impl RelaySettings {
    pub fn new(service: &str, schema: &str, settings: &crate::config::Settings) -> Self {
        RelaySettings {
            service: service.to_owned(),
            schema: schema.to_owned(),
            amqp_url: settings.amqp_url.expose().to_owned(),
            exchange: settings.exchange.clone(),
            batch_size: 500,
            poll_interval: settings.relay_poll,
        }
    }
}

/// Runs until `cancel` fires: waits for the relay lock, then publishes.
pub async fn run(pool: PgPool, settings: RelaySettings, cancel: CancellationToken) {
    let mut failures = 0;
    while !cancel.is_cancelled() {
        // A panic is a bug, but it must not leave the service up with its relay gone.
        match broker::supervised(hold_lock_and_publish(&pool, &settings, &cancel)).await {
            Ok(()) => failures = 0,
            Err(e) => {
                failures += 1;
                tracing::warn!(service = %settings.service, error = %e, failures, "relay stopped, restarting");
            }
        }
        tokio::select! {
            _ = cancel.cancelled() => break,
            _ = tokio::time::sleep(broker::reconnect_delay(failures)) => {}
        }
    }
    tracing::info!(service = %settings.service, "relay stopped");
}

async fn hold_lock_and_publish(pool: &PgPool, s: &RelaySettings, cancel: &CancellationToken) -> anyhow::Result<()> {
    // The lock lives as long as this session: a relay that dies frees it.
    let mut lock_conn = pool.acquire().await?.detach();
    // If this process goes silent (a partition, a stopped VM), the server ends the session
    // and frees the lock within seconds rather than at TCP keepalive's two hours. The
    // relay touches the session every second while it holds the lock.
    sqlx::query("set idle_session_timeout = '10s'").execute(&mut lock_conn).await?;
    let lock_key = format!("paysite.relay.{}", s.schema);
    loop {
        let got: bool = sqlx::query_scalar("select pg_try_advisory_lock(hashtext($1))")
            .bind(&lock_key)
            .fetch_one(&mut lock_conn)
            .await?;
        if got {
            break;
        }
        tokio::select! {
            _ = cancel.cancelled() => return Ok(()),
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
        }
    }
    tracing::info!(service = %s.service, "relay active");
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(&outbox_channel(&s.schema)).await?;
    // From here on this process's commits wake this relay directly (a wake-up that comes while
    // it publishes is kept, and ends its next wait at once).
    let here = ActiveHere::register(&s.schema);

    let mut amqp_failures = 0u32;
    while !cancel.is_cancelled() {
        let connection = match broker::connect(&s.amqp_url, &format!("{}-relay", s.service)).await {
            Ok(c) => c,
            Err(e) => {
                amqp_failures += 1;
                tracing::warn!(service = %s.service, error = %e, "relay cannot reach the broker");
                crate::health::set_broker_up(&s.service, false);
                if let Err(e) = record_backlog(pool, &s.service).await {
                    tracing::debug!(error = %e, "outbox backlog not measured");
                }
                tokio::select! {
                    _ = cancel.cancelled() => return Ok(()),
                    _ = tokio::time::sleep(broker::reconnect_delay(amqp_failures)) => {}
                }
                check_lock(&mut lock_conn).await?;
                continue;
            }
        };
        amqp_failures = 0;
        crate::health::set_broker_up(&s.service, true);
        // How often the relay (re)connected: a count that climbs is a broker that keeps dropping it.
        metrics::counter!("paysite_relay_sessions_total", "service" => s.service.clone()).increment(1);
        // The session ends with its connection (`broker::lost`), even while it waits for
        // confirms the lost connection will never send, or idles with nothing to publish.
        let result = tokio::select! {
            result = publish_loop(pool, s, &connection, &mut listener, &here.wake, &mut lock_conn, cancel) => result,
            lost = broker::lost(&connection) => Err(RelayError::Broker(lost)),
        };
        broker::close(&connection, "relay stopping").await;
        match result {
            Ok(()) => return Ok(()),
            Err(e @ (RelayError::Broker(_) | RelayError::Refused(_))) => {
                crate::health::set_broker_up(&s.service, false);
                tracing::warn!(service = %s.service, error = %e, "relay lost the broker, reconnecting");
            }
            Err(RelayError::Database(e)) => return Err(e.into()),
        }
    }
    Ok(())
}

#[derive(Debug, thiserror::Error)]
enum RelayError {
    #[error("broker: {0}")]
    Broker(#[from] lapin::Error),
    /// The broker nacked a message: publish the batch again on a fresh channel.
    #[error("broker refused event {0}")]
    Refused(Uuid),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

#[derive(sqlx::FromRow)]
struct OutboxRow {
    id: i64,
    event_id: Uuid,
    event_type: String,
    correlation_id: Uuid,
    trace_context: Option<String>,
    recorded_at: DateTime<Utc>,
    envelope: String,
}

/// What waits in the outbox: how many events, and how long the first of them in publishing
/// order (the outbox's) has waited, in seconds.
///
/// The relay asks this every second between batches, so it must stay cheap however large the
/// event table grows: it counts the outbox alone and reads one event row, the first in the
/// outbox, by its key. (It once joined the whole outbox to the event table for the oldest
/// `recorded_at`; after a burst of appends the planner, its outbox statistics stale, hashed
/// the whole event table, 100–150 ms a second during which nothing was published:
/// docs/benchmarks.md, the lag at half rate.)
pub async fn backlog(pool: &PgPool) -> Result<(i64, f64), sqlx::Error> {
    sqlx::query_as(BACKLOG).fetch_one(pool).await
}

/// [`backlog`]'s statement.
pub const BACKLOG: &str = "select (select count(*) from outbox),
        coalesce((select extract(epoch from now() - e.recorded_at)::float8
                  from outbox o join event e on e.event_id = o.event_id
                  order by o.id limit 1), 0)";

/// Records the outbox's backlog: `paysite_relay_outbox_rows{service}` and
/// `paysite_relay_oldest_unpublished_seconds{service}` (0 when empty). While the broker is
/// away this is what grows (the writes keep going into the outbox), so it is what alerts.
async fn record_backlog(pool: &PgPool, service: &str) -> Result<(), sqlx::Error> {
    let (rows, oldest) = backlog(pool).await?;
    metrics::gauge!("paysite_relay_outbox_rows", "service" => service.to_owned()).set(rows as f64);
    metrics::gauge!("paysite_relay_oldest_unpublished_seconds", "service" => service.to_owned()).set(oldest.max(0.0));
    Ok(())
}

async fn check_lock(lock_conn: &mut sqlx::PgConnection) -> Result<(), sqlx::Error> {
    match tokio::time::timeout(Duration::from_secs(5), sqlx::query("select 1").execute(lock_conn)).await {
        Ok(result) => result.map(|_| ()),
        Err(_) => Err(sqlx::Error::PoolTimedOut),
    }
}

async fn publish_loop(
    pool: &PgPool,
    s: &RelaySettings,
    connection: &lapin::Connection,
    listener: &mut PgListener,
    woken: &tokio::sync::Notify,
    lock_conn: &mut sqlx::PgConnection,
    cancel: &CancellationToken,
) -> Result<(), RelayError> {
    let channel = connection.create_channel().await?;
    channel.confirm_select(ConfirmSelectOptions::default()).await?;
    broker::declare_exchange(&channel, &s.exchange).await?;
    let mut lock_checked = Instant::now();
    loop {
        if cancel.is_cancelled() {
            return Ok(());
        }
        // A relay whose session died has lost the lock; another may be active now.
        if lock_checked.elapsed() > Duration::from_secs(1) {
            check_lock(lock_conn).await?;
            record_backlog(pool, &s.service).await?;
            lock_checked = Instant::now();
        }
        let rows: Vec<OutboxRow> = sqlx::query_as(
            "select o.id, e.event_id, e.event_type, e.correlation_id, e.trace_context, e.recorded_at,
                    json_build_object(
                        'event_id', e.event_id, 'stream_id', e.stream_id, 'stream_version', e.stream_version,
                        'type', e.event_type, 'schema_version', e.schema_version,
                        'occurred_at', to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'),
                        'tenant', e.tenant, 'correlation_id', e.correlation_id, 'causation_id', e.causation_id,
                        'actor', e.actor, 'payload', e.payload)::text as envelope
             from outbox o join event e on e.event_id = o.event_id
             order by o.id limit $1",
        )
        .bind(s.batch_size)
        .fetch_all(pool)
        .await?;
        if rows.is_empty() {
            tokio::select! {
                _ = cancel.cancelled() => return Ok(()),
                n = listener.recv() => { n?; }
                _ = woken.notified() => {}
                _ = tokio::time::sleep(s.poll_interval) => {}
            }
            continue;
        }
        let mut confirms = Vec::with_capacity(rows.len());
        for row in &rows {
            let properties = broker::event_properties(
                row.event_id,
                &row.event_type,
                row.correlation_id,
                row.trace_context.as_deref(),
            );
            let routing_key = proto_events::routing_key(&s.service, &row.event_type);
            confirms.push(
                channel
                    .basic_publish(
                        s.exchange.as_str().into(),
                        routing_key.as_str().into(),
                        BasicPublishOptions::default(),
                        row.envelope.as_bytes(),
                        properties,
                    )
                    .await?,
            );
        }
        let confirmations = try_join_all(confirms).await?;
        if let Some(nacked) = confirmations.iter().position(|c| !c.is_ack()) {
            return Err(RelayError::Refused(rows[nacked].event_id));
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        sqlx::query("delete from outbox where id = any($1)").bind(&ids).execute(pool).await?;
        let now = Utc::now();
        for row in &rows {
            let lag = (now - row.recorded_at).num_microseconds().unwrap_or(0) as f64 / 1e6;
            metrics::histogram!("paysite_relay_lag_seconds", "service" => s.service.clone()).record(lag);
        }
        metrics::counter!("paysite_events_published_total", "service" => s.service.clone())
            .increment(rows.len() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered(schema: &str) -> Option<Uuid> {
        active_here().lock().unwrap().get(schema).map(|relay| relay.id)
    }

    #[tokio::test]
    async fn a_relay_active_here_is_woken_directly_and_only_while_it_is_registered() {
        let schema = format!("relay_test_{}", Uuid::now_v7().simple());
        let first = ActiveHere::register(&schema);
        // A wake-up while the relay is busy is kept for its next wait.
        let pool = sqlx::PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").unwrap();
        wake(&pool, &schema);
        tokio::time::timeout(Duration::from_secs(1), first.wake.notified()).await.expect("woken without a round trip");

        // A relay that took over (the first lost its lock and has not noticed yet) replaces it;
        // the first one's end leaves the newer registration in place.
        let second = ActiveHere::register(&schema);
        assert_eq!(registered(&schema), Some(second.id));
        drop(first);
        assert_eq!(registered(&schema), Some(second.id));
        drop(second);
        assert_eq!(registered(&schema), None);
    }
}
