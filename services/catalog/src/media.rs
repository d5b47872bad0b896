//! Generated placeholder images: every picture, poster and trailer still of the demo catalog
//! is an SVG drawn from its name (colours from a hash, the title as text), served by
//! `/media/placeholder/{kind}/{key}.svg`. No external address, nothing explicit.
//!
//! Trailers are short generated MP4 clips, the same kind as the unlocks service's demo videos
//! (`demo_media::clip`: colour bars, no encoder), served open to everyone at
//! `/media/trailers/{slug}.mp4` with byte ranges for the player. The full videos stay behind
//! the unlocks service's signed `/media/videos/` path; nothing here reaches them.

use std::sync::OnceLock;

use axum::{
    body::Bytes,
    extract::{Path, Query},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use serde::Deserialize;

use crate::api::{HighDpi, Image};

pub const MEDIA_PREFIX: &str = "/media/placeholder";
const MAX_SIDE: u32 = 4_000;

/// An image of `kind` named `key`, `width`×`height`, captioned `title`.
pub fn image(kind: &str, key: &str, width: u32, height: u32, title: &str) -> Image {
    let url = |w: u32, h: u32| format!("{MEDIA_PREFIX}/{kind}/{key}.svg?w={w}&h={h}&t={}", encode(title));
    Image {
        src: url(width, height),
        placeholder: url((width / 20).max(1), (height / 20).max(1)),
        width,
        height,
        file_extensions: vec!["svg".into()],
        highdpi: HighDpi { double: url(width * 2, height * 2), triple: url(width * 3, height * 3) },
        name: None,
    }
}

/// The prefix of the trailers' clips, apart from the full videos' `/media/videos/`.
pub const TRAILER_PREFIX: &str = "/media/trailers";
/// A trailer's frame size (the 360p demo quality): about 0.7 MB for its six seconds.
const TRAILER_SIZE: (u32, u32) = (640, 360);
/// Bump when the generated clip changes.
const TRAILER_ETAG: &str = "\"trailer-1\"";

/// A video's trailer address.
pub fn trailer(slug: &str) -> String {
    format!("{TRAILER_PREFIX}/{slug}.mp4")
}

/// A reel's clip address (an animated placeholder).
pub fn clip(kind: &str, key: &str, title: &str) -> String {
    format!("{MEDIA_PREFIX}/{kind}/{key}.svg?w=1280&h=720&t={}&clip=1", encode(title))
}

fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn escape_xml(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '&' => "&amp;".into(),
            '"' => "&quot;".into(),
            '\'' => "&#39;".into(),
            c => c.to_string(),
        })
        .collect()
}

/// FNV-1a: a stable hash for colours (the same key always draws the same picture).
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// The SVG document of a placeholder.
pub fn svg(key: &str, width: u32, height: u32, title: &str, clip: bool) -> String {
    let h = hash(key);
    let hue1 = h % 360;
    let hue2 = (hue1 + 40 + (h >> 16) % 80) % 360;
    let font = (width.min(height) / 10).clamp(6, 200);
    let title = escape_xml(title);
    let motion =
        if clip { r#"<animate attributeName="x1" values="0;1;0" dur="6s" repeatCount="indefinite"/>"# } else { "" };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">{motion}<stop offset="0" stop-color="hsl({hue1},45%,38%)"/><stop offset="1" stop-color="hsl({hue2},55%,62%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><text x="50%" y="50%" fill="#fff" font-family="Georgia,serif" font-size="{font}" text-anchor="middle" dominant-baseline="middle">{title}</text></svg>"##
    )
}

#[derive(Debug, Deserialize)]
pub struct PlaceholderQuery {
    pub w: Option<u32>,
    pub h: Option<u32>,
    pub t: Option<String>,
    pub clip: Option<u8>,
}

/// GET /media/placeholder/{kind}/{file}: `file` is `<key>.svg`.
pub async fn placeholder(Path((kind, file)): Path<(String, String)>, Query(q): Query<PlaceholderQuery>) -> Response {
    let Some(key) = file.strip_suffix(".svg") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if !crate::domain::is_valid_slug(&kind) || key.is_empty() || key.len() > 300 {
        return StatusCode::NOT_FOUND.into_response();
    }
    let width = q.w.unwrap_or(640).clamp(1, MAX_SIDE);
    let height = q.h.unwrap_or(360).clamp(1, MAX_SIDE);
    let title = q.t.unwrap_or_default().chars().take(120).collect::<String>();
    let body = svg(&format!("{kind}/{key}"), width, height, &title, q.clip == Some(1));
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=31536000, immutable")], body)
        .into_response()
}

fn trailer_bytes() -> &'static Bytes {
    static CLIP: OnceLock<Bytes> = OnceLock::new();
    CLIP.get_or_init(|| Bytes::from(demo_media::clip(TRAILER_SIZE.0, TRAILER_SIZE.1)))
}

/// What a `Range` header asks of a file.
#[derive(Debug, PartialEq, Eq)]
pub enum ByteRange {
    /// No header, or one this does not serve (several ranges, another unit): the whole file.
    Whole,
    /// Bytes `first..=last`.
    Part(u64, u64),
    Unsatisfiable,
}

