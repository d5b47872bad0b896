//! `POST /api/analytics/events`: the page's analytics events (product.md, "Analytics and affiliates":
//! each page has an analytics label; product.md, "Analytics and affiliates": a leave event gets up to
//! 300 ms before the browser goes). A page view names the page's label; a leave names where
//! the visitor leaves to (the join form, a partner) with the join link's `ref` and `elm`.
//!
//! An error event is the browser's error reporting (product.md, "Route errors and the error screen": "errors are
//! reported to an error-reporting service when enabled, otherwise logged"): the page's label, the
//! error's message, an optional code (`CSS_CHUNK_LOAD_FAILED`) and the path, logged at warn
//! (target `paysite::errors`) with the request's correlation id, which the browser chose and
//! shows as the error-report id. With reporting off (`PAYSITE_ERROR_REPORTING=false`) the
//! browser writes errors to its console and the gateway refuses them.
//!
//! Each accepted event is counted in `paysite_analytics_events_total{tenant, event}` and written
//! as one structured log line (target `paysite::analytics`, or `paysite::errors`) for the log
//! pipeline to ship; the label and the other values stay out of the metric's labels, which must
//! stay few. Anything else is refused with a 400 and counted nowhere.

use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::{Extension, State},
    http::{HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde::Deserialize;

use crate::{hosts::Site, GatewayState};
use runtime::http::CorrelationId;

/// Largest body accepted.
pub const MAX_EVENT_BYTES: usize = 2 * 1024;
/// Longest page label (the spec's labels are a few words).
const MAX_LABEL: usize = 64;
/// Longest error message kept (a message with its status text; stacks stay in the browser).
const MAX_MESSAGE: usize = 500;
/// Longest path of an error's page.
const MAX_PATH: usize = 512;

/// The events the pages send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventName {
    PageView,
    Leave,
    /// An error the page reports (product.md, "Route errors and the error screen").
    Error,
}

impl EventName {
    fn as_str(self) -> &'static str {
        match self {
            EventName::PageView => "page_view",
            EventName::Leave => "leave",
            EventName::Error => "error",
        }
    }
}

/// Where a leave goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// The members host's join form.
    Join,
    /// A partner's site (an outgoing upsell, cams).
    Partner,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalyticsEvent {
    pub event: EventName,
    /// The page's analytics label (`Homepage`, `Join Now`, `Video Listing`, …).
    pub label: String,
    #[serde(default, rename = "ref")]
    pub page_ref: Option<String>,
    #[serde(default)]
    pub elm: Option<String>,
    #[serde(default)]
    pub to: Option<Destination>,
    /// An error's message ('Outgoing upsell - Confirmation link is missing', …).
    #[serde(default)]
    pub message: Option<String>,
    /// An error's code, when it has one (`CSS_CHUNK_LOAD_FAILED`).
    #[serde(default)]
    pub code: Option<String>,
    /// The path of the page an error happened on, without its query.
    #[serde(default)]
    pub path: Option<String>,
}

/// Why an event is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the label must be 1 to {MAX_LABEL} printable characters")]
    Label,
    #[error("ref and elm must be 1 to 128 letters, digits, '_', '.', ':' or '-'")]
    Tracking,
    #[error("a leave names where it goes (to), a page view does not")]
    Destination,
    #[error("an error carries a message of 1 to {MAX_MESSAGE} characters, an optional code and a path of 1 to {MAX_PATH} characters starting with '/'; other events carry none of them")]
    Error,
}

fn tracking_ok(value: &Option<String>) -> bool {
    value.as_deref().is_none_or(|v| {
        (1..=128).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b))
    })
}

/// The event's own rules.
pub fn check(event: &AnalyticsEvent) -> Result<(), Refusal> {
    let label = event.label.trim();
    if label.is_empty() || label.chars().count() > MAX_LABEL || label.chars().any(char::is_control) {
        return Err(Refusal::Label);
    }
    if !tracking_ok(&event.page_ref) || !tracking_ok(&event.elm) {
        return Err(Refusal::Tracking);
    }
    match (event.event, event.to) {
        (EventName::Leave, Some(_)) | (EventName::PageView | EventName::Error, None) => {}
        _ => return Err(Refusal::Destination),
    }
    let error_fields = [&event.message, &event.code, &event.path];
    if event.event != EventName::Error {
        return if error_fields.iter().all(|f| f.is_none()) { Ok(()) } else { Err(Refusal::Error) };
    }
    let printable =
        |v: &str, max: usize| !v.trim().is_empty() && v.chars().count() <= max && !v.chars().any(char::is_control);
    let message_ok = event.message.as_deref().is_some_and(|m| printable(m, MAX_MESSAGE));
    let path_ok = event.path.as_deref().is_none_or(|p| p.starts_with('/') && printable(p, MAX_PATH));
    if message_ok && path_ok && tracking_ok(&event.code) && event.page_ref.is_none() && event.elm.is_none() {
        Ok(())
    } else {
        Err(Refusal::Error)
    }
}

fn refused(status: StatusCode, code: &str, message: String) -> Response {
    (status, Json(serde_json::json!({ "code": code, "message": message }))).into_response()
}

