//! The billers' door on the public hosts: `POST /billers/{BILLER}/postback` passed to the
//! subscription service byte for byte (the signature covers the raw body), with the biller's
//! headers, and the service's answer (the biller's OK text, or the refusal) passed back.

use axum::{
    body::{Body, Bytes},
    extract::{Path, State},
    http::{header, HeaderMap, HeaderName, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
    Router,
};

use crate::GatewayState;

/// Largest postback body passed on.
pub const MAX_POSTBACK_BYTES: usize = 64 * 1024;

/// How long the subscription service may take to apply a postback.
const POSTBACK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// Request headers not passed on: the connection's own, the browser session's, and what the
/// gateway states itself (the client address, its own identity, the trace), which the sender
/// could invent.
const NOT_FORWARDED: [HeaderName; 10] = [
    HeaderName::from_static("x-forwarded-for"),
    header::AUTHORIZATION,
    HeaderName::from_static("traceparent"),
    header::HOST,
    header::CONNECTION,
    header::CONTENT_LENGTH,
    header::TRANSFER_ENCODING,
    header::TE,
    header::UPGRADE,
    header::COOKIE,
];

pub fn router() -> Router<GatewayState> {
    Router::new()
        .route(
            "/billers/{biller}/postback",
            post(postback).layer(axum::extract::DefaultBodyLimit::max(MAX_POSTBACK_BYTES)),
        )
        .route(
            "/api/payments/v1/outgoing-upsells-oneclick/cams",
            post(cams).layer(axum::extract::DefaultBodyLimit::max(MAX_CAMS_BYTES)),
        )
        .route("/api/_signup-extern/{biller}", axum::routing::get(signup_extern))
}

/// The welcome data `/_signup-extern/{biller}` sends (the page's query names it `memberid`).
#[derive(serde::Deserialize)]
pub struct SignupExternQuery {
    #[serde(default)]
    memberid: String,
    #[serde(default, rename = "hashedMemberId")]
    hashed_member_id: String,
}

/// `GET {api host}/_signup-extern/{biller}` (the api host is `{origin}/api`): `{data: welcome}`
/// for a member the biller signed up, or a 400 the page turns into signup denied (an unknown
/// biller or member, a forged hash, a declined signup). No session: the signed
/// `hashedMemberId` is the proof, as for welcomeCheck.
async fn signup_extern(
    State(state): State<GatewayState>,
    axum::Extension(site): axum::Extension<std::sync::Arc<crate::hosts::Site>>,
    correlation: Option<axum::Extension<runtime::http::CorrelationId>>,
    Path(biller): Path<String>,
    axum::extract::Query(q): axum::extract::Query<SignupExternQuery>,
) -> Response {
    let biller = biller.to_ascii_uppercase();
    if !is_biller_name(&biller) || q.memberid.is_empty() || q.hashed_member_id.is_empty() {
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "unknown signup");
    }
    let call = runtime::client::CallContext {
        bearer: None,
        tenant: Some(site.tenant.tenant.clone()),
        correlation_id: correlation.map(|axum::Extension(c)| c.0.to_string()),
    };
    let subscription = &state.upstreams.subscription;
    match subscription.signup_extern(&biller, &site.tenant.tenant, &q.memberid, &q.hashed_member_id, &call).await {
        Ok(answer) => ([(header::CACHE_CONTROL, "no-store")], axum::Json(serde_json::json!({ "data": answer.data })))
            .into_response(),
        Err(runtime::client::UpstreamError::Refused { status, code, message, .. }) if (400..500).contains(&status) => {
            failure(StatusCode::BAD_REQUEST, &code, &message)
        }
        Err(e) => {
            tracing::warn!(error = %e, "signup-extern: the subscription service did not answer");
            failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The subscription service did not answer")
        }
    }
}

/// Largest cams request body (the /cams query as JSON).
pub const MAX_CAMS_BYTES: usize = 16 * 1024;

fn failure(status: StatusCode, code: &str, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "code": code, "message": message }))).into_response()
}

