//! Calling another service's internal API: timeouts, retries for idempotent reads, and the
//! request context (bearer token, tenant, correlation id, trace context) carried along.
//!
//! Typed clients (`wallet::client`, ...) wrap an [`Upstream`] and name the endpoints; the
//! gateway maps an [`UpstreamError`] to a GraphQL error with the service's `code`.

use std::time::Duration;

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::{de::DeserializeOwned, Serialize};

use crate::auth::TENANT_HEADER;

/// Attempts of an idempotent read before giving up (connect errors, timeouts, 502/503/504).
pub const READ_ATTEMPTS: u32 = 3;
/// Pause before the second attempt; doubled for each further one.
pub const RETRY_BACKOFF: Duration = Duration::from_millis(50);

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
    #[error("{service} is unavailable: {reason}")]
    Unavailable { service: &'static str, reason: String },
}

impl UpstreamError {
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
}

/// An answer passed back as it came: status, headers and body, not decoded.
#[derive(Clone, Debug)]
pub struct Proxied {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// One service's base URL and a shared connection pool.
#[derive(Clone, Debug)]
pub struct Upstream {
    service: &'static str,
    base: String,
    http: reqwest::Client,
}

impl Upstream {
    /// `base` like `http://127.0.0.1:8103`; every call times out after `timeout`.
    pub fn new(service: &'static str, base: impl Into<String>, timeout: Duration) -> Self {
        // Redirects are answers to pass on (the login pages' 303s), never followed here.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .connect_timeout(Duration::from_secs(2))
            .pool_max_idle_per_host(64)
            .build()
            .expect("http client");
        Upstream { service, base: base.into().trim_end_matches('/').to_owned(), http }
    }

    /// The service at `PAYSITE_<NAME>_URL` or its default port, with a 5 s timeout.
    pub fn from_env(service: &'static str, default_port: u16) -> Self {
        Self::new(service, crate::config::service_url(service, default_port), Duration::from_secs(5))
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// GET, retried on connect errors, timeouts and 502/503/504.
    pub async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        let mut delay = RETRY_BACKOFF;
        let mut attempt = 1;
        loop {
            let request = self.request(Method::GET, path, ctx).query(query);
            match self.send(request).await {
                Err(e) if attempt < READ_ATTEMPTS && retryable(&e) => {
                    tracing::debug!(service = self.service, path, attempt, error = %e, "retrying a read");
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    /// POST with a JSON body, once (a retry is the caller's decision: only with an idempotency key).
    pub async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.send(self.request(Method::POST, path, ctx).json(body)).await
    }

    /// Any method with an optional JSON body, once.
    pub async fn call<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
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
        let unavailable = |reason: String| UpstreamError::Unavailable { service: self.service, reason };
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

    fn request(&self, method: Method, path: &str, ctx: &CallContext) -> RequestBuilder {
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
        let unavailable = |reason: String| UpstreamError::Unavailable { service: self.service, reason };
        let response = request.send().await.map_err(|e| unavailable(e.to_string()))?;
        let status = response.status();
        if status.is_success() {
            return response.json().await.map_err(|e| unavailable(format!("unreadable answer: {e}")));
        }
        if matches!(status, StatusCode::BAD_GATEWAY | StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT) {
            return Err(unavailable(format!("status {status}")));
        }
        let body: serde_json::Value = response.json().await.unwrap_or(serde_json::Value::Null);
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

fn retryable(e: &UpstreamError) -> bool {
    matches!(e, UpstreamError::Unavailable { .. })
}
