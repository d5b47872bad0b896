//! Passing a browser's GET through to a service that serves bytes (generated images, media
//! files), streaming the answer back with its range and caching headers.

use axum::{
    body::Body,
    http::{header, HeaderMap, HeaderName, Method, StatusCode},
    response::{IntoResponse, Response},
};

/// Request headers a media service needs (ranges for the player, revalidation).
const FORWARDED_REQUEST: [HeaderName; 3] = [header::RANGE, header::IF_NONE_MATCH, header::IF_MODIFIED_SINCE];

/// Answer headers passed back to the browser.
const FORWARDED_RESPONSE: [HeaderName; 8] = [
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CONTENT_RANGE,
    header::ACCEPT_RANGES,
    header::CACHE_CONTROL,
    header::ETAG,
    header::LAST_MODIFIED,
    header::CONTENT_DISPOSITION,
];

/// Whether the part of `path` after `prefix` is made of plain segments only
/// (`[A-Za-z0-9._-]`, never `.` or `..`): the client's URL parser resolves dot segments (also
/// `%2e%2e`), so anything else could reach the service's internal API behind the media route.
pub fn plain_path(path: &str, prefix: &str) -> bool {
    let Some(rest) = path.strip_prefix(prefix) else { return false };
    rest.split('/').all(|segment| {
        !segment.is_empty()
            && segment != "."
            && segment != ".."
            && segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    })
}

/// GETs (or HEADs) `url` and streams the answer back; with `bearer`, on the behalf of the
/// user whose access token it is.
pub async fn pass_through(
    http: &reqwest::Client,
    method: &Method,
    url: &str,
    headers: &HeaderMap,
    bearer: Option<&str>,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let mut request = http.request(method.clone(), url);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    for name in FORWARDED_REQUEST {
        if let Some(value) = headers.get(&name) {
            request = request.header(name, value);
        }
    }
    let upstream = match request.send().await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, "media pass-through failed");
            return StatusCode::BAD_GATEWAY.into_response();
        }
    };
    let mut response = Response::builder().status(upstream.status().as_u16());
    for name in FORWARDED_RESPONSE {
        if let Some(value) = upstream.headers().get(&name) {
            response = response.header(name, value);
        }
    }
    response
        .body(Body::from_stream(upstream.bytes_stream()))
        .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
}

#[cfg(test)]
mod tests {
    use super::plain_path;

    #[test]
    fn only_plain_segments_pass() {
        assert!(plain_path("/media/deals/0b5e/logo-200x100.svg", "/media/deals/"));
        assert!(plain_path("/media/videos/v1/hls/segment-0.ts", "/media/videos/"));
        for bad in [
            "/media/deals/../../internal/admin/deals",
            "/media/deals/%2e%2e/internal",
            "/media/deals/./x",
            "/media/deals//x",
            "/media/deals/",
            "/media/deals/a b",
            "/other/x",
        ] {
            assert!(!plain_path(bad, "/media/deals/"), "{bad}");
        }
    }
}
