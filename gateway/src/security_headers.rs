//! The security headers on every answer of the edge: pages, assets, API and media.
//!
//! The SPA runs no inline script: its only inline `<script>` is the bootstrap's JSON data
//! block (`type="application/json"`), which the browser never executes, so `script-src 'self'`
//! holds without a nonce. Theme colours are set through the CSSOM (`style.setProperty`), which
//! `style-src` does not govern. An answer that brings its own policy (the members host's login
//! pages narrow `form-action` to the brand they return to) keeps it.

use axum::{
    extract::{Request, State},
    http::{header, HeaderName, HeaderValue},
    middleware::Next,
    response::Response,
};

use crate::GatewayState;

/// The page policy: everything from this origin only, nothing framing the site, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data: blob:; media-src 'self' blob:; font-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/// Two years, the preload lists' minimum; sent on https origins only (browsers ignore it on
/// http, and a local http origin must not be pinned to https).
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// The headers for an answer, given whether the origin is https.
pub fn headers(https: bool) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = vec![
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static(REFERRER_POLICY)),
        // For browsers that predate frame-ancestors.
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ];
    if https {
        headers.push((header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(STRICT_TRANSPORT_SECURITY)));
    }
    headers
}

/// Middleware: adds [`headers`] to every answer, keeping any the handler set itself.
pub async fn add(State(state): State<GatewayState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let present = response.headers_mut();
    for (name, value) in headers(state.secure_cookies) {
        if !present.contains_key(&name) {
            present.insert(name, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_no_inline_script_and_no_framing() {
        let policy = CONTENT_SECURITY_POLICY;
        assert!(policy.contains("script-src 'self';"));
        assert!(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"));
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(policy.contains("object-src 'none'"));
    }

    #[test]
    fn hsts_only_on_https() {
        let names = |https| headers(https).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        assert!(names(true).contains(&header::STRICT_TRANSPORT_SECURITY));
        assert!(!names(false).contains(&header::STRICT_TRANSPORT_SECURITY));
        assert!(names(false).contains(&header::X_CONTENT_TYPE_OPTIONS));
    }
}
