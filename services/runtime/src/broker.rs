//! RabbitMQ connections and the topology every service shares.

use std::{collections::HashMap, time::Duration};

use lapin::{
    options::{ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions},
    types::{AMQPValue, FieldTable, LongString, ShortString},
    Channel, Connection, ConnectionProperties, ConnectionState, ExchangeKind,
};

/// Opens a connection, naming it for the management UI. An `amqps://` URL speaks TLS, trusting
/// the public roots and the configured CA file (`crate::tls`).
pub async fn connect(amqp_url: &str, name: &str) -> lapin::Result<Connection> {
    connect_with(amqp_url, name, crate::tls::settings()).await
}

/// The longest a connection attempt may take. A broker in the middle of a restart can take the
/// TCP connection and never finish the handshake; without a bound the relay or consumer that
/// asked would wait for it for good instead of trying again.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest closing a connection may take: closing one the broker already dropped must not
/// hold up the reconnect that follows.
pub const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// [`connect`] with explicit TLS settings, within [`CONNECT_TIMEOUT`].
pub async fn connect_with(amqp_url: &str, name: &str, tls: &crate::tls::TlsSettings) -> lapin::Result<Connection> {
    let properties = ConnectionProperties::default().with_connection_name(name.into());
    let attempt = async {
        if !amqp_url.starts_with("amqps://") {
            return Connection::connect(amqp_url, properties).await;
        }
        crate::tls::install_crypto_provider();
        let config = crate::tls::amqp_tls(tls).map_err(std::io::Error::other)?;
        Connection::connect_with_config(amqp_url, properties, config, lapin::runtime::default_runtime()?).await
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, attempt).await {
        Ok(connected) => connected,
        Err(_) => {
            Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the broker did not finish the handshake").into())
        }
    }
}

/// Closes `connection` (unacked deliveries go back to their queues), giving up after
/// [`CLOSE_TIMEOUT`]: a connection the broker has dropped is gone either way.
pub async fn close(connection: &Connection, reason: &str) {
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, connection.close(200, reason.into())).await;
}

/// How often [`lost`] looks at a connection's state.
pub const LOST_CHECK_EVERY: Duration = Duration::from_millis(250);

/// Resolves once `connection` is no longer open (the broker closed it, the socket broke, or
/// it is being closed), with the error to reconnect on.
///
/// A session (the relay's publishing, a consumer's deliveries) runs beside it and is dropped
/// when it resolves, so a session never outlives its connection: an await on the connection
/// (a publisher confirm, an ack, the next delivery) that the connection's loss left pending
/// cannot hold the session, and an idle session notices the loss without touching the
/// connection. Dropping a session is what a crash does, which the relay and the consumers
/// survive by design (outbox rows go only once confirmed; effects and the inbox commit together).
pub async fn lost(connection: &Connection) -> lapin::Error {
    loop {
        let status = connection.status();
        if !status.connected() {
            let state = if status.errored() { ConnectionState::Error } else { ConnectionState::Closed };
            return lapin::ErrorKind::InvalidConnectionState(state).into();
        }
        tokio::time::sleep(LOST_CHECK_EVERY).await;
    }
}

/// Runs one session of a relay or a consumer, a panic in it turned into an error: the loop
/// around it reconnects, as after any failure, instead of the task ending in silence while
/// the service stays up and answers its health checks.
pub async fn supervised<T>(session: impl std::future::Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    use futures::FutureExt;
    match std::panic::AssertUnwindSafe(session).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            tracing::error!(panic = %what, "a broker session panicked");
            Err(anyhow::anyhow!("the session panicked: {what}"))
        }
    }
}

/// Declares the durable topic exchange events are published to.
pub async fn declare_exchange(channel: &Channel, exchange: &str) -> lapin::Result<()> {
    channel
        .exchange_declare(
            exchange.into(),
            ExchangeKind::Topic,
            ExchangeDeclareOptions { durable: true, ..Default::default() },
            FieldTable::default(),
        )
        .await
}

