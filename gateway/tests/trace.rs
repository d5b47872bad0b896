//! One trace runs gateway -> unlocks -> (subscription, wallet) -> relay -> consumer for a pack
//! unlock, and its synchronous hops are counted: the browser's call, the gateway's one call to
//! the unlocks service, which reads the subscription once and debits the wallet once (every
//! service of the stack records the calls it receives). The browser's `traceparent` reaches
//! each of them, and the debit's event carries it through the wallet's outbox and relay over
//! the real broker to a consumer's span. Real Postgres and
//! RabbitMQ; the spans are real OpenTelemetry spans (an SDK tracer, nothing exported).

mod support;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use proto_events::{subscription::MembershipKind, Envelope};
use reqwest::header;
use runtime::consumer::{self, ConsumerSettings, ConsumerSpec};
use serde_json::json;
use support::{
    content::{channel_published, pack_published, video},
    short,
    stack::{Options, Stack},
};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::layer::SubscriberExt;
use uuid::Uuid;

const HOST: &str = "vixen.localhost:8080";
const UNLOCK_PACK: &str = "mutation($id: ID!) { unlockChannelPack(channelPackId: $id) { status gemsBalance } }";

fn trace_id(traceparent: &str) -> &str {
    traceparent.split('-').nth(1).expect("a traceparent has a trace id")
}

/// Every event the consumer applied: its type and the trace context of the consumer's span.
type Consumed = Arc<Mutex<Vec<(String, Option<String>)>>>;

struct Recorder(Consumed);

#[async_trait::async_trait]
impl consumer::Handler for Recorder {
    async fn handle(&self, _tx: &mut sqlx::PgConnection, event: &Envelope) -> anyhow::Result<()> {
        self.0.lock().unwrap().push((event.event_type.clone(), runtime::telemetry::current_traceparent()));
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pack_unlock_is_one_trace_from_the_gateway_through_the_wallet_to_a_consumer() {
    // Spans on every thread get OpenTelemetry context (this test is alone in its binary).
    let provider = SdkTracerProvider::builder().build();
    let subscriber =
        tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(provider.tracer("trace-test")));
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber of this test binary");

    let stack = Stack::start(Options::default()).await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let in_pack = video(Some((pack, channel)));
    stack.publish(&[channel_published(channel), pack_published(pack, channel, vec![in_pack.video_id])]).await;
    let member = Uuid::now_v7();
    stack.member(member, &["vixen"], MembershipKind::Member, false).await;
    stack.fund_gems(member, 10).await;

    // The wallet's relay and a consumer of its events, over the broker.
    let cancel = CancellationToken::new();
    let queue = format!("{}.trace", stack.wallet.schema);
    stack.wallet.track_queue(&queue);
    let bindings = vec!["wallet.#".to_owned()];
    // Bound before the relay publishes anything, so no event goes past the queue.
    let settings = &stack.wallet.settings;
    let connection = runtime::broker::connect(settings.amqp_url.expose(), "trace-test").await.unwrap();
    let channel = connection.create_channel().await.unwrap();
    runtime::broker::declare_consumer_queue(&channel, &settings.exchange, &queue, &bindings).await.unwrap();
    let _ = connection.close(200, "declared".into()).await;
    let consumed: Consumed = Arc::default();
    let spec = ConsumerSpec { queue, bindings, handler: Arc::new(Recorder(consumed.clone())) };
    let consuming = tokio::spawn(consumer::run(
        stack.wallet.pool.clone(),
        spec,
        ConsumerSettings::new(&stack.wallet.settings),
        cancel.clone(),
    ));
    let relay = runtime::relay::RelaySettings {
        poll_interval: Duration::from_millis(50),
        ..runtime::relay::RelaySettings::new("wallet", &stack.wallet.schema, &stack.wallet.settings)
    };
    let relaying = tokio::spawn(runtime::relay::run(stack.wallet.pool.clone(), relay, cancel.clone()));
    // The pipeline runs: the funding's event comes through.
    let funded = async {
        while consumed.lock().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), funded).await.expect("the funding's event is consumed");
    stack.traces.lock().unwrap().clear();

    // The browser's request opens the trace.
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let traceparent = format!("00-{trace}-00f067aa0ba902b7-01");
    let response = stack
        .gw
        .client
        .post(format!("{}/graphql", stack.gw.base))
        .header(header::HOST, HOST)
        .header(header::COOKIE, format!("paysite_at={}", stack.token(member, HOST, &[])))
        .header("x-paysite-csrf", "1")
        .header("traceparent", &traceparent)
        .json(&json!({ "query": UNLOCK_PACK, "variables": { "id": pack } }))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["data"]["unlockChannelPack"]["status"], "success", "{}", short(&body));

    // One straight path: the gateway asks the unlocks service, which reads the subscription
    // once and debits the wallet once. With the browser's call to the gateway, 4 hops.
    let hops = stack.traces.lock().unwrap().clone();
    let called: Vec<&str> = hops.iter().map(|(service, _)| *service).collect();
    assert_eq!(called, ["unlocks", "subscription", "wallet"], "the synchronous calls of one unlock, in order");

    // Each hop received the browser's trace.
    for service in ["unlocks", "subscription", "wallet"] {
        let received: Vec<_> = hops.iter().filter(|(s, _)| *s == service).map(|(_, tp)| tp.clone()).collect();
        assert!(!received.is_empty(), "{service} was called: {hops:?}");
        for tp in received {
            let tp = tp.unwrap_or_else(|| panic!("a call to {service} without a traceparent: {hops:?}"));
            assert_eq!(trace_id(&tp), trace, "{service}: {hops:?}");
        }
    }

    // The debit's event, relayed over the broker, is consumed in a span of the same trace.
    let debited = async {
        loop {
            let found = consumed.lock().unwrap().iter().find(|(t, _)| t == "GemsDebited").cloned();
            match found {
                Some((_, tp)) => return tp,
                None => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    };
    let tp = tokio::time::timeout(Duration::from_secs(20), debited).await.expect("the debit's event is consumed");
    let tp = tp.expect("the consumer's span has trace context");
    assert_eq!(trace_id(&tp), trace);

    cancel.cancel();
    let _ = tokio::join!(consuming, relaying);
    stack.cleanup().await;
}
