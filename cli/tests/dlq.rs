//! `paysite dlq list` and `paysite dlq replay` against the real RabbitMQ.

use std::process::Command;

use lapin::{
    options::{BasicConsumeOptions, BasicPublishOptions, QueueDeleteOptions},
    types::{AMQPValue, FieldTable},
    BasicProperties,
};
use proto_events::{Actor, Envelope};
use uuid::Uuid;

fn amqp_url() -> String {
    std::env::var("AMQP_URL").unwrap_or_else(|_| runtime::config::DEFAULT_AMQP_URL.to_owned())
}

fn paysite(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_paysite")).args(args).env("AMQP_URL", amqp_url()).output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "paysite {args:?} failed:\n{stderr}");
    (stdout, stderr)
}

#[tokio::test]
async fn the_command_lists_a_dead_letter_with_its_error_and_replays_it_to_its_queue() {
    let queue = format!("t_{}.cli", Uuid::new_v4().simple());
    let connection = runtime::broker::connect(&amqp_url(), "cli-test").await.unwrap();
    let channel = connection.create_channel().await.unwrap();
    let exchange = format!("test.{queue}");
    runtime::broker::declare_consumer_queue(&channel, &exchange, &queue, &[]).await.unwrap();
    let envelope = Envelope {
        event_id: Uuid::now_v7(),
        stream_id: "wallet-1".into(),
        stream_version: 1,
        event_type: "GemsGranted".into(),
        schema_version: 1,
        occurred_at: chrono::Utc::now(),
        tenant: Some("vixen".into()),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        actor: Actor::System("test".into()),
        payload: serde_json::json!({}),
    };
    let mut headers = FieldTable::default();
    headers.insert("x-paysite-error".into(), AMQPValue::LongString("projection failed: boom".into()));
    headers.insert("x-paysite-attempts".into(), AMQPValue::LongUInt(5));
    channel
        .basic_publish(
            "".into(),
            runtime::broker::dead_letter_queue(&queue).as_str().into(),
            BasicPublishOptions::default(),
            &serde_json::to_vec(&envelope).unwrap(),
            BasicProperties::default().with_headers(headers),
        )
        .await
        .unwrap()
        .await
        .unwrap();

    let (listed, summary) = paysite(&["dlq", "list", "--queue", &queue]);
    assert!(listed.contains(&envelope.event_id.to_string()), "{listed}");
    assert!(listed.contains("projection failed: boom") && listed.contains("\"attempts\":5"), "{listed}");
    assert!(summary.contains("1 dead letters"), "{summary}");

    let (_, summary) = paysite(&["dlq", "replay", "--queue", &queue, "--event-id", &envelope.event_id.to_string()]);
    assert!(summary.contains("replayed 1 dead letters"), "{summary}");
    // A consumer, as the services' are (a quorum queue with a single active consumer has no basic.get).
    let mut consumer = channel
        .basic_consume(
            queue.as_str().into(),
            "cli-test".into(),
            BasicConsumeOptions { no_ack: true, ..Default::default() },
            FieldTable::default(),
        )
        .await
        .unwrap();
    let back = tokio::time::timeout(std::time::Duration::from_secs(10), futures::StreamExt::next(&mut consumer))
        .await
        .expect("replayed onto its queue")
        .unwrap()
        .unwrap();
    let replayed: Envelope = serde_json::from_slice(&back.data).unwrap();
    assert_eq!(replayed, envelope);
    let (_, summary) = paysite(&["dlq", "list", "--queue", &queue]);
    assert!(summary.contains("0 dead letters"), "{summary}");

    for q in [runtime::broker::dead_letter_queue(&queue), queue.clone()] {
        channel.queue_delete(q.as_str().into(), QueueDeleteOptions::default()).await.unwrap();
    }
    let _ = channel.exchange_delete(exchange.as_str().into(), Default::default()).await;
    connection.close(200, "ok".into()).await.unwrap();
}