/// The range a `Range` header asks of `len` bytes.
pub fn byte_range(range: Option<&str>, len: u64) -> ByteRange {
    let Some(spec) = range.and_then(|r| r.trim().strip_prefix("bytes=")) else { return ByteRange::Whole };
    if spec.contains(',') {
        return ByteRange::Whole;
    }
    let Some((start, end)) = spec.split_once('-') else { return ByteRange::Whole };
    let (start, end) = (start.trim(), end.trim());
    let parsed = match (start.is_empty(), end.is_empty()) {
        (true, true) => return ByteRange::Whole,
        // The last `end` bytes.
        (true, false) => end.parse::<u64>().ok().map(|n| (len.saturating_sub(n), len.saturating_sub(1), n > 0)),
        (false, _) => {
            let first = start.parse::<u64>().ok();
            let last = if end.is_empty() { Some(len.saturating_sub(1)) } else { end.parse::<u64>().ok() };
            first.zip(last).map(|(first, last)| (first, last.min(len.saturating_sub(1)), first <= last))
        }
    };
    match parsed {
        None => ByteRange::Whole,
        Some((first, last, ordered)) if ordered && first < len && len > 0 => ByteRange::Part(first, last),
        Some(_) => ByteRange::Unsatisfiable,
    }
}

/// GET /media/trailers/{slug}.mp4: a trailer, whole or the range the player asks for.
pub async fn trailer_clip(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some(slug) = file.strip_suffix(".mp4") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if !crate::domain::is_valid_slug(slug) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let clip = trailer_bytes();
    let len = clip.len() as u64;
    let common = [
        (header::CONTENT_TYPE, HeaderValue::from_static("video/mp4")),
        (header::ACCEPT_RANGES, HeaderValue::from_static("bytes")),
        (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400")),
        (header::ETAG, HeaderValue::from_static(TRAILER_ETAG)),
    ];
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v.as_bytes() == TRAILER_ETAG.as_bytes()) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let range = headers.get(header::RANGE).and_then(|v| v.to_str().ok());
    match byte_range(range, len) {
        ByteRange::Whole => (common, clip.clone()).into_response(),
        ByteRange::Part(first, last) => {
            let content_range = format!("bytes {first}-{last}/{len}");
            let part = clip.slice(first as usize..=last as usize);
            let mut response = (StatusCode::PARTIAL_CONTENT, common, part).into_response();
            if let Ok(value) = HeaderValue::from_str(&content_range) {
                response.headers_mut().insert(header::CONTENT_RANGE, value);
            }
            response
        }
        ByteRange::Unsatisfiable => {
            let mut response = (StatusCode::RANGE_NOT_SATISFIABLE, common).into_response();
            if let Ok(value) = HeaderValue::from_str(&format!("bytes */{len}")) {
                response.headers_mut().insert(header::CONTENT_RANGE, value);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_one_satisfiable_span_of_the_file() {
        use ByteRange::*;
        assert_eq!(byte_range(None, 100), Whole);
        assert_eq!(byte_range(Some("bytes=0-"), 100), Part(0, 99));
        assert_eq!(byte_range(Some("bytes=0-1"), 100), Part(0, 1));
        assert_eq!(byte_range(Some("bytes=90-200"), 100), Part(90, 99));
        assert_eq!(byte_range(Some("bytes=-10"), 100), Part(90, 99));
        assert_eq!(byte_range(Some("bytes=100-"), 100), Unsatisfiable);
        assert_eq!(byte_range(Some("bytes=5-4"), 100), Unsatisfiable);
        assert_eq!(byte_range(Some("bytes=-0"), 100), Unsatisfiable);
        assert_eq!(byte_range(Some("bytes=0-1,5-6"), 100), Whole, "several ranges: the whole file");
        assert_eq!(byte_range(Some("items=0-1"), 100), Whole);
        assert_eq!(byte_range(Some("bytes=x-1"), 100), Whole);
    }

    #[test]
    fn a_trailer_is_an_mp4_clip_under_its_own_path() {
        assert_eq!(trailer("golden-hour"), "/media/trailers/golden-hour.mp4");
        let clip = trailer_bytes();
        assert_eq!(&clip[4..8], b"ftyp", "an MP4 file");
        assert!(clip.len() > 10_000);
    }

    #[test]
    fn a_placeholder_is_deterministic_and_escapes_its_title() {
        let a = svg("video/golden-hour", 640, 360, "Golden <Hour>", false);
        assert_eq!(a, svg("video/golden-hour", 640, 360, "Golden <Hour>", false));
        assert!(a.contains("Golden &lt;Hour&gt;"));
        assert_ne!(a, svg("video/city-lights", 640, 360, "Golden <Hour>", false));
    }

    #[test]
    fn high_dpi_images_are_two_and_three_times_the_size() {
        let i = image("picture", "golden-hour-01", 100, 50, "Golden Hour");
        assert!(i.highdpi.double.contains("w=200&h=100"));
        assert!(i.highdpi.triple.contains("w=300&h=150"));
        assert!(i.src.starts_with("/media/placeholder/picture/golden-hour-01.svg"));
        assert!(i.src.contains("t=Golden+Hour"));
    }
}
