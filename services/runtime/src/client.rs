//! Calling another service's internal API: the one internal client. Timeouts, the one retry
//! policy (idempotent calls only), and the request context (bearer token, tenant, correlation
//! id, trace context) carried along.
//!
//! Typed clients (`wallet::client`, `catalog::client`, ...) wrap an [`Upstream`] and name the
//! endpoints, one method per route; the gateway maps an [`UpstreamError`] to a GraphQL error
//! with the service's `code`. A call's [`Target`] is the route as its contract declares it
//! (`routes::DEBIT.path_with(&[&user_id])`), whose method the call must use
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).

use std::time::Duration;

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::{de::DeserializeOwned, Serialize};

use crate::auth::{Route, RoutePath, TENANT_HEADER};

/// The retry policy of an idempotent call (a read, or a write with an idempotency key): the
/// one retry mechanism's [`crate::retry::IDEMPOTENT_CALL`]. See [`UpstreamError::is_transient`]
/// for what is tried again.
const POLICY: crate::retry::Policy = crate::retry::IDEMPOTENT_CALL;

/// The longest an idempotent call can take when every attempt times out after `timeout`,
/// pauses included: what a caller waiting on its outcome (the unlocks reconciler) must allow.
pub fn worst_case(timeout: Duration) -> Duration {
    timeout * POLICY.attempts as u32 + POLICY.longest_pauses()
}

/// Who a call is made for: forwarded to the service.
#[derive(Clone, Debug, Default)]
pub struct CallContext {
    /// The user's access token, forwarded as `Authorization: Bearer`. Without one the call
    /// is the system's and carries this process's service token for the service called.
    pub bearer: Option<String>,
    /// The brand key (`x-paysite-tenant`).
    pub tenant: Option<String>,
    /// The browser request's correlation id (`x-correlation-id`).
    pub correlation_id: Option<String>,
}

impl CallContext {
    pub fn anonymous(tenant: &str) -> Self {
        CallContext { tenant: Some(tenant.to_owned()), ..Default::default() }
    }

    /// A call for the user whose access token `bearer` is, on `tenant`.
    pub fn user(bearer: impl Into<String>, tenant: &str) -> Self {
        CallContext { bearer: Some(bearer.into()), ..Self::anonymous(tenant) }
    }

    /// A call on the system's behalf (a consumer, a scheduler, a service's own step): no
    /// user's token, so this process's service token goes instead.
    pub fn system() -> Self {
        CallContext::default()
    }
}

/// Puts who is calling on `request` to the service `audience`: the user's access token when
/// the call is made for a user, else this process's service token for that service. Every
/// HTTP client of an internal API sends its token through here.
pub fn with_caller(request: RequestBuilder, user_token: Option<&str>, audience: &str) -> RequestBuilder {
    match user_token {
        Some(token) => request.bearer_auth(token),
        None => request.bearer_auth(crate::auth::ServiceTokens::process().token(audience)),
    }
}

