//! Hosting the built SPA: its page with the routing session inlined, and its hashed assets.

use std::path::{Path, PathBuf};

use axum::{
    http::{header, HeaderValue, Response, StatusCode},
    response::IntoResponse,
};
use serde::Serialize;
use tower_http::{
    services::{fs::ServeFileSystemResponseBody, ServeDir, ServeFile},
    set_header::SetResponseHeader,
};

use tenants::Tenant;

/// The id of the script element the SPA reads its session from (frontend `session/bootstrap.ts`).
pub const BOOTSTRAP_ELEMENT_ID: &str = "paysite-bootstrap";

/// Hashed file names never change content: cache them for a year.
pub const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
/// Revalidate every time.
pub const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
/// The page names the current assets and carries the user's session: revalidate every time,
/// and no shared cache may keep it.
pub const PAGE_CACHE: HeaderValue = HeaderValue::from_static("private, no-cache");

/// The routing session the SPA starts from (frontend `BootstrapPayload`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bootstrap<'a> {
    pub tenant: &'a Tenant,
    pub user: UserView,
    pub is_members_area: bool,
    /// The visitor's region from the edge's geo lookup (`US-TX`), for the health warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The page sends its errors to the gateway; false, it writes them to the console.
    pub error_reporting: bool,
}

/// The header the edge in front of the gateway (ingress, CDN) writes with the visitor's
/// ISO 3166-2 region; the edge overwrites whatever a client sent (docs/decisions/).
pub const REGION_HEADER: &str = "x-paysite-region";

/// The region of a request: `US-TX`-shaped values of [`REGION_HEADER`] only.
pub fn region_of(headers: &axum::http::HeaderMap) -> Option<String> {
    let value = headers.get(REGION_HEADER)?.to_str().ok()?.trim().to_ascii_uppercase();
    let (country, subdivision) = value.split_once('-')?;
    let shaped = country.len() == 2
        && country.chars().all(|c| c.is_ascii_uppercase())
        && (1..=3).contains(&subdivision.len())
        && subdivision.chars().all(|c| c.is_ascii_alphanumeric());
    shaped.then_some(value)
}

/// The user's routing view (product.md, "Screens and routes").
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub is_authenticated: bool,
    /// CASL-compatible rules, computed by the server.
    pub abilities: Vec<serde_json::Value>,
    pub profile: Option<serde_json::Value>,
    pub welcome: serde_json::Map<String, serde_json::Value>,
}

impl UserView {
    pub fn anonymous() -> Self {
        UserView { is_authenticated: false, abilities: Vec::new(), profile: None, welcome: Default::default() }
    }
}

/// The built SPA in a dist directory.
#[derive(Clone, Debug)]
pub struct Spa {
    dist: PathBuf,
}

/// Served when the dist directory has no index.html, so a gateway without a front-end build still answers.
const UNBUILT_PAGE: &str =
    "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"UTF-8\" /><title>paysite</title></head>\n\
<body><p>The front end is not built: run <code>npm run build</code> in frontend/.</p></body>\n</html>\n";

impl Spa {
    pub fn new(dist: impl Into<PathBuf>) -> Self {
        Spa { dist: dist.into() }
    }

    pub fn dist(&self) -> &Path {
        &self.dist
    }

    /// index.html with the page's head (crate::head) and the session inlined, answered with `status`.
    ///
    /// The file is read per request: it is small, the OS caches it, and a rebuilt front end
    /// shows without a restart.
    pub async fn page(&self, head: &str, bootstrap: &Bootstrap<'_>, status: StatusCode) -> axum::response::Response {
        let path = self.dist.join("index.html");
        let index = match tokio::fs::read_to_string(&path).await {
            Ok(index) => index,
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "spa index unreadable");
                UNBUILT_PAGE.to_owned()
            }
        };
        let html = inline_bootstrap(&index, head, bootstrap);
        let policy = HeaderValue::from_str(&crate::security_headers::page_policy(&index))
            .unwrap_or(HeaderValue::from_static(crate::security_headers::CONTENT_SECURITY_POLICY));
        (
            status,
            [
                (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
                (header::CACHE_CONTROL, PAGE_CACHE),
                (header::VARY, HeaderValue::from_static("Cookie")),
                (header::CONTENT_SECURITY_POLICY, policy),
            ],
            html,
        )
            .into_response()
    }

    /// The hashed assets under `<dist>/assets`, cached for a year once found.
    pub fn assets(&self) -> Assets {
        let cache_control: CacheControlFor = asset_cache_control;
        let files = ServeDir::new(self.dist.join("assets")).precompressed_br().precompressed_gzip();
        SetResponseHeader::overriding(files, header::CACHE_CONTROL, cache_control)
    }

    /// `<dist>/favicon.ico` (from frontend/public), for browsers and crawlers that ask for it by
    /// name; pages link their own icon. Not hashed, so cached for a day, not a year.
    pub fn favicon(&self) -> Favicon {
        let cache_control: CacheControlFor = favicon_cache_control;
        SetResponseHeader::overriding(
            ServeFile::new(self.dist.join("favicon.ico")),
            header::CACHE_CONTROL,
            cache_control,
        )
    }
}

type CacheControlFor = fn(&Response<ServeFileSystemResponseBody>) -> Option<HeaderValue>;

/// The service answering /favicon.ico.
pub type Favicon = SetResponseHeader<ServeFile, CacheControlFor>;

