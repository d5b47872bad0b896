//! What every HTTP surface shares: operations routes, correlation ids, trace context.

use axum::{
    extract::{Request, State},
    http::{HeaderName, HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use tracing::Instrument;
use uuid::Uuid;

use crate::health::Readiness;

pub const CORRELATION_HEADER: HeaderName = HeaderName::from_static("x-correlation-id");

/// The correlation id of the request being served (from `x-correlation-id`, or new).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrelationId(pub Uuid);

/// `/healthz` (alive), `/readyz` (database and broker reachable), `/metrics` (Prometheus).
pub fn ops_router(readiness: Readiness) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(|| async { crate::telemetry::install_metrics().render() }))
        .with_state(readiness)
}

async fn readyz(State(readiness): State<Readiness>) -> Response {
    let problems = readiness.problems().await;
    if problems.is_empty() {
        (StatusCode::OK, Json(serde_json::json!({ "status": "ready" }))).into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({ "status": "unready", "problems": problems })))
            .into_response()
    }
}

/// Middleware: takes or makes the correlation id, opens the request span as a child of
/// the caller's `traceparent`, and echoes the correlation id on the response.
pub async fn correlate(mut request: Request, next: Next) -> Response {
    let correlation = request
        .headers()
        .get(&CORRELATION_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| Uuid::parse_str(v).ok())
        .unwrap_or_else(Uuid::now_v7);
    request.extensions_mut().insert(CorrelationId(correlation));
    let span = tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        correlation_id = %correlation,
        status = tracing::field::Empty,
    );
    let traceparent = request.headers().get("traceparent").and_then(|v| v.to_str().ok()).map(str::to_owned);
    crate::telemetry::set_parent(&span, traceparent.as_deref());
    let mut response = next.run(request).instrument(span.clone()).await;
    span.record("status", response.status().as_u16());
    metrics::counter!("paysite_http_requests_total", "status" => response.status().as_u16().to_string()).increment(1);
    if let Ok(value) = HeaderValue::from_str(&correlation.to_string()) {
        response.headers_mut().insert(CORRELATION_HEADER, value);
    }
    response
}

/// Resolves when the process is asked to stop (Ctrl-C or SIGTERM).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutdown requested");
}
