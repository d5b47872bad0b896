//! Conditional requests: whether the caller holds what the gateway would send (RFC 9110 §13).

use axum::http::{header, HeaderMap};
use chrono::{DateTime, Utc};

/// Whether `If-None-Match` names `etag` (any of its tags, weak or strong, or `*`): the weak
/// comparison, which is what a GET's `If-None-Match` uses.
pub fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|tags| {
        tags.split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag.trim_start_matches("W/"))
    })
}

/// Whether a conditional request's validators match: `If-None-Match` when it is sent, else
/// `If-Modified-Since` not before the last change.
pub fn not_modified(headers: &HeaderMap, etag: &str, last_modified: DateTime<Utc>) -> bool {
    if headers.contains_key(header::IF_NONE_MATCH) {
        return none_match(headers, etag);
    }
    headers
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| DateTime::parse_from_rfc2822(v).ok())
        .is_some_and(|since| last_modified.timestamp() <= since.timestamp())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn with(name: header::HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_tag_matches_weakly_among_others_or_by_star() {
        let tag = "W/\"abc\"";
        assert!(none_match(&with(header::IF_NONE_MATCH, tag), tag));
        assert!(none_match(&with(header::IF_NONE_MATCH, "\"abc\""), tag));
        assert!(none_match(&with(header::IF_NONE_MATCH, "W/\"x\", W/\"abc\""), tag));
        assert!(none_match(&with(header::IF_NONE_MATCH, "*"), tag));
        assert!(!none_match(&with(header::IF_NONE_MATCH, "W/\"abcd\""), tag));
        assert!(!none_match(&HeaderMap::new(), tag));
    }
}
