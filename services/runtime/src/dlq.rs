//! The dead-letter queues: list what failed and why, and replay it once fixed.

use lapin::{
    options::{
        BasicAckOptions, BasicGetOptions, BasicNackOptions, BasicPublishOptions, ConfirmSelectOptions,
        QueueDeclareOptions,
    },
    types::{AMQPValue, FieldTable},
};
use proto_events::Envelope;
use uuid::Uuid;

use crate::broker;

/// One dead-lettered delivery.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeadLetter {
    pub queue: String,
    pub event_id: Option<Uuid>,
    pub event_type: Option<String>,
    pub stream_id: Option<String>,
    pub error: Option<String>,
    pub attempts: Option<u32>,
    pub dead_at: Option<String>,
}

fn describe(queue: &str, delivery: &lapin::message::Delivery) -> DeadLetter {
    let envelope: Option<Envelope> = serde_json::from_slice(&delivery.data).ok();
    let headers = delivery.properties.headers().as_ref();
    let attempts = headers.and_then(|h| match h.inner().get("x-paysite-attempts") {
        Some(AMQPValue::LongUInt(n)) => Some(*n),
        _ => None,
    });
    DeadLetter {
        queue: queue.to_owned(),
        event_id: envelope.as_ref().map(|e| e.event_id),
        event_type: envelope.as_ref().map(|e| e.event_type.clone()),
        stream_id: envelope.as_ref().map(|e| e.stream_id.clone()),
        error: broker::header(headers, "x-paysite-error").or_else(|| {
            // Dead-lettered by the quorum queue itself (its delivery limit), not by a consumer.
            headers
                .is_some_and(|h| h.inner().contains_key("x-death"))
                .then(|| "the broker's delivery limit: never acked (it crashes its consumer)".to_owned())
        }),
        attempts,
        dead_at: broker::header(headers, "x-paysite-dead-at"),
    }
}

/// Everything in `queue`'s dead-letter queue, oldest first. Leaves the queue as it was.
pub async fn list(amqp_url: &str, queue: &str) -> anyhow::Result<Vec<DeadLetter>> {
    let connection = broker::connect(amqp_url, "paysite-dlq").await?;
    let channel = connection.create_channel().await?;
    let dlq = broker::dead_letter_queue(queue);
    let mut found = Vec::new();
    while let Some(got) = channel.basic_get(dlq.as_str().into(), BasicGetOptions { no_ack: false }).await? {
        found.push(describe(queue, &got.delivery));
    }
    // Unacknowledged, they all return to the queue in their order.
    if !found.is_empty() {
        channel.basic_nack(0, BasicNackOptions { multiple: true, requeue: true }).await?;
    }
    connection.close(200, "listed".into()).await?;
    Ok(found)
}

/// Sends dead letters back to their queue (all of them, or only `event_id`). Returns
/// how many were replayed. Each is removed from the dead-letter queue only after the
/// broker confirmed it is back on the consumer's queue.
pub async fn replay(amqp_url: &str, queue: &str, event_id: Option<Uuid>) -> anyhow::Result<Vec<DeadLetter>> {
    let connection = broker::connect(amqp_url, "paysite-dlq").await?;
    let channel = connection.create_channel().await?;
    channel.confirm_select(ConfirmSelectOptions::default()).await?;
    let dlq = broker::dead_letter_queue(queue);
    // Only what was there when the replay began: a message that fails again and comes
    // back is for the next replay, not an endless loop.
    let waiting = channel
        .queue_declare(
            dlq.as_str().into(),
            QueueDeclareOptions { passive: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?
        .message_count();
    let mut replayed = Vec::new();
    let mut kept = 0;
    let mut taken = 0;
    while taken < waiting {
        let Some(got) = channel.basic_get(dlq.as_str().into(), BasicGetOptions { no_ack: false }).await? else {
            break;
        };
        taken += 1;
        let delivery = got.delivery;
        let letter = describe(queue, &delivery);
        if event_id.is_some() && letter.event_id != event_id {
            kept += 1;
            continue;
        }
        let mut headers = delivery.properties.headers().clone().unwrap_or_default();
        // The quorum queue's count of the deliveries it died of goes too: replayed, it starts afresh.
        for key in [
            "x-paysite-error",
            "x-paysite-attempts",
            "x-paysite-dead-at",
            "x-paysite-queue",
            "x-delivery-count",
            "x-death",
        ] {
            let mut inner = headers.inner().clone();
            inner.remove(key);
            headers = inner.into();
        }
        headers.insert("x-paysite-replayed".into(), AMQPValue::Boolean(true));
        let properties = delivery.properties.clone().with_headers(headers);
        // Mandatory: if the consumer's queue is gone the broker returns the message, and the
        // dead letter stays where it is.
        let confirm = channel
            .basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions { mandatory: true, ..Default::default() },
                &delivery.data,
                properties,
            )
            .await?
            .await?;
        anyhow::ensure!(
            confirm.is_ack() && confirm.take_message().is_none(),
            "queue {queue} did not take the replay of {:?}; it stays dead-lettered",
            letter.event_id
        );
        delivery.acker.ack(BasicAckOptions::default()).await?;
        replayed.push(letter);
    }
    if kept > 0 {
        channel.basic_nack(0, BasicNackOptions { multiple: true, requeue: true }).await?;
    }
    connection.close(200, "replayed".into()).await?;
    Ok(replayed)
}