/// A queue of this process alone (server-named, exclusive, deleted with the connection),
/// bound to `bindings` on `exchange`: what a process that must hear every event of a kind
/// (each gateway replica, say) consumes, where a service's durable queue would share them out.
pub async fn own_queue(channel: &Channel, exchange: &str, bindings: &[&str]) -> lapin::Result<lapin::Queue> {
    declare_exchange(channel, exchange).await?;
    let queue = channel
        .queue_declare(
            "".into(),
            QueueDeclareOptions { exclusive: true, auto_delete: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    for key in bindings {
        channel
            .queue_bind(
                queue.name().clone(),
                exchange.into(),
                (*key).into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await?;
    }
    Ok(queue)
}

/// The dead-letter queue of a consumer queue.
pub fn dead_letter_queue(queue: &str) -> String {
    format!("{queue}.dlq")
}

/// Redeliveries after which the broker itself dead-letters a message (`x-delivery-limit`,
/// RabbitMQ 4's default): a backstop well above the consumer's own limit
/// (`PAYSITE_MAX_DELIVERY_ATTEMPTS`), at which the consumer dead-letters a message that keeps
/// crashing it, holding its stream. A constant, not derived from that setting: a queue's
/// arguments cannot change once declared, and the setting may.
pub const BROKER_DELIVERY_LIMIT: i32 = 20;

/// Declares a consumer's queue, its bindings and its dead-letter queue.
///
/// Quorum queues (replicated over the broker's nodes, so a node's loss does not stall
/// them) with a single active consumer: replicas of a service compete for the queue and
/// one wins, the others stand by, so events of a stream are applied in order. The quorum
/// queue counts the deliveries of each message that were not acked (a consumer that
/// crashed, a lost connection): past [`BROKER_DELIVERY_LIMIT`] it dead-letters the message
/// into `<queue>.dlq` (at least once), so a message that kills its consumer is not
/// redelivered for ever.
///
/// A classic queue of the same name cannot be redeclared as a quorum queue
/// (PRECONDITION_FAILED): docs/operations.md says how a deployment migrates.
pub async fn declare_consumer_queue(
    channel: &Channel,
    exchange: &str,
    queue: &str,
    bindings: &[String],
) -> lapin::Result<()> {
    declare_exchange(channel, exchange).await?;
    let dlq = dead_letter_queue(queue);
    let mut args = quorum();
    args.insert("x-single-active-consumer".into(), AMQPValue::Boolean(true));
    args.insert("x-delivery-limit".into(), AMQPValue::LongInt(BROKER_DELIVERY_LIMIT));
    args.insert("x-dead-letter-exchange".into(), AMQPValue::LongString("".into()));
    args.insert("x-dead-letter-routing-key".into(), AMQPValue::LongString(dlq.as_str().into()));
    args.insert("x-dead-letter-strategy".into(), AMQPValue::LongString("at-least-once".into()));
    args.insert("x-overflow".into(), AMQPValue::LongString("reject-publish".into()));
    // The dead-letter queue first: at-least-once dead-lettering needs its target to exist.
    channel
        .queue_declare(dlq.as_str().into(), QueueDeclareOptions { durable: true, ..Default::default() }, quorum())
        .await?;
    channel.queue_declare(queue.into(), QueueDeclareOptions { durable: true, ..Default::default() }, args).await?;
    for key in bindings {
        channel
            .queue_bind(
                queue.into(),
                exchange.into(),
                key.as_str().into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await?;
    }
    Ok(())
}

fn quorum() -> FieldTable {
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
    args
}

/// How many earlier deliveries of this message were not acked (the quorum queue's
/// `x-delivery-count`; 0 on a first delivery).
pub fn delivery_count(table: Option<&FieldTable>) -> u32 {
    header(table, "x-delivery-count").and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The properties an event is published with: persistent JSON, its id and type, and the
/// correlation id and trace context as headers. The relay publishes with them, and a consumer
/// that sets aside an event it parked (and so no longer holds as a delivery) rebuilds them.
pub fn event_properties(
    event_id: uuid::Uuid,
    event_type: &str,
    correlation_id: uuid::Uuid,
    traceparent: Option<&str>,
) -> lapin::BasicProperties {
    let mut map = HashMap::from([("x-correlation-id".to_owned(), correlation_id.to_string())]);
    if let Some(tp) = traceparent {
        map.insert("traceparent".to_owned(), tp.to_owned());
    }
    lapin::BasicProperties::default()
        .with_delivery_mode(2)
        .with_content_type("application/json".into())
        .with_message_id(event_id.to_string().as_str().into())
        .with_type(event_type.into())
        .with_headers(headers(&map))
}

/// String headers as an AMQP field table.
pub fn headers(map: &HashMap<String, String>) -> FieldTable {
    let mut table = FieldTable::default();
    for (k, v) in map {
        table.insert(ShortString::from(k.as_str()), AMQPValue::LongString(LongString::from(v.as_str())));
    }
    table
}

/// A string header of a delivery.
pub fn header(table: Option<&FieldTable>, key: &str) -> Option<String> {
    let value = table?.inner().get(key)?;
    match value {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.as_str().to_owned()),
        AMQPValue::LongUInt(n) => Some(n.to_string()),
        AMQPValue::LongLongInt(n) => Some(n.to_string()),
        AMQPValue::LongInt(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Reconnection delay: 100 ms doubling to 5 s.
pub fn reconnect_delay(failures: u32) -> Duration {
    Duration::from_millis((100u64 << failures.min(6)).min(5_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_session_that_panics_ends_in_an_error_the_loop_reconnects_on() {
        let panicked = supervised::<()>(async { panic!("out of order") }).await;
        assert_eq!(panicked.unwrap_err().to_string(), "the session panicked: out of order");
        let owned = supervised::<()>(async { panic!("{} left", 3) }).await;
        assert_eq!(owned.unwrap_err().to_string(), "the session panicked: 3 left");
        assert_eq!(supervised(async { Ok(7) }).await.unwrap(), 7);
    }
}
