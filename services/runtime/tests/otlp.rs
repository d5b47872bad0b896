//! With OTEL_EXPORTER_OTLP_ENDPOINT set, spans leave the process over OTLP/HTTP.
//! A local HTTP endpoint stands in for the collector (Jaeger in compose).

use std::sync::{Arc, Mutex};

use axum::{body::Bytes, extract::State, routing::post, Router};

#[test]
fn spans_are_exported_over_otlp_http_when_an_endpoint_is_set() {
    let received: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let server = tokio::runtime::Runtime::new().unwrap();
    let addr = server.block_on(async {
        let app = Router::new()
            .route(
                "/v1/traces",
                post(|State(seen): State<Arc<Mutex<Vec<Vec<u8>>>>>, body: Bytes| async move {
                    seen.lock().unwrap().push(body.to_vec());
                    ""
                }),
            )
            .with_state(received.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        addr
    });
    let endpoint = format!("http://{addr}");
    // This test binary has one test: setting the variable touches no other test.
    std::env::set_var("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint);

    let app = tokio::runtime::Runtime::new().unwrap();
    app.block_on(async {
        let guard = runtime::telemetry::init("otlp-probe-service", Some(&endpoint));
        tracing::info_span!("checkout", order = 42).in_scope(|| tracing::info!("inside a traced request"));
        drop(guard); // flushes the batch exporter
    });

    let bodies = received.lock().unwrap();
    assert!(!bodies.is_empty(), "no OTLP export reached {endpoint}");
    let all: Vec<u8> = bodies.concat();
    let contains = |needle: &str| all.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(contains("otlp-probe-service"), "the export names the service");
    assert!(contains("checkout"), "the export carries the span");
}
