//! Consumers: a durable queue each, manual acks after the handler's transaction
//! commits, an inbox that makes redelivery harmless, retries, and a dead-letter queue.
//!
//! Deliveries are applied in batches: one transaction records the batch in the inbox
//! (skipping events already there), runs the handler for each new event in arrival order
//! and commits; then the batch is acked at once. If any handler fails, the batch is rolled
//! back and its deliveries are applied one by one, each retried with backoff; one that
//! still fails after `max_attempts` goes to the dead-letter queue with its error, and the
//! rest carry on. Attempts are counted in the database, so a restart does not reset them.

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use futures::{FutureExt, StreamExt};
use lapin::{
    options::{BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicQosOptions, ConfirmSelectOptions},
    types::FieldTable,
    Channel,
};
use proto_events::Envelope;
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::broker;

/// Most deliveries a consumer holds unacked. A quorum queue hands back what a consumer held
/// when it died, and the broker returns up to 32 of them in their order (RabbitMQ keeps them
/// in a small map, iterated in key order up to 32 keys, in hash order beyond): more, and a
/// crash could scramble a stream's events on their way back (`tests/faults.rs` saw it with 512).
pub const MAX_UNACKED: u16 = 32;

/// The longest one event's handler may take.
const HANDLER_TIMEOUT: Duration = Duration::from_secs(30);

/// Applies one event. Runs inside the consumer's transaction: whatever it writes commits
/// with the inbox row, or not at all. An error means "not applied; try again".
#[async_trait]
pub trait Handler: Send + Sync + 'static {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()>;
}

/// One consumer: its queue (`<service>.<purpose>`, also its inbox name), the routing
/// keys it binds (`subscription.SubscriptionCancelled`, `catalog.*`) and its handler.
#[derive(Clone)]
pub struct ConsumerSpec {
    pub queue: String,
    pub bindings: Vec<String>,
    pub handler: Arc<dyn Handler>,
}

impl ConsumerSpec {
    /// A consumer of `queue`, bound to the routing keys `bindings`, that hands every event to
    /// `handler`.
    pub fn new(queue: impl Into<String>, bindings: &[&str], handler: Arc<dyn Handler>) -> Self {
        ConsumerSpec { queue: queue.into(), bindings: bindings.iter().map(|b| (*b).to_owned()).collect(), handler }
    }

    /// A consumer that keeps one read model: each event goes through the function a rebuild of
    /// the projection calls (the projection is rebuilt from this consumer's inbox).
    pub fn projection(
        queue: impl Into<String>,
        bindings: &[&str],
        projection: Arc<dyn crate::projection::Projection>,
    ) -> Self {
        Self::new(queue, bindings, Arc::new(crate::projection::ProjectionHandler(projection)))
    }
}

#[derive(Clone, Debug)]
pub struct ConsumerSettings {
    pub amqp_url: String,
    pub exchange: String,
    /// Unacked deliveries the broker may push ahead.
    pub prefetch: u16,
    /// Most deliveries applied in one transaction.
    pub batch_size: usize,
    /// Failures before a delivery is dead-lettered.
    pub max_attempts: u32,
    /// First retry delay; doubles per attempt.
    pub retry_base: Duration,
}

impl ConsumerSettings {
    pub fn new(settings: &crate::config::Settings) -> Self {
        ConsumerSettings {
            amqp_url: settings.amqp_url.expose().to_owned(),
            exchange: settings.exchange.clone(),
            prefetch: MAX_UNACKED,
            batch_size: MAX_UNACKED as usize,
            max_attempts: settings.max_delivery_attempts,
            retry_base: Duration::from_millis(100),
        }
    }
}

/// Runs a consumer until `cancel` fires, reconnecting to the broker as needed.
pub async fn run(pool: PgPool, spec: ConsumerSpec, settings: ConsumerSettings, cancel: CancellationToken) {
    let mut failures = 0u32;
    while !cancel.is_cancelled() {
        // A panic is a bug, but it must not leave the service up with its consumer gone.
        match broker::supervised(consume(&pool, &spec, &settings, &cancel)).await {
            Ok(()) => break,
            Err(e) => {
                failures += 1;
                tracing::warn!(queue = %spec.queue, error = %e, failures, "consumer stopped, reconnecting");
            }
        }
        tokio::select! {
            _ = cancel.cancelled() => break,
            _ = tokio::time::sleep(broker::reconnect_delay(failures)) => {}
        }
    }
    tracing::info!(queue = %spec.queue, "consumer stopped");
}

async fn consume(
    pool: &PgPool,
    spec: &ConsumerSpec,
    s: &ConsumerSettings,
    cancel: &CancellationToken,
) -> anyhow::Result<()> {
    let connection = broker::connect(&s.amqp_url, &spec.queue).await?;
    // The session ends with its connection (`broker::lost`), even while an ack or the next
    // delivery the lost connection will never answer is awaited.
    let result = tokio::select! {
        result = consume_on(&connection, pool, spec, s, cancel) => result,
        lost = broker::lost(&connection) => Err(lost.into()),
    };
    // Unacked deliveries go back to the queue when the channel closes.
    broker::close(&connection, "consumer stopping").await;
    result
}

