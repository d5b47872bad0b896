//! The security headers on every answer of the edge: pages, assets, API and media.
//!
//! The page's inline scripts are allowed by their hashes, computed from the built index.html
//! as it is served ([`page_policy`]): the landing preloader the build writes inline. The
//! bootstrap's JSON data block (`type="application/json"`) is never executed, so it needs none.
//! Theme colours are set through the CSSOM (`style.setProperty`), which `style-src` does not
//! govern. An answer that brings its own policy (the SPA's page, with its hashes; the members
//! host's login pages, which narrow `form-action` to the brand they return to) keeps it.

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

/// The policy for a page: [`CONTENT_SECURITY_POLICY`] with `script-src` also allowing each
/// inline script of `html` that a browser would run, by its SHA-256.
pub fn page_policy(html: &str) -> String {
    let hashes = inline_script_hashes(html);
    if hashes.is_empty() {
        return CONTENT_SECURITY_POLICY.to_owned();
    }
    let allowed: Vec<String> = hashes.iter().map(|h| format!("'sha256-{h}'")).collect();
    CONTENT_SECURITY_POLICY.replacen("script-src 'self';", &format!("script-src 'self' {};", allowed.join(" ")), 1)
}

/// The base64 SHA-256 of each `<script>` without `src` whose type a browser executes (none,
/// a JavaScript type or `module`), over its text exactly as written.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    use base64::Engine as _;
    use sha2::Digest as _;
    let lower = html.to_ascii_lowercase();
    let mut hashes = Vec::new();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<script").map(|i| i + from) {
        let Some(open_end) = lower[start..].find('>').map(|i| i + start + 1) else { break };
        let Some(close) = lower[open_end..].find("</script").map(|i| i + open_end) else { break };
        let tag = &lower[start..open_end];
        let executed = !tag.contains(" src=") && script_type(tag).is_none_or(is_executed_type);
        if executed {
            let digest = sha2::Sha256::digest(&html.as_bytes()[open_end..close]);
            hashes.push(base64::engine::general_purpose::STANDARD.encode(digest));
        }
        from = close;
    }
    hashes
}

fn script_type(tag: &str) -> Option<&str> {
    let at = tag.find(" type=")? + " type=".len();
    let rest = &tag[at..];
    let (quote, rest) = match rest.chars().next()? {
        q @ ('"' | '\'') => (Some(q), &rest[1..]),
        _ => (None, rest),
    };
    let end = match quote {
        Some(q) => rest.find(q)?,
        None => rest.find([' ', '>', '/']).unwrap_or(rest.len()),
    };
    Some(rest[..end].trim())
}

fn is_executed_type(kind: &str) -> bool {
    kind.is_empty() || kind == "module" || kind.ends_with("javascript") || kind == "text/ecmascript"
}

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
        // Not a security header, but on every answer likewise: the adult label (crate::rating).
        (crate::rating::RATING_HEADER, crate::rating::RATING_VALUE),
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
    fn a_pages_inline_scripts_are_allowed_by_hash_and_data_blocks_and_external_ones_are_not_hashed() {
        let html = r#"<head><script type="module" crossorigin src="/assets/a.js"></script>
<script id="paysite-bootstrap" type="application/json">{"a":1}</script>
<script>console.log(1)</script><SCRIPT type='text/javascript'>x()</SCRIPT></head>"#;
        let hashes = inline_script_hashes(html);
        use base64::Engine as _;
        use sha2::Digest as _;
        let hash = |text: &str| base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()));
        assert_eq!(hashes, vec![hash("console.log(1)"), hash("x()")]);
        let policy = page_policy(html);
        assert!(
            policy.contains(&format!("script-src 'self' 'sha256-{}' 'sha256-{}';", hashes[0], hashes[1])),
            "{policy}"
        );
        assert!(!policy.contains("unsafe-inline"));
        assert_eq!(page_policy("<head></head>"), CONTENT_SECURITY_POLICY);
    }

    #[test]
    fn hsts_only_on_https() {
        let names = |https| headers(https).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        assert!(names(true).contains(&header::STRICT_TRANSPORT_SECURITY));
        assert!(!names(false).contains(&header::STRICT_TRANSPORT_SECURITY));
        assert!(names(false).contains(&header::X_CONTENT_TYPE_OPTIONS));
    }
}