/// A failed call: the service's refusal (`{code, message}` with its status), or no answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum UpstreamError {
    #[error("{service} refused: {code}: {message}")]
    Refused { service: &'static str, status: u16, code: String, message: String, body: serde_json::Value },
    /// No answer (unreachable, timed out, unreadable), or a 502/503/504. `body` is what the
    /// service said with its 503 (`{code, message}`, `UNLOCK_FAILED`), else null.
    #[error("{service} is unavailable: {reason}")]
    Unavailable { service: &'static str, reason: String, body: serde_json::Value },
}

impl UpstreamError {
    /// A service that gave no answer.
    pub fn unavailable(service: &'static str, reason: impl Into<String>) -> Self {
        UpstreamError::Unavailable { service, reason: reason.into(), body: serde_json::Value::Null }
    }

    pub fn code(&self) -> &str {
        match self {
            UpstreamError::Refused { code, .. } => code,
            UpstreamError::Unavailable { .. } => "SERVICE_UNAVAILABLE",
        }
    }

    pub fn status(&self) -> Option<u16> {
        match self {
            UpstreamError::Refused { status, .. } => Some(*status),
            UpstreamError::Unavailable { .. } => None,
        }
    }

    /// The code the service wrote in its answer, whatever the status (a 503's `UNLOCK_FAILED`).
    pub fn service_code(&self) -> Option<&str> {
        match self {
            UpstreamError::Refused { code, .. } => Some(code),
            UpstreamError::Unavailable { body, .. } => body.get("code").and_then(|c| c.as_str()),
        }
    }

    /// The message the service wrote in its answer, whatever the status.
    pub fn service_message(&self) -> Option<&str> {
        match self {
            UpstreamError::Refused { message, .. } => Some(message),
            UpstreamError::Unavailable { body, .. } => body.get("message").and_then(|c| c.as_str()),
        }
    }

    /// Whether the call may not have been carried out and sending it again may work: no answer,
    /// a 5xx, a 408 or a 429 (busy or throttled). The one retry policy: an idempotent call (a
    /// read, or a write with an idempotency key) is sent again on these, up to `retry::IDEMPOTENT_CALL.attempts`
    /// times; a caller of a keyed write treats a transient error as "outcome unknown".
    pub fn is_transient(&self) -> bool {
        match self {
            UpstreamError::Unavailable { .. } => true,
            UpstreamError::Refused { status, .. } => *status >= 500 || *status == 408 || *status == 429,
        }
    }
}

/// An answer passed back as it came: status, headers and body, not decoded.
#[derive(Clone, Debug)]
pub struct Proxied {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Where a call goes: an internal route as its contract declares it ([`Route`], without
/// parameters, or [`RoutePath`], filled by [`Route::path_with`]), or a path that is no such
/// route (`/.well-known/jwks.json`, a test's stand-in). A route's call must use the route's
/// method: [`Upstream`] panics when it would send a `GET` route as a `POST` (a client that
/// disagrees with its own contract is a bug, found by the first call).
pub trait Target {
    fn path(&self) -> &str;
    /// The method the route declares; none for a plain path.
    fn method(&self) -> Option<&Method>;
}

impl Target for str {
    fn path(&self) -> &str {
        self
    }
    fn method(&self) -> Option<&Method> {
        None
    }
}

impl Target for String {
    fn path(&self) -> &str {
        self
    }
    fn method(&self) -> Option<&Method> {
        None
    }
}

/// A route without parameters; one with them must be filled first ([`Route::path_with`]).
impl Target for Route {
    fn path(&self) -> &str {
        assert!(self.params().next().is_none(), "{} {} has parameters: call it with path_with", self.method, self.path);
        self.path
    }
    fn method(&self) -> Option<&Method> {
        Some(&self.method)
    }
}

impl Target for RoutePath {
    fn path(&self) -> &str {
        &self.path
    }
    fn method(&self) -> Option<&Method> {
        Some(&self.method)
    }
}

/// One service's base URL and a shared connection pool.
#[derive(Clone, Debug)]
pub struct Upstream {
    service: &'static str,
    base: String,
    timeout: Duration,
    http: reqwest::Client,
}

impl Upstream {
    /// `base` like `http://127.0.0.1:8103`; every call times out after `timeout`.
    pub fn new(service: &'static str, base: impl Into<String>, timeout: Duration) -> Self {
        // Redirects are answers to pass on (the login pages' 303s), never followed here.
        let builder = crate::tls::client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .connect_timeout(Duration::from_secs(2))
            .pool_max_idle_per_host(64);
        let http = crate::tls::http_client(builder, crate::tls::settings())
            .and_then(|b| Ok(b.build()?))
            .expect("internal http client (PAYSITE_TLS_CA_FILE)");
        Upstream { service, base: base.into().trim_end_matches('/').to_owned(), timeout, http }
    }

    /// The service at `PAYSITE_<NAME>_URL` or its default port, with a 5 s timeout.
    pub fn from_env(service: &'static str, default_port: u16) -> Self {
        Self::new(service, crate::config::service_url(service, default_port), Duration::from_secs(5))
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// The per-call timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// GET, an idempotent call: retried on transient errors ([`UpstreamError::is_transient`]).
    pub async fn get<T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        query: &[(&str, String)],
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.get_params(path, query, ctx).await
    }

    /// GET with its query string from a struct (`#[derive(Serialize)]` parameters).
    pub async fn get_params<T: DeserializeOwned, Q: Serialize + ?Sized>(
        &self,
        path: &(impl Target + ?Sized),
        params: &Q,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.retried(|| self.request(Method::GET, path, ctx).query(params)).await
    }

    /// POST with a JSON body, once (a retry is the caller's decision: only with an idempotency key).
    pub async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        body: &B,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.send(self.request(Method::POST, path, ctx).json(body)).await
    }

    /// POST of an idempotent call: a read sent as a POST (a batch of ids), or a write whose body
    /// carries an idempotency key (the same key twice is done once). Retried as a GET is.
    pub async fn post_idempotent<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        body: &B,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.retried(|| self.request(Method::POST, path, ctx).json(body)).await
    }

    /// An idempotent call under the one retry mechanism ([`POLICY`]); `Retry` logs each retry
    /// with the error, which names the service.
    async fn retried<T: DeserializeOwned>(&self, request: impl Fn() -> RequestBuilder) -> Result<T, UpstreamError> {
        crate::retry::retrying_with(POLICY, || self.send(request())).await
    }

    /// Any method with an optional JSON body, once.
    pub async fn call<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &(impl Target + ?Sized),
        body: Option<&B>,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        let mut request = self.request(method, path, ctx);
        if let Some(body) = body {
            request = request.json(body);
        }
        self.send(request).await
    }

    /// Passes a request on as it is (a browser's form, a biller's postback): the given headers
    /// and body, with the caller's identity, tenant, correlation id and traceparent as on every
    /// call, once, within `timeout`; the answer comes back undecoded, whatever its status.
    pub async fn pass_through(
        &self,
        method: Method,
        path_and_query: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
        timeout: Duration,
        ctx: &CallContext,
    ) -> Result<Proxied, UpstreamError> {
        let unavailable = |reason: String| UpstreamError::unavailable(self.service, reason);
        let mut request = self.request(method, path_and_query, ctx).timeout(timeout).body(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let response = request.send().await.map_err(|e| unavailable(e.to_string()))?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .filter_map(|(k, v)| v.to_str().ok().map(|v| (k.as_str().to_owned(), v.to_owned())))
            .collect();
        let body = response.bytes().await.map_err(|e| unavailable(e.to_string()))?.to_vec();
        Ok(Proxied { status, headers, body })
    }

    fn request(&self, method: Method, target: &(impl Target + ?Sized), ctx: &CallContext) -> RequestBuilder {
        let path = target.path();
        if let Some(declared) = target.method() {
            assert_eq!(*declared, method, "{} {path} of {} is called with {method}", declared, self.service);
        }
        let request = self.http.request(method, format!("{}{path}", self.base));
        let mut request = with_caller(request, ctx.bearer.as_deref(), self.service);
        if let Some(tenant) = &ctx.tenant {
            request = request.header(TENANT_HEADER, tenant);
        }
        if let Some(id) = &ctx.correlation_id {
            request = request.header(crate::http::CORRELATION_HEADER.clone(), id);
        }
        if let Some(traceparent) = crate::telemetry::current_traceparent() {
            request = request.header("traceparent", traceparent);
        }
        request
    }

    async fn send<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, UpstreamError> {
        let unavailable = |reason: String| UpstreamError::unavailable(self.service, reason);
        let response = request.send().await.map_err(|e| unavailable(e.to_string()))?;
        let status = response.status();
        if status == StatusCode::NO_CONTENT {
            return serde_json::from_value(serde_json::Value::Null)
                .map_err(|e| unavailable(format!("no answer where one was expected: {e}")));
        }
        if status.is_success() {
            return response.json().await.map_err(|e| unavailable(format!("unreadable answer: {e}")));
        }
        let body: serde_json::Value = response.json().await.unwrap_or(serde_json::Value::Null);
        if matches!(status, StatusCode::BAD_GATEWAY | StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT) {
            return Err(UpstreamError::Unavailable { service: self.service, reason: format!("status {status}"), body });
        }
        let text = |key: &str| body.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        Err(UpstreamError::Refused {
            service: self.service,
            status: status.as_u16(),
            code: text("code").unwrap_or_else(|| format!("HTTP_{}", status.as_u16())),
            message: text("message").unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_owned()),
            body,
        })
    }
}

