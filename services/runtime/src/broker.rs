//! RabbitMQ connections and the topology every service shares.

use std::{collections::HashMap, time::Duration};

use lapin::{
    options::{ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions},
    types::{AMQPValue, FieldTable, LongString, ShortString},
    Channel, Connection, ConnectionProperties, ExchangeKind,
};

/// Opens a connection, naming it for the management UI.
pub async fn connect(amqp_url: &str, name: &str) -> lapin::Result<Connection> {
    let properties = ConnectionProperties::default().with_connection_name(name.into());
    Connection::connect(amqp_url, properties).await
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

/// The dead-letter queue of a consumer queue.
pub fn dead_letter_queue(queue: &str) -> String {
    format!("{queue}.dlq")
}

/// Declares a consumer's durable queue, its bindings and its dead-letter queue.
///
/// The queue has a single active consumer: replicas of a service compete for it and one
/// wins, the others stand by, so events of a stream are applied in order.
pub async fn declare_consumer_queue(
    channel: &Channel,
    exchange: &str,
    queue: &str,
    bindings: &[String],
) -> lapin::Result<()> {
    declare_exchange(channel, exchange).await?;
    let mut args = FieldTable::default();
    args.insert("x-single-active-consumer".into(), AMQPValue::Boolean(true));
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
    channel
        .queue_declare(
            dead_letter_queue(queue).as_str().into(),
            QueueDeclareOptions { durable: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    Ok(())
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
