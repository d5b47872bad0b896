//! A rollout, against the real servers: an old pod, still the queue's active consumer, meets
//! an event of a `schema_version` newer than it knows. It defers it (its stream's later
//! events wait behind it), counts no failure and dead-letters nothing; the other streams go
//! on; and the new pod's consumer, once it runs, applies the deferred event and its stream
//! in order.

mod support;

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use proto_events::{Actor, DecodeError, Envelope};
use sqlx::PgConnection;
use support::{probe, TestEnv};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const WAIT: Duration = Duration::from_secs(30);

/// The probe's handler in a build that knows its events up to `knows`: a newer one fails to
/// decode as `proto_events::decode` fails it.
struct Reader {
    knows: u32,
}

#[async_trait]
impl runtime::consumer::Handler for Reader {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        if event.schema_version > self.knows {
            return Err(DecodeError::FromTheFuture {
                event_type: event.event_type.clone(),
                version: event.schema_version,
                current: self.knows,
            })
            .map_err(|e| anyhow::Error::new(e).context("probe: decoding the event"));
        }
        runtime::consumer::Handler::handle(&probe::ProbeHandler, tx, event).await
    }
}

fn ping(stream: &str, version: i64, schema_version: u32) -> Envelope {
    Envelope {
        event_id: Uuid::now_v7(),
        stream_id: stream.to_owned(),
        stream_version: version,
        event_type: "Pinged".into(),
        schema_version,
        occurred_at: chrono::Utc::now(),
        tenant: Some("vixen".into()),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        actor: Actor::System("test".into()),
        payload: serde_json::json!({ "n": version }),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_newer_than_its_reader_waits_for_a_newer_reader_without_failing_or_dead_lettering() {
    let env = TestEnv::new().await;
    let queue = env.queue("probe").await;
    let old = CancellationToken::new();
    let old_consumer = env.consumer_task(&queue, Arc::new(Reader { knows: 1 }), &old, |_| {});

    // The new pod writes version 2 of an event into stream "upgraded"; its neighbours are v1.
    env.publish(
        "probe",
        &[ping("upgraded", 1, 1), ping("upgraded", 2, 2), ping("upgraded", 3, 1), ping("untouched", 1, 1)],
    )
    .await;
    let applied = |stream: &str| format!("select count(*) from probe_effect where stream_id = '{stream}'");
    env.wait_for_while_running(&applied("untouched"), 1, WAIT, &[&old_consumer]).await;
    env.wait_for_while_running("select count(*) from parked_event", 2, WAIT, &[&old_consumer]).await;
    assert_eq!(env.scalar(&applied("upgraded")).await, 1, "only the event before the new one is applied");
    // A later event of its stream, while the old reader is still the active one: it waits too.
    env.publish("probe", &[ping("upgraded", 4, 1), ping("untouched", 2, 1)]).await;
    env.wait_for_while_running(&applied("untouched"), 2, WAIT, &[&old_consumer]).await;
    env.wait_for_while_running("select count(*) from parked_event", 3, WAIT, &[&old_consumer]).await;
    assert_eq!(env.scalar(&applied("upgraded")).await, 1);
    // Neither a failure nor a dead letter.
    assert_eq!(env.scalar("select count(*) from delivery_attempt").await, 0, "no failure counted");
    assert_eq!(env.scalar("select count(*) from held_event").await, 0, "the stream is not held as dead-lettered");
    let amqp = support::amqp_url();
    assert!(runtime::dlq::list(&amqp, &queue).await.unwrap().is_empty(), "nothing dead-lettered");
    // The old reader meets it again (a reconnect, its periodic retry): still deferred, not failed.
    old.cancel();
    old_consumer.await.unwrap();
    let again = CancellationToken::new();
    let still_old = env.consumer_task(&queue, Arc::new(Reader { knows: 1 }), &again, |_| {});
    env.publish("probe", &[ping("untouched", 3, 1)]).await;
    env.wait_for_while_running(&applied("untouched"), 3, WAIT, &[&still_old]).await;
    assert_eq!(env.scalar("select count(*) from parked_event").await, 3);
    assert_eq!(env.scalar("select count(*) from delivery_attempt").await, 0);
    again.cancel();
    still_old.await.unwrap();

    // The new pod's consumer: the deferred event, then the stream behind it, in order.
    let new = CancellationToken::new();
    let new_consumer = env.consumer_task(&queue, Arc::new(Reader { knows: 2 }), &new, |_| {});
    env.wait_for_while_running(&applied("upgraded"), 4, WAIT, &[&new_consumer]).await;
    env.wait_for_while_running(
        "select case when (select count(*) from parked_event) = 0 and (select count(*) from inbox) = 7 then 1::bigint else 0::bigint end",
        1,
        WAIT,
        &[&new_consumer],
    )
    .await;
    assert_eq!(env.scalar("select count(*) from probe_violation").await, 0, "every stream applied in order");
    let order: Vec<i64> =
        sqlx::query_scalar("select stream_version from probe_effect where stream_id = 'upgraded' order by ctid")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert_eq!(order, vec![1, 2, 3, 4]);
    assert!(runtime::dlq::list(&amqp, &queue).await.unwrap().is_empty(), "still nothing dead-lettered");
    new.cancel();
    new_consumer.await.unwrap();
    env.cleanup().await;
}
