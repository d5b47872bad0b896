//! What every HTTP surface shares: operations routes, correlation ids, trace context.
#![cfg_attr(not(feature = "store"), allow(unused_imports))]

use axum::{
    extract::{Request, State},
    http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use tracing::Instrument;
use uuid::Uuid;

#[cfg(feature = "store")]
use crate::health::Readiness;

pub const CORRELATION_HEADER: HeaderName = HeaderName::from_static("x-correlation-id");

/// A cookie's value from the request's `Cookie` headers (a browser may send several).
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The correlation id of the request being served (from `x-correlation-id`, or new).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrelationId(pub Uuid);

/// `/healthz` (alive), `/readyz` (its database answers), `/metrics` (Prometheus): the operations
/// routes, served on a listener of their own ([`serve_ops`]), never beside an API.
#[cfg(feature = "store")]
pub fn ops_router(readiness: Readiness) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(|| async { crate::telemetry::install_metrics().render() }))
        .with_state(readiness)
}

/// Binds `addr` and serves [`ops_router`] there until `cancel`; answers the address bound.
#[cfg(feature = "store")]
pub async fn serve_ops(
    addr: std::net::SocketAddr,
    readiness: Readiness,
    cancel: tokio_util::sync::CancellationToken,
    tasks: &mut tokio::task::JoinSet<anyhow::Result<()>>,
) -> anyhow::Result<std::net::SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("binding the operations routes to {addr}: {e}"))?;
    let bound = listener.local_addr()?;
    let app = ops_router(readiness);
    tasks.spawn(async move {
        axum::serve(listener, app).with_graceful_shutdown(cancel.cancelled_owned()).await?;
        Ok(())
    });
    Ok(bound)
}

#[cfg(feature = "store")]
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
    if let Ok(value) = HeaderValue::from_str(&correlation.to_string()) {
        response.headers_mut().insert(CORRELATION_HEADER, value);
    }
    response
}

/// Buckets of `paysite_http_request_duration_seconds` (seconds): explicit, so the histogram
/// adds up across replicas (`histogram_quantile(0.99, sum by (le, route) (rate(..._bucket[5m])))`).
pub const HTTP_DURATION_BUCKETS: [f64; 12] = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// `router` with every request timed into `paysite_http_request_duration_seconds{service,
/// method, route, status}`, `route` the matched route template (`/internal/wallets/{user_id}`;
/// `unmatched` for a fallback), never the raw path, so the label set stays small.
pub fn measured(router: Router, service: &str) -> Router {
    router.layer(axum::middleware::from_fn_with_state(std::sync::Arc::<str>::from(service), measure))
}

async fn measure(State(service): State<std::sync::Arc<str>>, request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = request.method().as_str().to_owned();
    let response = next.run(request).await;
    metrics::histogram!(
        "paysite_http_request_duration_seconds",
        "service" => service.to_string(),
        "method" => method,
        "route" => route,
        "status" => response.status().as_u16().to_string(),
    )
    .record(started.elapsed().as_secs_f64());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_several_headers() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; paysite_at=tok; b=2"));
        h.append(header::COOKIE, HeaderValue::from_static("c=3"));
        assert_eq!(cookie(&h, "paysite_at"), Some("tok"));
        assert_eq!(cookie(&h, "c"), Some("3"));
        assert_eq!(cookie(&h, "paysite"), None, "a prefix is not a name");
        assert_eq!(cookie(&HeaderMap::new(), "a"), None);
    }
}
