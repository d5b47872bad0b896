//! Applying deliveries: in batches, one by one when a batch fails, in stream order behind a
//! dead-lettered or parked event, and set aside in the dead-letter queue.

use std::{collections::HashSet, time::Duration};

use futures::{FutureExt, StreamExt};
use lapin::{
    message::Delivery,
    options::{BasicAckOptions, BasicPublishOptions},
    types::AMQPValue,
    BasicProperties, Channel,
};
use proto_events::Envelope;
use sqlx::{PgConnection, PgPool};
use tracing::Instrument;
use uuid::Uuid;

use super::{ConsumerSettings, ConsumerSpec, DRAIN_IDLE, HANDLER_TIMEOUT};
use crate::broker;

pub(super) struct Applier<'a> {
    pub(super) pool: &'a PgPool,
    pub(super) spec: &'a ConsumerSpec,
    pub(super) settings: &'a ConsumerSettings,
    pub(super) dead_letters: &'a Channel,
    pub(super) schema: &'a str,
    /// When set, acks wait here instead of going out (see [`consume_on`]'s hand-over).
    pub(super) deferred: std::sync::Mutex<Option<Vec<(lapin::Acker, bool)>>>,
}

pub(super) struct Parsed {
    pub(super) origin: Origin,
    pub(super) envelope: Envelope,
    pub(super) traceparent: Option<String>,
}

/// Where an event being applied came from. (Unboxed: the common case is the delivery, on
/// the hot path, and at most a batch of them lives at a time.)
#[allow(clippy::large_enum_variant)]
pub(super) enum Origin {
    /// A delivery this consumer holds: acked once applied or set aside.
    Delivery(Delivery),
    /// The consumer's parking (`parked_event`): its row goes with its effects.
    Parked { data: Vec<u8> },
}

impl Parsed {
    pub(super) fn data(&self) -> &[u8] {
        match &self.origin {
            Origin::Delivery(d) => &d.data,
            Origin::Parked { data } => data,
        }
    }

    /// What it goes to the dead-letter queue with: the delivery's own properties, or for a
    /// parked event the ones the relay published it with.
    pub(super) fn properties(&self) -> BasicProperties {
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

    pub(super) fn acker(&self) -> Option<&lapin::Acker> {
        match &self.origin {
            Origin::Delivery(d) => Some(&d.acker),
            Origin::Parked { .. } => None,
        }
    }

    pub(super) fn is_parked(&self) -> bool {
        matches!(self.origin, Origin::Parked { .. })
    }
}

impl Applier<'_> {
    pub(super) async fn ack(&self, acker: &lapin::Acker, multiple: bool) -> anyhow::Result<()> {
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
    pub(super) async fn drain(&self, deliveries: &mut lapin::Consumer, prefetch: usize) -> anyhow::Result<()> {
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
    pub(super) async fn apply_holding_ack(&self, delivery: Delivery) -> anyhow::Result<Vec<(lapin::Acker, bool)>> {
        *self.deferred.lock().unwrap() = Some(Vec::new());
        let applied = self.apply_batch(vec![delivery]).await;
        let held = self.deferred.lock().unwrap().take().unwrap_or_default();
        applied.map(|()| held)
    }

    pub(super) async fn apply_batch(&self, batch: Vec<Delivery>) -> anyhow::Result<()> {
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

    pub(super) fn count(&self, applied: usize, duplicates: usize) {
        let q = self.spec.queue.clone();
        metrics::counter!("paysite_consumer_applied_total", "queue" => q.clone()).increment(applied as u64);
        if duplicates > 0 {
            metrics::counter!("paysite_consumer_duplicates_total", "queue" => q).increment(duplicates as u64);
        }
    }

    /// One transaction for the whole batch. Returns how many events were new.
    pub(super) async fn apply_together(&self, parsed: &[Parsed]) -> anyhow::Result<usize> {
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
        for p in parsed.iter().filter(|p| fresh.contains(&p.envelope.event_id)) {
            self.observe_lag(&p.envelope);
        }
        Ok(seen.len())
    }

    /// `paysite_consumer_lag_seconds{queue}`: from an event's commit to its effects here (the
    /// relay's lag, the queue's wait and the handler together): the consumer-lag alert.
    pub(super) fn observe_lag(&self, envelope: &Envelope) {
        let lag = (chrono::Utc::now() - envelope.occurred_at).num_milliseconds().max(0) as f64 / 1000.0;
        metrics::histogram!("paysite_consumer_lag_seconds", "queue" => self.spec.queue.clone()).record(lag);
    }

    pub(super) async fn handle(&self, tx: &mut PgConnection, p: &Parsed) -> anyhow::Result<()> {
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
    pub(super) async fn apply_in_stream_order(&self, p: &Parsed) -> anyhow::Result<()> {
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

    /// One delivery in its own transaction, retried; dead-lettered when it keeps failing.
    pub(super) async fn apply_alone(&self, p: &Parsed) -> anyhow::Result<()> {
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
                if fresh {
                    self.observe_lag(&p.envelope);
                }
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
                Err(e) if super::parking::from_the_future(&e) => {
                    // Not a failure: this reader is older than the event. It waits, with its
                    // stream behind it, for a reader that knows its version.
                    return self.defer(p, &format!("{e:#}")).await;
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
    pub(super) async fn dead_letter(&self, p: &Parsed, error: &str, attempts: u32) -> anyhow::Result<()> {
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
    pub(super) async fn set_aside(
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
