//! The adult label: RTA ("Restricted To Adults"), which parental filters and the filtering
//! built into browsers and operating systems look for to block a site. Every page of every
//! brand carries it in its head, and every answer of the edge in its `Rating` header, so a
//! filter that reads either, on any URL (a page, an asset, a media file, the API), finds it.

use axum::http::{HeaderName, HeaderValue};

/// The label, as the RTA publishes it.
pub const RTA_LABEL: &str = "RTA-5042-1996-1400-1577-RTA";

/// The header carrying [`RTA_LABEL`] on every answer.
pub const RATING_HEADER: HeaderName = HeaderName::from_static("rating");

pub const RATING_VALUE: HeaderValue = HeaderValue::from_static(RTA_LABEL);

/// The page's `<meta name="RATING">` element.
pub fn meta_tag() -> String {
    format!("<meta name=\"RATING\" content=\"{RTA_LABEL}\" />")
}