impl crate::retry::Retryable for UpstreamError {
    fn is_retryable(&self) -> bool {
        self.is_transient()
    }
}

#[cfg(test)]
mod tests {
    const ATTEMPTS: u32 = POLICY.attempts as u32;
    use super::*;

    fn refused(status: u16) -> UpstreamError {
        UpstreamError::Refused {
            service: "test",
            status,
            code: "X".into(),
            message: "x".into(),
            body: serde_json::Value::Null,
        }
    }

    #[test]
    fn the_worst_case_is_every_try_timing_out_plus_the_pauses() {
        assert_eq!(worst_case(Duration::from_secs(10)), Duration::from_millis(30_300));
    }

    #[test]
    fn only_an_unknown_outcome_is_tried_again() {
        assert!(UpstreamError::unavailable("test", "refused").is_transient());
        for status in [500, 502, 503, 408, 429] {
            assert!(refused(status).is_transient(), "{status}");
        }
        for status in [400, 401, 403, 404, 409, 413, 422] {
            assert!(!refused(status).is_transient(), "{status}");
        }
    }

    /// A service answering `status` with `body` to every call, counting the calls.
    async fn answering(status: u16, body: &'static str) -> (String, std::sync::Arc<std::sync::atomic::AtomicU32>) {
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counted = calls.clone();
        let app = axum::Router::new().fallback(move || {
            let counted = counted.clone();
            async move {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                (
                    axum::http::StatusCode::from_u16(status).unwrap(),
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    body,
                )
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (format!("http://{addr}"), calls)
    }

    #[tokio::test]
    async fn idempotent_calls_are_tried_again_and_others_once() {
        let ctx = CallContext::system();
        let (base, calls) = answering(500, r#"{"code":"INTERNAL","message":"boom"}"#).await;
        let upstream = Upstream::new("test", base, Duration::from_secs(5));
        let read: Result<serde_json::Value, _> = upstream.get("/r", &[], &ctx).await;
        assert_eq!(read.unwrap_err().code(), "INTERNAL");
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), ATTEMPTS);
        let keyed: Result<serde_json::Value, _> = upstream.post_idempotent("/k", &(), &ctx).await;
        assert!(keyed.is_err());
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2 * ATTEMPTS);
        let once: Result<serde_json::Value, _> = upstream.post("/w", &(), &ctx).await;
        assert!(once.is_err());
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2 * ATTEMPTS + 1);

        let (base, calls) = answering(404, r#"{"code":"VIDEO_NOT_FOUND","message":"no such video"}"#).await;
        let upstream = Upstream::new("test", base, Duration::from_secs(5));
        let read: Result<serde_json::Value, _> = upstream.get("/r", &[], &ctx).await;
        assert_eq!((read.as_ref().unwrap_err().status(), read.unwrap_err().code()), (Some(404), "VIDEO_NOT_FOUND"));
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1, "a refusal is an answer");
    }