/// A day for the icon; a missing one is not cached.
fn favicon_cache_control(response: &Response<ServeFileSystemResponseBody>) -> Option<HeaderValue> {
    let found = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    Some(if found { HeaderValue::from_static("public, max-age=86400") } else { NO_CACHE })
}

/// The service answering under /assets.
pub type Assets = SetResponseHeader<ServeDir, CacheControlFor>;

/// A found asset is immutable; a missing one must not be cached as missing for a year.
fn asset_cache_control(response: &Response<ServeFileSystemResponseBody>) -> Option<HeaderValue> {
    let found = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    Some(if found { IMMUTABLE } else { NO_CACHE })
}

/// The page with its head's elements (crate::head, which carry the adult label's
/// `<meta name="RATING">`) in place of index.html's own `<title>`, and `<script
/// id="paysite-bootstrap" type="application/json">` before `</head>`.
pub fn inline_bootstrap(index: &str, head: &str, bootstrap: &Bootstrap<'_>) -> String {
    let lower = index.to_ascii_lowercase();
    // index.html's placeholder title goes: a page has one title, its own.
    let title = lower.find("<title").and_then(|start| {
        let end = start + lower[start..].find("</title>")? + "</title>".len();
        Some((start, end))
    });
    let index: std::borrow::Cow<'_, str> = match title {
        Some((start, end)) => format!("{}{}", &index[..start], &index[end..]).into(),
        None => index.into(),
    };
    let script = format!(
        "{head}<script id=\"{BOOTSTRAP_ELEMENT_ID}\" type=\"application/json\">{}</script>",
        script_json(bootstrap)
    );
    let at = index.to_ascii_lowercase().find("</head>").unwrap_or(0);
    let mut html = String::with_capacity(index.len() + script.len());
    html.push_str(&index[..at]);
    html.push_str(&script);
    html.push_str(&index[at..]);
    html
}

/// JSON that cannot end its script element early: every '<' is written `\u003c`, which covers
/// `</script>` and `<!--`, and JSON.parse reads back the same string.
pub fn script_json(value: &impl Serialize) -> String {
    let json = serde_json::to_string(value).expect("the bootstrap serializes");
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod region_tests {
    use super::*;

    #[test]
    fn the_region_header_is_read_only_in_its_iso_shape() {
        let mut h = axum::http::HeaderMap::new();
        assert_eq!(region_of(&h), None);
        h.insert(REGION_HEADER, "us-tx".parse().unwrap());
        assert_eq!(region_of(&h).as_deref(), Some("US-TX"));
        for bad in ["TX", "USA-TX", "US-", "US-<s>", "U1-TX", "US-ABCD"] {
            h.insert(REGION_HEADER, bad.parse().unwrap());
            assert_eq!(region_of(&h), None, "{bad}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tenant() -> Tenant {
        let tenants = tenants::global().clone();
        tenants.get("vixen").unwrap().clone()
    }

    fn script_text(html: &str) -> &str {
        let start = html.find("type=\"application/json\">").unwrap() + "type=\"application/json\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        &html[start..end]
    }

    #[test]
    fn the_session_goes_in_before_the_end_of_head() {
        let tenant = tenant();
        let bootstrap = Bootstrap {
            tenant: &tenant,
            user: UserView::anonymous(),
            is_members_area: false,
            region: None,
            error_reporting: true,
        };
        let head = "<title>Home – VIXEN</title>";
        let html = inline_bootstrap("<html><head><TITLE>x</TITLE></HEAD><body></body></html>", head, &bootstrap);
        assert!(html.starts_with(&format!("<html><head>{head}<script id=\"paysite-bootstrap\"")), "{html}");
        assert_eq!(html.to_ascii_lowercase().matches("<title>").count(), 1, "index.html's own title went: {html}");
        assert!(html.ends_with("</script></HEAD><body></body></html>"), "{html}");
        let session: serde_json::Value = serde_json::from_str(script_text(&html)).unwrap();
        assert_eq!(session["tenant"]["tenant"], "vixen");
        assert_eq!(
            session["user"],
            serde_json::json!({"isAuthenticated": false, "abilities": [], "profile": null, "welcome": {}})
        );
        assert_eq!(session["isMembersArea"], false);
    }

    #[test]
    fn a_value_holding_a_closing_script_tag_cannot_end_the_script() {
        let mut tenant = tenant();
        tenant.theme.wordmark = "</script><script>alert(1)</script><!--".to_owned();
        let bootstrap = Bootstrap {
            tenant: &tenant,
            user: UserView::anonymous(),
            is_members_area: true,
            region: None,
            error_reporting: true,
        };
        let html = inline_bootstrap("<head></head>", "", &bootstrap);
        assert_eq!(html.matches("</script>").count(), 1, "{html}");
        assert!(!script_text(&html).contains('<'));
        let session: serde_json::Value = serde_json::from_str(script_text(&html)).unwrap();
        assert_eq!(session["tenant"]["theme"]["wordmark"], "</script><script>alert(1)</script><!--");
    }

    #[test]
    fn a_page_without_head_gets_the_session_first() {
        let tenant = tenant();
        let bootstrap = Bootstrap {
            tenant: &tenant,
            user: UserView::anonymous(),
            is_members_area: false,
            region: None,
            error_reporting: true,
        };
        let label = crate::rating::meta_tag();
        assert!(inline_bootstrap("<p>hi</p>", &label, &bootstrap)
            .starts_with(&format!("{label}<script id=\"paysite-bootstrap\"")));
    }
}
