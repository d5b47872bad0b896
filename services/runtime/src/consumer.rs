//! Consumers: a durable queue each, manual acks after the handler's transaction
//! commits, an inbox that makes redelivery harmless, retries, and a dead-letter queue.
//!
//! Deliveries are applied in batches: one transaction records the batch in the inbox
//! (skipping events already there), runs the handler for each new event in arrival order
//! and commits; then the batch is acked at once. If any handler fails, the batch is rolled
//! back and its deliveries are applied one by one, each retried with backoff; one that
//! still fails after `max_attempts` goes to the dead-letter queue with its error, and the
//! rest carry on. Attempts are counted in the database, so a restart does not reset them.

use std::{collections::HashSet, sync::Arc, time::Duration};

use async_trait::async_trait;
use futures::{FutureExt, StreamExt};
use lapin::{
    message::Delivery,
    options::{
        BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicPublishOptions, BasicQosOptions,
        ConfirmSelectOptions,
    },
    types::{AMQPValue, FieldTable},
    BasicProperties, Channel,
};
use proto_events::Envelope;
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
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
        match consume(&pool, &spec, &settings, &cancel).await {
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
    let result = consume_on(&connection, pool, spec, s, cancel).await;
    // Unacked deliveries go back to the queue when the channel closes.
    let _ = connection.close(200, "consumer stopping".into()).await;
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
    // Parked events whose blocker was settled just before the last session ended.
    applier.release_parked(None).await?;
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

struct Applier<'a> {
    pool: &'a PgPool,
    spec: &'a ConsumerSpec,
    settings: &'a ConsumerSettings,
    dead_letters: &'a Channel,
    schema: &'a str,
    /// When set, acks wait here instead of going out (see [`consume_on`]'s hand-over).
    deferred: std::sync::Mutex<Option<Vec<(lapin::Acker, bool)>>>,
}

struct Parsed {
    origin: Origin,
    envelope: Envelope,
    traceparent: Option<String>,
}

/// Where an event being applied came from. (Unboxed: the common case is the delivery, on
/// the hot path, and at most a batch of them lives at a time.)
#[allow(clippy::large_enum_variant)]
enum Origin {
    /// A delivery this consumer holds: acked once applied or set aside.
    Delivery(Delivery),
    /// The consumer's parking (`parked_event`): its row goes with its effects.
    Parked { data: Vec<u8> },
}

impl Parsed {
    fn data(&self) -> &[u8] {
        match &self.origin {
            Origin::Delivery(d) => &d.data,
            Origin::Parked { data } => data,
        }
    }

    /// What it goes to the dead-letter queue with: the delivery's own properties, or for a
    /// parked event the ones the relay published it with.
    fn properties(&self) -> BasicProperties {
        match &self.origin {
            Origin::Delivery(d) => d.properties.clone(),
            Origin::Parked { .. } => broker::event_properties(
                self.envelope.event_id,
                &self.envelope.event_type,
                self.envelope.correlation_id,
                self.traceparent.as_deref(),
            ),
        }
    }

    fn acker(&self) -> Option<&lapin::Acker> {
        match &self.origin {
            Origin::Delivery(d) => Some(&d.acker),
            Origin::Parked { .. } => None,
        }
    }

    fn is_parked(&self) -> bool {
        matches!(self.origin, Origin::Parked { .. })
    }
}