/// `POST {payments host}/v1/outgoing-upsells-oneclick/cams` (the tenant's payments host is
/// `{origin}/api/payments`): for the signed-in user only; the body is the /cams query, and
/// `email` and `siteName` are the gateway's (the user's e-mail, this brand), never the
/// browser's. The payments host's answer (`{url}`, or a refusal the page shows as 'Failed
/// to fetch cams oneclick url') is passed back.
async fn cams(
    State(state): State<GatewayState>,
    axum::Extension(site): axum::Extension<std::sync::Arc<crate::hosts::Site>>,
    correlation: Option<axum::Extension<runtime::http::CorrelationId>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    // A cross-site form cannot send JSON without a preflight, which this host does not grant.
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return failure(StatusCode::FORBIDDEN, "CSRF_CHECK_FAILED", "The request needs content-type application/json");
    }
    let Some((_, token)) = crate::session::current_user(&state, &site, &headers).await else {
        return failure(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", "You need to log in");
    };
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "The body must be a JSON object");
    };
    let call = runtime::client::CallContext {
        bearer: Some(token),
        tenant: Some(site.tenant.tenant.clone()),
        correlation_id: correlation.map(|axum::Extension(c)| c.0.to_string()),
    };
    let profile = match state.upstreams.profile.own_profile(&call).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(error = %e, "cams: the profile could not be read");
            return failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The profile could not be read");
        }
    };
    // Nothing goes to the partner before the member agreed (CamsConsent, giveCamsConsent).
    if profile.gdpr.should_request_cams_consent {
        return failure(
            StatusCode::FORBIDDEN,
            "CAMS_CONSENT_REQUIRED",
            "Agree to share your e-mail address with the cams partner first",
        );
    }
    fields.insert("email".into(), serde_json::Value::String(profile.email));
    fields.insert("siteName".into(), serde_json::Value::String(site.tenant.tenant.clone()));
    let url = format!("{}/v1/outgoing-upsells-oneclick/cams", state.upstreams.payments_base);
    let upstream = match state.media_http.post(url).timeout(POSTBACK_TIMEOUT).json(&fields).send().await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, "cams: the payments host did not answer");
            return failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The payments host did not answer");
        }
    };
    let status = upstream.status().as_u16();
    match upstream.bytes().await {
        Ok(bytes) => Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CACHE_CONTROL, "no-store")
            .body(Body::from(bytes))
            .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response()),
        Err(_) => StatusCode::BAD_GATEWAY.into_response(),
    }
}

/// A biller name is upper-case letters and digits (EPOCH, RGNATIVE); anything else is 404
/// here, so no other path of the service can be reached through this one.
fn is_biller_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 32 && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// The billers' postbacks, passed to the subscription service with the sender's address,
/// which limits forged deliveries per address and per biller (a well-signed one is never
/// refused).
async fn postback(
    State(state): State<GatewayState>,
    Path(biller): Path<String>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !is_biller_name(&biller) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let mut forwarded: Vec<(&str, String)> = headers
        .iter()
        .filter(|(name, _)| !NOT_FORWARDED.contains(name))
        .filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?.to_owned())))
        .collect();
    if let Some(address) =
        crate::rate_limits::client_address(state.trust_forwarded_for, &headers, peer.map(|p| p.0 .0.ip()))
    {
        forwarded.push(("x-forwarded-for", address));
    }
    let path = format!("/billers/{biller}/postback");
    let ctx = runtime::client::CallContext::system();
    let upstream =
        match state.upstreams.subscription.pass_through(&path, &forwarded, body.to_vec(), POSTBACK_TIMEOUT, &ctx).await
        {
            Ok(answer) => answer,
            Err(e) => {
                tracing::warn!(error = %e, biller, "postback pass-through failed");
                return StatusCode::BAD_GATEWAY.into_response();
            }
        };
    let mut response = Response::builder().status(upstream.status);
    for (name, value) in &upstream.headers {
        if name.eq_ignore_ascii_case("content-type") || name.eq_ignore_ascii_case("retry-after") {
            response = response.header(name.as_str(), value.as_str());
        }
    }
    response.body(Body::from(upstream.body)).unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_biller_names_pass() {
        for good in ["EPOCH", "RGNATIVE", "SEGPAY"] {
            assert!(super::is_biller_name(good), "{good}");
        }
        for bad in ["", "epoch", "..", "EPOCH/../x", "E%2e", "A".repeat(33).as_str()] {
            assert!(!super::is_biller_name(bad), "{bad}");
        }
    }
}