/// A session: first carefully, one delivery at a time, then in batches.
///
/// Whatever was delivered but not acked when a consumer crashed (or lost its connection)
/// comes back first, counted by the quorum queue. Taken one at a time, only the delivery
/// that kills the consumer is counted again by the next crash, not the batch around it;
/// once it has crashed the consumer `max_attempts` times it is dead-lettered (and holds
/// its stream), and the others are applied. The first delivery that is not a redelivery
/// ends the careful phase: it is applied with its ack held back (so, with a prefetch of
/// one, nothing more is pushed to the careful consumer), a second consumer with the full
/// prefetch attaches (standing by: the queue has a single active consumer), the careful
/// one is cancelled, and only then is the held delivery acked. Whichever consumer the
/// queue activates next starts after that delivery's effects committed: order holds.
///
/// A crashed delivery goes back behind the deliveries returned before it, so its stream's
/// later events come back ahead of it. Each redelivery is therefore recorded as its stream's
/// delivery in flight before it is applied: one that arrives while an earlier event of its
/// stream is still in flight (its consumer died in it) is parked in the database and acked,
/// and follows that event once it is applied, or follows it into the dead-letter queue.
async fn consume_on(
    connection: &lapin::Connection,
    pool: &PgPool,
    spec: &ConsumerSpec,
    s: &ConsumerSettings,
    cancel: &CancellationToken,
) -> anyhow::Result<()> {
    let channel = connection.create_channel().await?;
    broker::declare_consumer_queue(&channel, &s.exchange, &spec.queue, &spec.bindings).await?;
    channel.basic_qos(1, BasicQosOptions::default()).await?;
    let dead_letters = connection.create_channel().await?;
    dead_letters.confirm_select(ConfirmSelectOptions::default()).await?;
    let careful_tag = format!("{}-{}", spec.queue, Uuid::now_v7());
    let mut careful = channel
        .basic_consume(
            spec.queue.as_str().into(),
            careful_tag.as_str().into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    tracing::info!(queue = %spec.queue, "consumer attached");
    metrics::counter!("paysite_consumer_sessions_total", "queue" => spec.queue.clone()).increment(1);
    // Handlers may append events; the relay of this schema is woken after each commit.
    let schema: String = sqlx::query_scalar("select current_schema()").fetch_one(pool).await?;
    let applier =
        Applier { pool, spec, settings: s, dead_letters: &dead_letters, schema: &schema, deferred: Default::default() };
    // Parked events whose blocker was settled just before the last session ended, and the
    // events an older reader deferred (this one may know their version).
    applier.release_parked(None).await?;
    applier.retry_deferred().await?;
    let held = loop {
        let next = tokio::select! {
            _ = cancel.cancelled() => return applier.drain(&mut careful, 1).await,
            next = careful.next() => next,
        };
        let Some(delivery) = next else { anyhow::bail!("the broker cancelled the consumer") };
        let delivery = delivery?;
        if delivery.redelivered {
            applier.apply_redelivered(delivery).await?;
        } else {
            // Applied, its ack held back: nothing else can reach the careful consumer, and
            // once it is cancelled the next one starts after this delivery's effects.
            break applier.apply_holding_ack(delivery).await?;
        }
    };
    let fast = connection.create_channel().await?;
    fast.basic_qos(s.prefetch, BasicQosOptions::default()).await?;
    let mut deliveries = fast
        .basic_consume(
            spec.queue.as_str().into(),
            format!("{}-{}", spec.queue, Uuid::now_v7()).as_str().into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    channel.basic_cancel(careful_tag.as_str().into(), BasicCancelOptions::default()).await?;
    for (acker, multiple) in held {
        acker.ack(BasicAckOptions { multiple }).await?;
    }
    let mut dlq_measured: Option<std::time::Instant> = None;
    loop {
        if dlq_measured.is_none_or(|at| at.elapsed() > DLQ_DEPTH_EVERY) {
            record_dlq_depth(&dead_letters, &spec.queue).await?;
            // Deferred events (and what parked behind them once they are applied elsewhere).
            applier.retry_deferred().await?;
            applier.release_parked(None).await?;
            dlq_measured = Some(std::time::Instant::now());
        }
        let first = tokio::select! {
            _ = cancel.cancelled() => return applier.drain(&mut deliveries, s.prefetch as usize).await,
            _ = tokio::time::sleep(DLQ_DEPTH_EVERY) => continue,
            next = deliveries.next() => next,
        };
        let Some(first) = first else { anyhow::bail!("the broker cancelled the consumer") };
        let mut batch = vec![first?];
        while batch.len() < s.batch_size {
            match deliveries.next().now_or_never() {
                Some(Some(next)) => batch.push(next?),
                _ => break,
            }
        }
        applier.apply_batch(batch).await?;
    }
}

/// How long a stopping consumer waits for more of what the broker may still send it.
const DRAIN_IDLE: Duration = Duration::from_millis(250);

/// How often an attached consumer measures its dead-letter queue.
const DLQ_DEPTH_EVERY: Duration = Duration::from_secs(15);

/// `paysite_dlq_messages{queue}`: what waits in `<queue>.dlq` (a replay or a fix is due).
async fn record_dlq_depth(channel: &Channel, queue: &str) -> anyhow::Result<()> {
    let dlq = broker::dead_letter_queue(queue);
    let declared = channel
        .queue_declare(
            dlq.as_str().into(),
            lapin::options::QueueDeclareOptions { passive: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    metrics::gauge!("paysite_dlq_messages", "queue" => queue.to_owned()).set(declared.message_count() as f64);
    Ok(())
}

mod apply;
mod parking;

use apply::Applier;
