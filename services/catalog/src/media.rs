//! Generated placeholder images: every picture, poster and trailer still of the demo catalog
//! is an SVG drawn from its name (colours from a hash, the title as text), served by
//! `/media/placeholder/{kind}/{key}.svg`. No external address, nothing explicit.

use axum::{
    extract::{Path, Query},
    http::{header, StatusCode},
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

/// A trailer clip's address (an animated placeholder).
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

#[cfg(test)]
mod tests {
    use super::*;

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