impl Applier<'_> {
    async fn ack(&self, acker: &lapin::Acker, multiple: bool) -> anyhow::Result<()> {
        if let Some(waiting) = self.deferred.lock().unwrap().as_mut() {
            waiting.push((acker.clone(), multiple));
            return Ok(());
        }
        acker.ack(BasicAckOptions { multiple }).await?;
        Ok(())
    }

    /// A graceful stop that lets no later event overtake an earlier one. When a consumer's
    /// channel closes, RabbitMQ cancels its subscription (and activates the queue's next
    /// consumer) before it returns what the consumer held, so the next consumer may be given
    /// newer messages first (`tests/quorum.rs` saw streams out of order across a hand-over).
    /// So the stopping consumer keeps its acks back from now on (the broker can then send it
    /// at most `prefetch` more), applies whatever it is sent until it holds that many or
    /// nothing has come for [`DRAIN_IDLE`], and only then lets go: what it held comes back
    /// already applied, a duplicate the inbox drops, and the next consumer starts after it.
    async fn drain(&self, deliveries: &mut lapin::Consumer, prefetch: usize) -> anyhow::Result<()> {
        *self.deferred.lock().unwrap() = Some(Vec::new());
        let mut held = 0;
        while held < prefetch {
            let Ok(Some(first)) = tokio::time::timeout(DRAIN_IDLE, deliveries.next()).await else { break };
            let mut batch = vec![first?];
            while batch.len() < prefetch - held {
                match deliveries.next().now_or_never() {
                    Some(Some(next)) => batch.push(next?),
                    _ => break,
                }
            }
            held += batch.len();
            self.apply_batch(batch).await?;
        }
        tracing::info!(queue = %self.spec.queue, applied_unacked = held, "consumer stopping: what it holds is applied");
        Ok(())
    }

    /// Applies `delivery` (its effects committed) but keeps its ack back: while it is
    /// unacked, a prefetch of one lets nothing more reach this consumer.
    async fn apply_holding_ack(&self, delivery: Delivery) -> anyhow::Result<Vec<(lapin::Acker, bool)>> {
        *self.deferred.lock().unwrap() = Some(Vec::new());
        let applied = self.apply_batch(vec![delivery]).await;
        let held = self.deferred.lock().unwrap().take().unwrap_or_default();
        applied.map(|()| held)
    }

    async fn apply_batch(&self, batch: Vec<Delivery>) -> anyhow::Result<()> {
        let mut parsed = Vec::with_capacity(batch.len());
        for delivery in batch {
            let crashes = broker::delivery_count(delivery.properties.headers().as_ref());
            match serde_json::from_slice::<Envelope>(&delivery.data) {
                Ok(envelope) => {
                    let traceparent = broker::header(delivery.properties.headers().as_ref(), "traceparent");
                    let p = Parsed { origin: Origin::Delivery(delivery), envelope, traceparent };
                    if crashes >= self.settings.max_attempts {
                        let why = format!("delivered {crashes} times without an answer: it crashes its consumer");
                        metrics::counter!("paysite_consumer_poison_total", "queue" => self.spec.queue.clone())
                            .increment(1);
                        self.dead_letter(&p, &why, crashes).await?;
                    } else {
                        parsed.push(p);
                    }
                }
                Err(e) => {
                    let why = format!("unreadable envelope: {e}");
                    self.set_aside(&delivery.data, delivery.properties.clone(), Some(&delivery.acker), &why, 1).await?
                }
            }
        }
        if parsed.is_empty() {
            return Ok(());
        }
        let streams: Vec<&str> = parsed.iter().map(|p| p.envelope.stream_id.as_str()).collect();
        // A stream with a dead-lettered or a parked event: its events wait behind that one.
        let any_held: bool = sqlx::query_scalar(
            "select exists (select 1 from held_event where consumer = $1 and stream_id = any($2))
                 or exists (select 1 from parked_event where consumer = $1 and stream_id = any($2))",
        )
        .bind(&self.spec.queue)
        .bind(&streams)
        .fetch_one(self.pool)
        .await?;
        if any_held {
            for p in &parsed {
                self.apply_in_stream_order(p).await?;
            }
            return Ok(());
        }
        match self.apply_together(&parsed).await {
            Ok(applied) => {
                if let Some(last) = parsed[parsed.len() - 1].acker() {
                    self.ack(last, true).await?;
                }
                self.count(applied, parsed.len() - applied);
                Ok(())
            }
            Err(e) => {
                tracing::debug!(queue = %self.spec.queue, error = %e, size = parsed.len(), "batch failed, applying one by one");
                // One by one; an event dead-lettered here holds its stream's later events.
                for p in &parsed {
                    self.apply_in_stream_order(p).await?;
                }
                Ok(())
            }
        }
    }

    fn count(&self, applied: usize, duplicates: usize) {
        let q = self.spec.queue.clone();
        metrics::counter!("paysite_consumer_applied_total", "queue" => q.clone()).increment(applied as u64);
        if duplicates > 0 {
            metrics::counter!("paysite_consumer_duplicates_total", "queue" => q).increment(duplicates as u64);
        }
    }

    /// One transaction for the whole batch. Returns how many events were new.
    async fn apply_together(&self, parsed: &[Parsed]) -> anyhow::Result<usize> {
        let mut tx = self.pool.begin().await?;
        let ids: Vec<Uuid> = parsed.iter().map(|p| p.envelope.event_id).collect();
        let envelopes: Vec<serde_json::Value> =
            parsed.iter().map(|p| serde_json::to_value(&p.envelope)).collect::<Result<_, _>>()?;
        let fresh: HashSet<Uuid> = sqlx::query_scalar(
            "insert into inbox (consumer, event_id, envelope)
             select $1, e.id, e.envelope from unnest($2::uuid[], $3::jsonb[]) with ordinality as e(id, envelope, n)
             order by e.n
             on conflict do nothing
             returning event_id",
        )
        .bind(&self.spec.queue)
        .bind(&ids)
        .bind(&envelopes)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .collect();
        // The same event twice in one batch is applied once.
        let mut seen = HashSet::new();
        for p in parsed {
            if fresh.contains(&p.envelope.event_id) && seen.insert(p.envelope.event_id) {
                self.handle(&mut tx, p).await?;
            }
        }
        tx.commit().await?;
        crate::relay::wake(self.pool, self.schema);
        Ok(seen.len())
    }

    async fn handle(&self, tx: &mut PgConnection, p: &Parsed) -> anyhow::Result<()> {
        let span = tracing::info_span!(
            "consume",
            queue = %self.spec.queue,
            event_id = %p.envelope.event_id,
            event_type = %p.envelope.event_type,
            correlation_id = %p.envelope.correlation_id,
        );
        crate::telemetry::set_parent(&span, p.traceparent.as_deref());
        // A handler that panics or hangs fails like one that returns an error, so it is
        // retried, counted and dead-lettered instead of taking the consumer down each time.
        let handled =
            std::panic::AssertUnwindSafe(self.spec.handler.handle(tx, &p.envelope).instrument(span)).catch_unwind();
        match tokio::time::timeout(HANDLER_TIMEOUT, handled).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(anyhow::anyhow!("handler panicked")),
            Err(_) => Err(anyhow::anyhow!("handler took longer than {HANDLER_TIMEOUT:?}")),
        }
    }

    /// A delivery of a stream with a dead-lettered event: applied only if it is that
    /// stream's oldest held event coming back (a replay); otherwise set aside behind it. A
    /// delivery of a stream with parked events is parked behind the same event as they are
    /// (unless it is that event).
    async fn apply_in_stream_order(&self, p: &Parsed) -> anyhow::Result<()> {
        let oldest: Option<(Uuid, i64)> = sqlx::query_as(
            "select event_id, stream_version from held_event where consumer = $1 and stream_id = $2
             order by stream_version limit 1",
        )
        .bind(&self.spec.queue)
        .bind(&p.envelope.stream_id)
        .fetch_optional(self.pool)
        .await?;
        match oldest {
            Some((held, version)) if held != p.envelope.event_id => {
                let why = format!(
                    "held: event {held} (version {version}) of stream {} is dead-lettered; this one waits behind it",
                    p.envelope.stream_id
                );
                self.dead_letter(p, &why, 0).await
            }
            Some(_) => self.apply_alone(p).await,
            None if p.is_parked() => self.apply_alone(p).await,
            None => {
                let behind: Option<Uuid> = sqlx::query_scalar(
                    "select behind from parked_event where consumer = $1 and stream_id = $2 limit 1",
                )
                .bind(&self.spec.queue)
                .bind(&p.envelope.stream_id)
                .fetch_optional(self.pool)
                .await?;
                match behind {
                    Some(behind) if behind != p.envelope.event_id => self.park(p, behind).await,
                    Some(_) => {
                        // The event they wait for (a replay of it, say): they follow it.
                        self.apply_alone(p).await?;
                        Box::pin(self.release_parked(Some(&p.envelope.stream_id))).await
                    }
                    None => self.apply_alone(p).await,
                }
            }
        }
    }

    /// A redelivery, in the careful phase: applied as its stream's delivery in flight,
    /// unless an earlier event of its stream is still in flight, in which case it is parked.
    async fn apply_redelivered(&self, delivery: Delivery) -> anyhow::Result<()> {
        let Ok(envelope) = serde_json::from_slice::<Envelope>(&delivery.data) else {
            // Unreadable: set aside as any other.
            return self.apply_batch(vec![delivery]).await;
        };
        let stream = envelope.stream_id.clone();
        // The stream's delivery in flight, if it is earlier, unsettled (neither applied nor
        // dead-lettered) and not this one: the consumer died in it, and it is coming back.
        let unsettled: Option<Uuid> = sqlx::query_scalar(
            "select f.event_id from consumer_in_flight f
             where f.consumer = $1 and f.stream_id = $2 and f.event_id <> $3 and f.stream_version < $4
               and not exists (select 1 from inbox i where i.consumer = f.consumer and i.event_id = f.event_id)
               and not exists (select 1 from held_event h where h.consumer = f.consumer and h.event_id = f.event_id)",
        )
        .bind(&self.spec.queue)
        .bind(&stream)
        .bind(envelope.event_id)
        .bind(envelope.stream_version)
        .fetch_optional(self.pool)
        .await?;
        let traceparent = broker::header(delivery.properties.headers().as_ref(), "traceparent");
        if let Some(behind) = unsettled {
            let p = Parsed { origin: Origin::Delivery(delivery), envelope, traceparent };
            return self.park(&p, behind).await;
        }
        sqlx::query(
            "insert into consumer_in_flight (consumer, stream_id, event_id, stream_version) values ($1, $2, $3, $4)
             on conflict (consumer, stream_id)
             do update set event_id = excluded.event_id, stream_version = excluded.stream_version",
        )
        .bind(&self.spec.queue)
        .bind(&stream)
        .bind(envelope.event_id)
        .bind(envelope.stream_version)
        .execute(self.pool)
        .await?;
        self.apply_batch(vec![delivery]).await?;
        self.release_parked(Some(&stream)).await
    }

    /// Keeps `p` in the database behind `behind`, an earlier event of its stream that
    /// crashed the consumer, and acks it.
    async fn park(&self, p: &Parsed, behind: Uuid) -> anyhow::Result<()> {
        sqlx::query(
            "insert into parked_event (consumer, event_id, stream_id, stream_version, behind, data, traceparent)
             values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
        )
        .bind(&self.spec.queue)
        .bind(p.envelope.event_id)
        .bind(&p.envelope.stream_id)
        .bind(p.envelope.stream_version)
        .bind(behind)
        .bind(p.data())
        .bind(&p.traceparent)
        .execute(self.pool)
        .await?;
        if let Some(acker) = p.acker() {
            self.ack(acker, false).await?;
        }
        tracing::warn!(
            queue = %self.spec.queue,
            event_id = %p.envelope.event_id,
            stream_id = %p.envelope.stream_id,
            %behind,
            "came back ahead of an earlier event of its stream that crashed the consumer: parked behind it"
        );
        metrics::counter!("paysite_consumer_parked_total", "queue" => self.spec.queue.clone()).increment(1);
        Ok(())
    }

    /// Lets parked events follow their blocker once it is settled: applied in stream order
    /// after it, or dead-lettered behind it. Of one stream, or of every stream.
    async fn release_parked(&self, stream: Option<&str>) -> anyhow::Result<()> {
        let blockers: Vec<(String, Uuid, bool)> = sqlx::query_as(
            "select distinct p.stream_id, p.behind,
                    exists (select 1 from held_event h where h.consumer = p.consumer and h.event_id = p.behind)
             from parked_event p
             where p.consumer = $1 and ($2::text is null or p.stream_id = $2)
               and (exists (select 1 from inbox i where i.consumer = p.consumer and i.event_id = p.behind)
                    or exists (select 1 from held_event h where h.consumer = p.consumer and h.event_id = p.behind))",
        )
        .bind(&self.spec.queue)
        .bind(stream)
        .fetch_all(self.pool)
        .await?;
        for (stream, behind, dead_lettered) in blockers {
            let parked: Vec<(Vec<u8>, Option<String>)> = sqlx::query_as(
                "select data, traceparent from parked_event where consumer = $1 and stream_id = $2 and behind = $3
                 order by stream_version",
            )
            .bind(&self.spec.queue)
            .bind(&stream)
            .bind(behind)
            .fetch_all(self.pool)
            .await?;
            tracing::info!(
                queue = %self.spec.queue, %stream, %behind, parked = parked.len(), dead_lettered,
                "releasing the events parked behind a settled event"
            );
            for (data, traceparent) in parked {
                let envelope: Envelope = serde_json::from_slice(&data)?;
                let p = Parsed { origin: Origin::Parked { data }, envelope, traceparent };
                // Held (its blocker was dead-lettered): set aside behind it; else applied.
                self.apply_in_stream_order(&p).await?;
            }
            sqlx::query("delete from consumer_in_flight where consumer = $1 and stream_id = $2 and event_id = $3")
                .bind(&self.spec.queue)
                .bind(&stream)
                .bind(behind)
                .execute(self.pool)
                .await?;
        }
        Ok(())
    }

    /// One delivery in its own transaction, retried; dead-lettered when it keeps failing.
    async fn apply_alone(&self, p: &Parsed) -> anyhow::Result<()> {
        let event_id = p.envelope.event_id;
        loop {
            let outcome: anyhow::Result<bool> = async {
                let mut tx = self.pool.begin().await?;
                let fresh = sqlx::query(
                    "insert into inbox (consumer, event_id, envelope) values ($1, $2, $3) on conflict do nothing",
                )
                .bind(&self.spec.queue)
                .bind(event_id)
                .bind(serde_json::to_value(&p.envelope)?)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                if fresh {
                    self.handle(&mut tx, p).await?;
                    sqlx::query("delete from held_event where consumer = $1 and event_id = $2")
                        .bind(&self.spec.queue)
                        .bind(event_id)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("delete from delivery_attempt where consumer = $1 and event_id = $2")
                        .bind(&self.spec.queue)
                        .bind(event_id)
                        .execute(&mut *tx)
                        .await?;
                }
                if p.is_parked() {
                    sqlx::query("delete from parked_event where consumer = $1 and event_id = $2")
                        .bind(&self.spec.queue)
                        .bind(event_id)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                crate::relay::wake(self.pool, self.schema);
                Ok(fresh)
            }
            .await;
            match outcome {
                Ok(fresh) => {
                    if let Some(acker) = p.acker() {
                        self.ack(acker, false).await?;
                    }
                    self.count(fresh as usize, !fresh as usize);
                    return Ok(());
                }
                Err(e) => {
                    let error = format!("{e:#}");
                    let attempts: i32 = sqlx::query_scalar(
                        "insert into delivery_attempt (consumer, event_id, attempts, last_error) values ($1, $2, 1, $3)
                         on conflict (consumer, event_id)
                         do update set attempts = delivery_attempt.attempts + 1, last_error = excluded.last_error
                         returning attempts",
                    )
                    .bind(&self.spec.queue)
                    .bind(event_id)
                    .bind(&error)
                    .fetch_one(self.pool)
                    .await?;
                    tracing::warn!(queue = %self.spec.queue, %event_id, attempts, error = %error, "handler failed");
                    metrics::counter!("paysite_consumer_failures_total", "queue" => self.spec.queue.clone())
                        .increment(1);
                    if attempts as u32 >= self.settings.max_attempts {
                        self.dead_letter(p, &error, attempts as u32).await?;
                        sqlx::query("delete from delivery_attempt where consumer = $1 and event_id = $2")
                            .bind(&self.spec.queue)
                            .bind(event_id)
                            .execute(self.pool)
                            .await?;
                        return Ok(());
                    }
                    let delay = self.settings.retry_base * 2u32.saturating_pow(attempts as u32 - 1);
                    tokio::time::sleep(delay.min(Duration::from_secs(10))).await;
                }
            }
        }
    }

    /// Dead-letters an event and holds its stream: later events of the stream wait behind it.
    async fn dead_letter(&self, p: &Parsed, error: &str, attempts: u32) -> anyhow::Result<()> {
        sqlx::query(
            "insert into held_event (consumer, event_id, stream_id, stream_version) values ($1, $2, $3, $4)
             on conflict do nothing",
        )
        .bind(&self.spec.queue)
        .bind(p.envelope.event_id)
        .bind(&p.envelope.stream_id)
        .bind(p.envelope.stream_version)
        .execute(self.pool)
        .await?;
        self.set_aside(p.data(), p.properties(), p.acker(), error, attempts).await?;
        if p.is_parked() {
            sqlx::query("delete from parked_event where consumer = $1 and event_id = $2")
                .bind(&self.spec.queue)
                .bind(p.envelope.event_id)
                .execute(self.pool)
                .await?;
        }
        Ok(())
    }

    /// Moves a message to the queue's dead-letter queue, with why, then acks it (if it is a
    /// delivery this consumer holds).
    async fn set_aside(
        &self,
        data: &[u8],
        properties: BasicProperties,
        acker: Option<&lapin::Acker>,
        error: &str,
        attempts: u32,
    ) -> anyhow::Result<()> {
        let mut headers = properties.headers().clone().unwrap_or_default();
        headers.insert("x-paysite-error".into(), AMQPValue::LongString(error.into()));
        headers.insert("x-paysite-attempts".into(), AMQPValue::LongUInt(attempts));
        headers.insert("x-paysite-queue".into(), AMQPValue::LongString(self.spec.queue.as_str().into()));
        headers
            .insert("x-paysite-dead-at".into(), AMQPValue::LongString(chrono::Utc::now().to_rfc3339().as_str().into()));
        let properties: BasicProperties = properties.with_headers(headers).with_delivery_mode(2);
        let confirm = self
            .dead_letters
            .basic_publish(
                "".into(),
                broker::dead_letter_queue(&self.spec.queue).as_str().into(),
                BasicPublishOptions::default(),
                data,
                properties,
            )
            .await?
            .await?;
        anyhow::ensure!(confirm.is_ack(), "the broker refused a dead letter");
        if let Some(acker) = acker {
            self.ack(acker, false).await?;
        }
        tracing::error!(queue = %self.spec.queue, attempts, error, "delivery dead-lettered");
        metrics::counter!("paysite_consumer_dead_lettered_total", "queue" => self.spec.queue.clone()).increment(1);
        Ok(())
    }
}
