//! Trace context and correlation ids cross HTTP and the broker; /readyz tells the truth.

mod support;

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use runtime::{broker, health::Readiness, http};
use support::TestEnv;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use tracing_subscriber::layer::SubscriberExt;

fn trace_id(traceparent: &str) -> &str {
    traceparent.split('-').nth(1).expect("traceparent has a trace id")
}

#[test]
fn the_trace_of_the_appending_request_continues_through_the_broker_to_the_consumer() {
    let provider = SdkTracerProvider::builder().build();
    let subscriber =
        tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
    let _guard = tracing::subscriber::set_default(subscriber);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let env = TestEnv::new().await;
        let queue = env.queue("raw").await;
        let request = tracing::info_span!("request");
        let traceparent =
            request.in_scope(runtime::telemetry::current_traceparent).expect("a recorded span has context");
        let written = env.ping("traced", 1).instrument(request).await;

        let cancel = CancellationToken::new();
        let relay = env.relay_task(&cancel);
        let connection = broker::connect(&support::amqp_url(), "trace-test").await.unwrap();
        let channel = connection.create_channel().await.unwrap();
        // A consumer, as the services' are (a quorum queue with a single active consumer has no basic.get).
        let mut consumer = channel
            .basic_consume(
                queue.as_str().into(),
                "trace-test".into(),
                lapin::options::BasicConsumeOptions { no_ack: true, ..Default::default() },
                lapin::types::FieldTable::default(),
            )
            .await
            .unwrap();
        let delivery = tokio::time::timeout(Duration::from_secs(10), futures::StreamExt::next(&mut consumer))
            .await
            .expect("the event arrives")
            .unwrap()
            .unwrap();
        let headers = delivery.properties.headers().as_ref();
        assert_eq!(broker::header(headers, "traceparent").as_deref(), Some(traceparent.as_str()));
        assert_eq!(broker::header(headers, "x-correlation-id"), Some(written.correlation_id.to_string()));

        // The consumer's span joins the same trace.
        let consume = tracing::info_span!("consume");
        runtime::telemetry::set_parent(&consume, broker::header(headers, "traceparent").as_deref());
        let continued = consume.in_scope(runtime::telemetry::current_traceparent).unwrap();
        assert_eq!(trace_id(&continued), trace_id(&traceparent));
        assert_ne!(continued, traceparent, "the consumer's span is a new span of that trace");

        cancel.cancel();
        let _ = relay.await;
        connection.close(200, "ok".into()).await.unwrap();
        env.cleanup().await;
    });
}

async fn serve(readiness: Readiness) -> String {
    let app = http::ops_router(readiness).layer(axum::middleware::from_fn(http::correlate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

#[tokio::test]
async fn a_correlation_id_is_echoed_or_made_up() {
    let base = serve(Readiness::new("echo", None)).await;
    let client = runtime::tls::client();
    let given = "0190f5a2-7b1c-7d3e-8f40-000000000c01";
    let answer = client.get(format!("{base}/healthz")).header("x-correlation-id", given).send().await.unwrap();
    assert_eq!(answer.headers()["x-correlation-id"], given);
    let answer = client.get(format!("{base}/healthz")).send().await.unwrap();
    let made = answer.headers()["x-correlation-id"].to_str().unwrap().to_owned();
    assert!(uuid::Uuid::parse_str(&made).is_ok(), "{made}");
    assert_ne!(made, given);
}

#[tokio::test]
async fn readyz_depends_on_the_database_alone_and_says_why_it_is_unready() {
    let env = TestEnv::new().await;
    let service = env.schema.clone();
    runtime::telemetry::install_metrics();
    // No broker connection yet (or lost): still ready, the outbox takes the writes.
    runtime::health::set_broker_up(&service, false);
    let base = serve(Readiness::new(service.clone(), Some(env.pool.clone()))).await;
    let answer = runtime::tls::client().get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(runtime::tls::client().get(format!("{base}/healthz")).send().await.unwrap().status(), 200);
    // The broker's state shows as a metric instead.
    let metrics = runtime::tls::client().get(format!("{base}/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        metrics.lines().any(|l| l.starts_with("paysite_broker_connected") && l.contains(&service) && l.ends_with(" 0")),
        "{metrics}"
    );
    // A database that does not answer makes it unready, saying why.
    let nowhere = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(std::time::Duration::from_secs(1))
        .connect_lazy("postgres://postgres@127.0.0.1:1/nowhere")
        .unwrap();
    let dead = serve(Readiness::new(service.clone(), Some(nowhere))).await;
    let answer = runtime::tls::client().get(format!("{dead}/readyz")).send().await.unwrap();
    assert_eq!(answer.status(), 503);
    assert!(answer.text().await.unwrap().contains("database"));
    env.cleanup().await;
}
