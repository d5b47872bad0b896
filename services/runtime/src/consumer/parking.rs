//! Parking: a redelivery that comes back ahead of an earlier event of its stream that crashed
//! the consumer waits in the database behind it, and follows it (docs/operations.md, "Dead
//! letters").
//!
//! Deferring: an event whose `schema_version` is newer than its reader knows (a rollout, in
//! which an old pod is still the queue's active consumer when a new pod writes the new
//! version) is parked behind itself, neither counted as a failure nor dead-lettered; its
//! stream's later events park behind it. A consumer retries the deferred events when its
//! session starts and every [`super::DLQ_DEPTH_EVERY`] after: the first reader that knows
//! the version (the new pod, once it is active) applies them, and their streams follow in
//! order.

use lapin::message::Delivery;
use proto_events::Envelope;
use uuid::Uuid;

use super::apply::{Applier, Origin, Parsed};
use crate::broker;

/// Whether a handler's error says the event is newer than its reader
/// ([`proto_events::DecodeError::FromTheFuture`], anywhere in the error's chain).
pub(super) fn from_the_future(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<proto_events::DecodeError>(),
            Some(proto_events::DecodeError::FromTheFuture { .. })
        )
    })
}

impl Applier<'_> {
    /// Parks `p` behind itself (it waits for a newer reader) and acks it; a parked event that
    /// is still too new stays where it is. Its stream's later events park behind it.
    pub(super) async fn defer(&self, p: &Parsed, why: &str) -> anyhow::Result<()> {
        if p.is_parked() {
            // Still too new for this reader; whatever waited behind another event now waits
            // behind this one, so none of its stream's later events overtakes it.
            sqlx::query(
                "update parked_event set behind = $2
                 where consumer = $1 and stream_id = $3 and (event_id = $2 or stream_version > $4)",
            )
            .bind(&self.spec.queue)
            .bind(p.envelope.event_id)
            .bind(&p.envelope.stream_id)
            .bind(p.envelope.stream_version)
            .execute(self.pool)
            .await?;
            return Ok(());
        }
        self.keep_parked(p, p.envelope.event_id).await?;
        tracing::warn!(
            queue = %self.spec.queue,
            event_id = %p.envelope.event_id,
            event_type = %p.envelope.event_type,
            schema_version = p.envelope.schema_version,
            stream_id = %p.envelope.stream_id,
            why,
            "newer than this reader: deferred for a reader that knows its version (a rollout in progress)"
        );
        metrics::counter!("paysite_consumer_deferred_total", "queue" => self.spec.queue.clone()).increment(1);
        Ok(())
    }

    /// Tries the deferred events again (a newer reader may be running now), each stream's in
    /// order; those it applies let their streams' parked events follow.
    pub(super) async fn retry_deferred(&self) -> anyhow::Result<()> {
        let deferred: Vec<(Vec<u8>, Option<String>)> = sqlx::query_as(
            "select data, traceparent from parked_event where consumer = $1 and behind = event_id
             order by stream_id, stream_version",
        )
        .bind(&self.spec.queue)
        .fetch_all(self.pool)
        .await?;
        for (data, traceparent) in deferred {
            let envelope: Envelope = serde_json::from_slice(&data)?;
            let stream = envelope.stream_id.clone();
            let p = Parsed { origin: Origin::Parked { data }, envelope, traceparent };
            self.apply_in_stream_order(&p).await?;
            self.release_parked(Some(&stream)).await?;
        }
        Ok(())
    }

    /// A redelivery, in the careful phase: applied as its stream's delivery in flight,
    /// unless an earlier event of its stream is still in flight, in which case it is parked.
    pub(super) async fn apply_redelivered(&self, delivery: Delivery) -> anyhow::Result<()> {
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
    pub(super) async fn park(&self, p: &Parsed, behind: Uuid) -> anyhow::Result<()> {
        self.keep_parked(p, behind).await?;
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

    /// Writes `p` into `parked_event` behind `behind` (itself, for a deferred event) and acks
    /// the delivery, if it is one this consumer holds.
    async fn keep_parked(&self, p: &Parsed, behind: Uuid) -> anyhow::Result<()> {
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
        Ok(())
    }

    /// Lets parked events follow their blocker once it is settled: applied in stream order
    /// after it, or dead-lettered behind it. Of one stream, or of every stream.
    pub(super) async fn release_parked(&self, stream: Option<&str>) -> anyhow::Result<()> {
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
                let event_id = envelope.event_id;
                let p = Parsed { origin: Origin::Parked { data }, envelope, traceparent };
                // Held (its blocker was dead-lettered): set aside behind it; else applied.
                self.apply_in_stream_order(&p).await?;
                // Still parked: newer than this reader (deferred); the rest wait behind it.
                let waits: bool = sqlx::query_scalar(
                    "select exists (select 1 from parked_event where consumer = $1 and event_id = $2)",
                )
                .bind(&self.spec.queue)
                .bind(event_id)
                .fetch_one(self.pool)
                .await?;
                if waits {
                    break;
                }
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
}
