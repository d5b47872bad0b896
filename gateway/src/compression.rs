//! Compression of the gateway's own answers: GraphQL and REST JSON, HTML pages, the
//! placeholder SVGs. Browsers send `Accept-Encoding`; a client that does not gets the plain
//! bytes. The built SPA's files are served precompressed (spa.rs) and keep their own
//! `Content-Encoding`, which this layer leaves alone.
//!
//! Only textual types are compressed, and never a range's 206. The media routes (video and
//! picture bytes, the placeholder SVGs, with their ranges and validators) are outside the
//! layer altogether (lib.rs): tower-http answers 406 when a request's `Accept-Encoding` rules
//! out every encoding it has, which a range request must never get.

use axum::http::Extensions;
use axum::http::{header, HeaderMap, StatusCode, Version};
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// Answers smaller than this go as they are: the encoding would save less than it costs.
pub const MIN_BYTES: u64 = 1024;

/// Quality 4 for both gzip and brotli: close to their best ratio on JSON at a small share of
/// the CPU (brotli's own default, 11, costs tens of milliseconds on a page of cards).
const LEVEL: i32 = 4;

/// Whether an answer with these headers is one to compress.
pub fn compressible(status: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    if status == StatusCode::PARTIAL_CONTENT || headers.contains_key(header::CONTENT_RANGE) {
        return false;
    }
    let Some(content_type) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "application/json"
            | "application/graphql-response+json"
            | "application/problem+json"
            | "text/html"
            | "text/plain"
            | "text/css"
            | "text/javascript"
            | "application/javascript"
            | "image/svg+xml"
            | "application/xml"
            | "text/xml"
    )
}

/// The layer: gzip and brotli, for compressible answers of at least [`MIN_BYTES`].
pub fn layer() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .no_deflate()
        .no_zstd()
        .quality(CompressionLevel::Precise(LEVEL))
        .compress_when(SizeAbove::new(MIN_BYTES).and(compressible))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with(content_type: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
        h
    }

    fn ok(h: &HeaderMap) -> bool {
        compressible(StatusCode::OK, Version::HTTP_11, h, &Extensions::new())
    }

    #[test]
    fn text_answers_are_compressed_and_media_and_ranges_are_not() {
        for t in ["application/json", "application/graphql-response+json", "text/html; charset=utf-8", "image/svg+xml"]
        {
            assert!(ok(&with(t)), "{t}");
        }
        for t in ["video/mp4", "image/jpeg", "application/octet-stream", "text/event-stream", "multipart/mixed"] {
            assert!(!ok(&with(t)), "{t}");
        }
        assert!(!ok(&HeaderMap::new()), "no type, no guess");
        let h = with("application/json");
        assert!(!compressible(StatusCode::PARTIAL_CONTENT, Version::HTTP_11, &h, &Extensions::new()));
        let mut ranged = with("image/svg+xml");
        ranged.insert(header::CONTENT_RANGE, HeaderValue::from_static("bytes 0-99/1000"));
        assert!(!ok(&ranged));
    }
}
