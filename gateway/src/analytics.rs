//! `POST /api/analytics/events`: the page's analytics events (screens-routes-access.md §2.2:
//! each page has an analytics label; account-payments-gems.md §9: a leave event gets up to
//! 300 ms before the browser goes). A page view names the page's label; a leave names where
//! the visitor leaves to (the join form, a partner) with the join link's `ref` and `elm`.
//!
//! Each accepted event is counted in `paysite_analytics_events_total{tenant, event}` and written
//! as one structured log line (target `paysite::analytics`) for the log pipeline to ship; the
//! label and the tracking values stay out of the metric's labels, which must stay few.
//! Anything else is refused with a 400 and counted nowhere.

use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::Extension,
    http::{HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde::Deserialize;

use crate::hosts::Site;

/// Largest body accepted.
pub const MAX_EVENT_BYTES: usize = 2 * 1024;
/// Longest page label (the spec's labels are a few words).
const MAX_LABEL: usize = 64;

/// The events the pages send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventName {
    PageView,
    Leave,
}

impl EventName {
    fn as_str(self) -> &'static str {
        match self {
            EventName::PageView => "page_view",
            EventName::Leave => "leave",
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
        (EventName::Leave, Some(_)) | (EventName::PageView, None) => Ok(()),
        _ => Err(Refusal::Destination),
    }
}

fn refused(status: StatusCode, code: &str, message: String) -> Response {
    (status, Json(serde_json::json!({ "code": code, "message": message }))).into_response()
}

/// The handler: JSON with the CSRF header only (as `/graphql`), then [`check`], then counted and logged.
pub async fn events(
    Extension(site): Extension<Arc<Site>>,
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
    let tenant = site.tenant.tenant.clone();
    metrics::counter!("paysite_analytics_events_total", "tenant" => tenant.clone(), "event" => event.event.as_str())
        .increment(1);
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
    }
}