/// The handler: JSON with the CSRF header only (as `/graphql`), then [`check`], then counted and logged.
pub async fn events(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    correlation: Option<Extension<CorrelationId>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !crate::session::csrf_ok(&method, &headers) {
        let message =
            format!("The request needs content-type application/json and the {} header", crate::session::CSRF_HEADER);
        return refused(StatusCode::FORBIDDEN, "CSRF_CHECK_FAILED", message);
    }
    let event: AnalyticsEvent = match serde_json::from_slice(&body) {
        Ok(event) => event,
        Err(e) => return refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", format!("not an analytics event: {e}")),
    };
    if let Err(refusal) = check(&event) {
        return refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", refusal.to_string());
    }
    if event.event == EventName::Error && !state.error_reporting {
        return refused(StatusCode::FORBIDDEN, "ERROR_REPORTING_OFF", "Error reporting is off".to_owned());
    }
    let tenant = site.tenant.tenant.clone();
    metrics::counter!("paysite_analytics_events_total", "tenant" => tenant.clone(), "event" => event.event.as_str())
        .increment(1);
    if event.event == EventName::Error {
        let correlation_id = correlation.map(|Extension(CorrelationId(id))| id.to_string()).unwrap_or_default();
        tracing::warn!(
            target: "paysite::errors",
            tenant,
            correlation_id,
            label = event.label.trim(),
            message = event.message.as_deref().unwrap_or_default(),
            code = event.code.as_deref().unwrap_or_default(),
            path = event.path.as_deref().unwrap_or_default(),
            "browser error reported"
        );
        return StatusCode::NO_CONTENT.into_response();
    }
    tracing::info!(
        target: "paysite::analytics",
        tenant,
        event = event.event.as_str(),
        label = event.label.trim(),
        r#ref = event.page_ref.as_deref().unwrap_or_default(),
        elm = event.elm.as_deref().unwrap_or_default(),
        to = ?event.to,
        "analytics event"
    );
    StatusCode::NO_CONTENT.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(json: serde_json::Value) -> Result<AnalyticsEvent, serde_json::Error> {
        serde_json::from_value(json)
    }

    #[test]
    fn page_views_and_leaves_pass_with_their_fields() {
        let view = event(serde_json::json!({ "event": "page_view", "label": "Homepage" })).unwrap();
        assert_eq!(check(&view), Ok(()));
        let leave =
            event(serde_json::json!({ "event": "leave", "label": "Video", "ref": "video", "elm": "video-player",
                                              "to": "join" }))
            .unwrap();
        assert_eq!(check(&leave), Ok(()));
    }

    #[test]
    fn anything_else_is_refused() {
        assert!(event(serde_json::json!({ "event": "purchase", "label": "Homepage" })).is_err());
        assert!(event(serde_json::json!({ "event": "page_view", "label": "Homepage", "extra": 1 })).is_err());
        let empty = event(serde_json::json!({ "event": "page_view", "label": "  " })).unwrap();
        assert_eq!(check(&empty), Err(Refusal::Label));
        let long = event(serde_json::json!({ "event": "page_view", "label": "x".repeat(65) })).unwrap();
        assert_eq!(check(&long), Err(Refusal::Label));
        let control = event(serde_json::json!({ "event": "page_view", "label": "a\nb" })).unwrap();
        assert_eq!(check(&control), Err(Refusal::Label));
        let bad_ref =
            event(serde_json::json!({ "event": "leave", "label": "Video", "ref": "<x>", "to": "join" })).unwrap();
        assert_eq!(check(&bad_ref), Err(Refusal::Tracking));
        let nowhere = event(serde_json::json!({ "event": "leave", "label": "Video" })).unwrap();
        assert_eq!(check(&nowhere), Err(Refusal::Destination));
        let view_to = event(serde_json::json!({ "event": "page_view", "label": "Video", "to": "join" })).unwrap();
        assert_eq!(check(&view_to), Err(Refusal::Destination));
        let view_message =
            event(serde_json::json!({ "event": "page_view", "label": "Video", "message": "boom" })).unwrap();
        assert_eq!(check(&view_message), Err(Refusal::Error));
    }

    #[test]
    fn an_error_carries_its_message_an_optional_code_and_its_path() {
        let error = event(serde_json::json!({ "event": "error", "label": "Deals",
            "message": "Outgoing upsell - Confirmation link is missing", "path": "/deals" }))
        .unwrap();
        assert_eq!(check(&error), Ok(()));
        let chunk = event(serde_json::json!({ "event": "error", "label": "Video Listing",
            "message": "Loading chunk 3 failed", "code": "CSS_CHUNK_LOAD_FAILED", "path": "/videos" }))
        .unwrap();
        assert_eq!(check(&chunk), Ok(()));
        for bad in [
            serde_json::json!({ "event": "error", "label": "Deals" }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": " " }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": "x".repeat(501) }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": "a\u{7}b" }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": "boom", "path": "deals" }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": "boom", "code": "<x>" }),
            serde_json::json!({ "event": "error", "label": "Deals", "message": "boom", "ref": "deals" }),
        ] {
            assert_eq!(check(&event(bad.clone()).unwrap()), Err(Refusal::Error), "{bad}");
        }
        let to =
            event(serde_json::json!({ "event": "error", "label": "Deals", "message": "boom", "to": "join" })).unwrap();
        assert_eq!(check(&to), Err(Refusal::Destination));
    }
}