    #[tokio::test]
    async fn a_route_is_called_with_its_method_at_its_filled_path_and_never_with_another() {
        use crate::auth::Access;
        use futures::FutureExt;
        const ONE: Route = Route::get("/internal/things/{thing_id}", Access::Any);
        const ADD: Route = Route::post("/internal/things", Access::User);
        let app = axum::Router::new().fallback(|method: axum::http::Method, uri: axum::http::Uri| async move {
            axum::Json(serde_json::json!([method.as_str(), uri.path()]))
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let upstream = Upstream::new("test", format!("http://{addr}"), Duration::from_secs(5));
        let ctx = CallContext::system();

        let got: serde_json::Value = upstream.get(&ONE.path_with(&[&7]), &[], &ctx).await.unwrap();
        assert_eq!(got, serde_json::json!(["GET", "/internal/things/7"]));
        let got: serde_json::Value = upstream.post(&ADD, &(), &ctx).await.unwrap();
        assert_eq!(got, serde_json::json!(["POST", "/internal/things"]));
        let got: serde_json::Value = upstream.call::<(), _>(Method::POST, &ADD, None, &ctx).await.unwrap();
        assert_eq!(got, serde_json::json!(["POST", "/internal/things"]));
        // A plain path is no route: any method goes.
        let got: serde_json::Value = upstream.post("/elsewhere", &(), &ctx).await.unwrap();
        assert_eq!(got, serde_json::json!(["POST", "/elsewhere"]));

        let (one, add, unfilled) = (ONE.path_with(&[&7]), ADD, ONE);
        let wrong = std::panic::AssertUnwindSafe(upstream.post::<_, serde_json::Value>(&one, &(), &ctx));
        assert!(wrong.catch_unwind().await.is_err(), "a GET route sent as a POST");
        let wrong = std::panic::AssertUnwindSafe(upstream.get::<serde_json::Value>(&add, &[], &ctx));
        assert!(wrong.catch_unwind().await.is_err(), "a POST route sent as a GET");
        let unfilled = std::panic::AssertUnwindSafe(upstream.get::<serde_json::Value>(&unfilled, &[], &ctx));
        assert!(unfilled.catch_unwind().await.is_err(), "a route sent with its parameters unfilled");
    }

    #[tokio::test]
    async fn a_503_keeps_what_the_service_said_and_a_204_is_no_body() {
        let ctx = CallContext::system();
        let (base, _) = answering(503, r#"{"code":"UNLOCK_FAILED","message":"try later"}"#).await;
        let upstream = Upstream::new("test", base, Duration::from_secs(5));
        let e = upstream.post::<_, serde_json::Value>("/w", &(), &ctx).await.unwrap_err();
        assert!(matches!(e, UpstreamError::Unavailable { .. }), "{e:?}");
        assert_eq!(
            (e.code(), e.service_code(), e.service_message()),
            ("SERVICE_UNAVAILABLE", Some("UNLOCK_FAILED"), Some("try later"))
        );
        let (base, _) = answering(204, "").await;
        let upstream = Upstream::new("test", base, Duration::from_secs(5));
        let none: Option<serde_json::Value> = upstream.call::<(), _>(Method::DELETE, "/d", None, &ctx).await.unwrap();
        assert_eq!(none, None);
    }
}
