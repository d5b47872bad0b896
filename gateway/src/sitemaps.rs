//! robots.txt and the sitemaps of each brand, for crawlers.
//!
//! - `/robots.txt`: the tour pages are open; what needs a session (account, favourites,
//!   offers), the signup steps, the sign-in (`/oidc/`) and the APIs are not; it names the
//!   brand's sitemap index. A members host, which is all sessions, shuts crawlers out.
//! - `/sitemap.xml`: the index of the brand's files, `/sitemaps/{kind}-{n}.xml`: its videos (with
//!   Google's video extension), performers, categories, channels and showcases, each kind only
//!   where the route table lets a signed-out visitor reach its pages and their head lets them be
//!   indexed, at most [`SITEMAP_FILE_URLS`] URLs a file (the sitemaps.org limit).
//!
//! What they list comes from the catalog's read models (`/internal/sitemap`), with the
//! generation it was read under, which moves on every change to what a sitemap lists and only
//! then (catalog migration `0009_sitemap_generation.sql`). A brand's files are built once per
//! generation, on their first request, and kept gzip-compressed; the generation is asked again
//! once it is [`CHECK_EVERY`] old, so a new video is listed within that. Answers carry an `ETag`
//! (of the file's bytes, so every replica agrees) and `Last-Modified` (the newest entry's
//! publication), and a conditional request that matches gets 304.

use std::{
    collections::HashMap,
    fmt::Write as _,
    io::{Read as _, Write as _},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    Extension,
};
use catalog_contract::api::{
    SitemapEntry, SitemapKind, SitemapManifest, SitemapPage, SitemapSection, SITEMAP_FILE_URLS, SITEMAP_PAGE_ENTRIES,
};
use chrono::{DateTime, SecondsFormat, Utc};
use runtime::client::{CallContext, UpstreamError};
use sha2::{Digest, Sha256};

use crate::{
    head::{self, absolute, origin},
    hosts::Site,
    routes::{self, Edge},
    GatewayState,
};

/// How old a brand's generation may get before it is asked again: the longest a change to the
/// catalog waits to reach the sitemaps.
pub const CHECK_EVERY: Duration = Duration::from_secs(30);

/// The page of one entry of a kind: its row of the route table with the slug put in; a
/// category's is the video listing filtered by it (`/videos?categories={slug}`, the listing's
/// own filter, whose canonical URL keeps the category), as `/categories/{slug}` only moves on to
/// the search, which is not for indexes.
fn page_of(kind: SitemapKind, slug: &str) -> String {
    let row = match kind {
        SitemapKind::Videos => "/videos/:slug",
        SitemapKind::Performers => "/performers/:slug",
        SitemapKind::Categories => {
            let query = form_urlencoded::Serializer::new(String::new()).append_pair("categories", slug).finish();
            return format!("/videos?{query}");
        }
        SitemapKind::Channels => "/channels/:slug",
        SitemapKind::Showcases => "/showcase/:slug",
    };
    routes::fill_path(row, &[("slug", slug.to_owned())])
}

// ---------------------------------------------------------------------------------------
// robots.txt
// ---------------------------------------------------------------------------------------

/// What crawlers are kept out of on a brand host: the pages that need a session, the signup
/// and sign-in steps, the APIs and the members' media. Paths are prefixes; `*` matches any run
/// of characters (as Google, Bing and Yandex read it).
pub const DISALLOWED: &[&str] = &[
    "/account",
    "/favorites",
    "/offers",
    "/free-trial-videos",
    "/cams",
    "/joinnow",
    "/_signup",
    "/_upgrade",
    "/_upsell_",
    "/oneclick/",
    "/oidc/",
    "/api/",
    "/graphql",
    "/logout",
    "/refresh",
    "/xsite/",
    "/parent-redirect",
    "/channels/all-videos",
    "/channels/*/trailers/",
    "/pictureset/",
    "/videos/*/comment/",
    "/media/videos/",
];

/// robots.txt of `tenant` (a members host: nothing).
pub fn robots_txt(tenant: &tenants::Tenant, is_members_area: bool) -> String {
    let mut out = String::from("User-agent: *\n");
    if is_members_area {
        out.push_str("Disallow: /\n");
        return out;
    }
    out.push_str("Allow: /\n");
    for path in DISALLOWED {
        let _ = writeln!(out, "Disallow: {path}");
    }
    let _ = write!(out, "\nSitemap: {}/sitemap.xml\n", origin(tenant));
    out
}

/// Whether robots.txt keeps crawlers off `path` (a robots.txt reader's prefix match with `*`).
pub fn disallowed(path: &str) -> bool {
    DISALLOWED.iter().any(|rule| robots_match(rule, path))
}

fn robots_match(rule: &str, path: &str) -> bool {
    let mut parts = rule.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = path.strip_prefix(first) else {
        return false;
    };
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

// ---------------------------------------------------------------------------------------
// Which pages a brand's sitemaps list
// ---------------------------------------------------------------------------------------

/// Where a signed-out crawler asking for `path` on `site` lands, following the route table's
/// moves and redirects: the page's path and query, when it is a page the head lets be indexed.
pub fn landing(site: &Site, brands: &[String], visitor: &routes::Visitor, path: &str) -> Option<String> {
    let mut at = path.to_owned();
    for _ in 0..4 {
        let (p, query) = match at.split_once('?') {
            Some((p, q)) => (p.to_owned(), Some(q.to_owned())),
            None => (at.clone(), None),
        };
        let request = routes::Request {
            path: &p,
            query: query.as_deref(),
            tenant: &site.tenant,
            is_members_area: site.is_members_area,
            visitor,
            brands,
        };
        let row = routes::page_row(&p);
        match routes::resolve_at(&request, &row) {
            Edge::Page | Edge::PageIfFound(_) => {
                let indexable = !site.is_members_area
                    && !row.needs_session
                    && row.path != "*"
                    && head::page_copy(row.path).is_some_and(|c| c.index);
                return indexable.then_some(at);
            }
            Edge::MovedPermanently(to) | Edge::Found(to) => at = to,
            Edge::NotFound => return None,
        }
    }
    None
}

/// The kinds whose pages a signed-out visitor of `site` can reach and crawlers may index.
pub fn kinds(site: &Site, brands: &[String]) -> Vec<SitemapKind> {
    let visitor = visitor(site);
    SitemapKind::ALL
        .into_iter()
        .filter(|kind| landing(site, brands, &visitor, &page_of(*kind, "a-slug")).is_some())
        .collect()
}

fn visitor(site: &Site) -> routes::Visitor {
    routes::Visitor { rules: crate::viewer::rules(site, None), ..Default::default() }
}

/// One file of a brand's sitemaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SitemapFile {
    pub kind: SitemapKind,
    /// From 1.
    pub number: u64,
    pub last_modified: Option<DateTime<Utc>>,
}

impl SitemapFile {
    pub fn name(&self) -> String {
        format!("{}-{}.xml", self.kind.as_str(), self.number)
    }

    /// The first entry it holds.
    pub fn offset(&self) -> u64 {
        (self.number - 1) * SITEMAP_FILE_URLS as u64
    }
}

/// The files of the manifest's sections of `kinds`: as many per kind as its entries need at
/// [`SITEMAP_FILE_URLS`] a file, none for a kind with none.
pub fn files(sections: &[SitemapSection], kinds: &[SitemapKind]) -> Vec<SitemapFile> {
    let per_file = SITEMAP_FILE_URLS as u64;
    kinds
        .iter()
        .filter_map(|kind| sections.iter().find(|s| s.kind == *kind))
        .flat_map(|s| {
            (1..=s.count.div_ceil(per_file)).map(|number| SitemapFile {
                kind: s.kind,
                number,
                last_modified: s.last_modified,
            })
        })
        .collect()
}

/// `videos-2.xml` as (kind, number).
pub fn parse_name(name: &str) -> Option<(SitemapKind, u64)> {
    let (kind, number) = name.strip_suffix(".xml")?.rsplit_once('-')?;
    let number: u64 = number.parse().ok().filter(|n| *n >= 1 && !number.starts_with('0'))?;
    Some((SitemapKind::parse(kind)?, number))
}

// ---------------------------------------------------------------------------------------
// The XML
// ---------------------------------------------------------------------------------------

const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";
/// Google's video extension: a title of at most 100 characters, a description of at most 2048.
pub const VIDEO_TITLE_MAX: usize = 100;
pub const VIDEO_DESCRIPTION_MAX: usize = 2048;
/// Google's video extension: a duration of 1 to 28800 seconds.
pub const VIDEO_DURATION_MAX: u32 = 28_800;

/// Text made safe in an XML element: escaped, with the characters XML 1.0 forbids dropped.
pub fn xml_text(text: &str) -> String {
    let allowed: String = text
        .chars()
        .filter(|c| matches!(c, '\t' | '\n' | '\r') || (*c >= ' ' && *c != '\u{FFFE}' && *c != '\u{FFFF}'))
        .collect();
    head::escape(&allowed)
}

fn w3c(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn at_most(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// The sitemap index of `files`, on `origin`.
pub fn index_xml(origin: &str, files: &[SitemapFile]) -> String {
    let mut out = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"{SITEMAP_NS}\">\n");
    for file in files {
        let _ =
            write!(out, "  <sitemap>\n    <loc>{}</loc>\n", xml_text(&format!("{origin}/sitemaps/{}", file.name())));
        if let Some(at) = file.last_modified {
            let _ = writeln!(out, "    <lastmod>{}</lastmod>", w3c(at));
        }
        out.push_str("  </sitemap>\n");
    }
    out.push_str("</sitemapindex>\n");
    out
}

/// One URL of a file: the page's location (absolute), and the entry it is for.
pub struct Located<'a> {
    pub loc: String,
    pub entry: &'a SitemapEntry,
}

/// A `urlset` of `urls`; videos carry Google's video extension (`absolute` makes the catalog's
/// addresses absolute on the brand's origin).
pub fn urlset_xml(urls: &[Located<'_>], absolute: impl Fn(&str) -> String) -> String {
    let video = urls.iter().any(|u| u.entry.video.is_some());
    let mut out = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{SITEMAP_NS}\"");
    if video {
        let _ = write!(out, " xmlns:video=\"{VIDEO_NS}\"");
    }
    out.push_str(">\n");
    for url in urls {
        let _ = write!(
            out,
            "  <url>\n    <loc>{}</loc>\n    <lastmod>{}</lastmod>\n",
            xml_text(&url.loc),
            w3c(url.entry.last_modified)
        );
        if let Some(v) = &url.entry.video {
            let title = at_most(v.title.trim(), VIDEO_TITLE_MAX);
            let description = at_most(v.description.trim(), VIDEO_DESCRIPTION_MAX);
            let _ = write!(
                out,
                "    <video:video>\n      <video:thumbnail_loc>{}</video:thumbnail_loc>\n      \
                 <video:title>{}</video:title>\n      <video:description>{}</video:description>\n      \
                 <video:content_loc>{}</video:content_loc>\n      <video:duration>{}</video:duration>\n      \
                 <video:publication_date>{}</video:publication_date>\n      \
                 <video:family_friendly>no</video:family_friendly>\n      \
                 <video:requires_subscription>yes</video:requires_subscription>\n    </video:video>\n",
                xml_text(&absolute(&v.thumbnail)),
                xml_text(if title.is_empty() { &url.loc } else { &title }),
                xml_text(if description.is_empty() { &title } else { &description }),
                xml_text(&absolute(&v.trailer)),
                v.duration.clamp(1, VIDEO_DURATION_MAX),
                w3c(v.release_date),
            );
        }
        out.push_str("  </url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

// ---------------------------------------------------------------------------------------
// Built files, kept per brand and generation
// ---------------------------------------------------------------------------------------

/// A built file: its XML gzip-compressed, and its validators.
#[derive(Debug)]
pub struct Document {
    pub gzip: Bytes,
    /// A validator of the XML's bytes, the same on every replica; weak, as the one XML goes
    /// gzip-compressed or not.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
}

impl Document {
    fn of(xml: &str, last_modified: DateTime<Utc>) -> Document {
        let digest = Sha256::digest(xml.as_bytes());
        let etag = format!(
            "W/\"{}\"",
            digest.iter().take(16).fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::with_capacity(xml.len() / 8), flate2::Compression::new(6));
        gz.write_all(xml.as_bytes()).expect("writing to memory");
        Document { gzip: Bytes::from(gz.finish().expect("writing to memory")), etag, last_modified }
    }

    fn xml(&self) -> Bytes {
        let mut xml = Vec::new();
        flate2::read::GzDecoder::new(&self.gzip[..]).read_to_end(&mut xml).expect("our own gzip");
        Bytes::from(xml)
    }
}

/// A brand's sitemaps as last built: the manifest and generation they hold for, and the files
/// built under it so far.
#[derive(Default)]
struct Built {
    manifest: Option<SitemapManifest>,
    checked: Option<Instant>,
    documents: HashMap<String, Arc<Document>>,
}

/// Every brand's sitemaps (one build at a time per brand: concurrent requests wait for it).
#[derive(Default)]
pub struct Sitemaps {
    brands: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Built>>>>,
}

/// Why a file could not be answered.
#[derive(Debug)]
pub enum Unanswered {
    /// No such file for this brand.
    NotFound,
    /// The catalog could not say, and nothing was built before.
    Unavailable(UpstreamError),
}

impl Sitemaps {
    fn brand(&self, tenant: &str) -> Arc<tokio::sync::Mutex<Built>> {
        self.brands.lock().expect("sitemaps").entry(tenant.to_owned()).or_default().clone()
    }

    /// The file `name` (`index` for the sitemap index) of `site`'s sitemaps.
    pub async fn document(&self, state: &GatewayState, site: &Site, name: &str) -> Result<Arc<Document>, Unanswered> {
        let brand = self.brand(&site.tenant.tenant);
        let mut built = brand.lock().await;
        let caller = CallContext::anonymous(&site.tenant.tenant);
        let catalog = &state.upstreams.catalog;
        if built.checked.is_none_or(|at| at.elapsed() >= CHECK_EVERY) {
            match catalog.sitemap(&caller).await {
                Ok(manifest) => {
                    if built.manifest.as_ref().map(|m| m.generation) != Some(manifest.generation) {
                        built.documents.clear();
                    }
                    built.manifest = Some(manifest);
                    built.checked = Some(Instant::now());
                }
                Err(error) if built.manifest.is_some() => {
                    tracing::warn!(%error, tenant = %site.tenant.tenant, "sitemap generation unknown, kept what was built");
                }
                Err(error) => return Err(Unanswered::Unavailable(error)),
            }
        }
        if let Some(document) = built.documents.get(name) {
            return Ok(document.clone());
        }
        let manifest = built.manifest.clone().expect("checked above");
        let files = files(&manifest.sections, &kinds(site, state.sites().brands()));
        let newest = |files: &[SitemapFile]| files.iter().filter_map(|f| f.last_modified).max();
        let document = if name == "index" {
            let xml = index_xml(origin(&site.tenant), &files);
            Document::of(&xml, newest(&files).unwrap_or(DateTime::UNIX_EPOCH))
        } else {
            let file = files.into_iter().find(|f| f.name() == name).ok_or(Unanswered::NotFound)?;
            let mut entries = Vec::new();
            let mut moved = false;
            let end = file.offset() + SITEMAP_FILE_URLS as u64;
            let mut offset = file.offset();
            while offset < end {
                let limit = (end - offset).min(SITEMAP_PAGE_ENTRIES as u64);
                let SitemapPage { generation, entries: page } = catalog
                    .sitemap_entries(&caller, file.kind, offset, limit)
                    .await
                    .map_err(Unanswered::Unavailable)?;
                moved |= generation != manifest.generation;
                let full = page.len() as u64 == limit;
                entries.extend(page);
                if !full {
                    break;
                }
                offset += limit;
            }
            if moved {
                // Changed while it was read: what was read is newer than the manifest, so it is
                // served, and the generation is asked again on the next request.
                built.checked = None;
            }
            let visitor = visitor(site);
            let brands = state.sites().brands();
            let urls: Vec<Located<'_>> = entries
                .iter()
                .filter_map(|entry| {
                    let path = landing(site, brands, &visitor, &page_of(file.kind, &entry.slug))?;
                    Some(Located { loc: format!("{}{path}", origin(&site.tenant)), entry })
                })
                .collect();
            let xml = urlset_xml(&urls, |src| absolute(&site.tenant, src));
            let last = entries.iter().map(|e| e.last_modified).max();
            Document::of(&xml, last.or(file.last_modified).unwrap_or(DateTime::UNIX_EPOCH))
        };
        let document = Arc::new(document);
        if built.checked.is_some() {
            built.documents.insert(name.to_owned(), document.clone());
        }
        Ok(document)
    }
}

// ---------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------

/// `GET /robots.txt`.
pub async fn robots(Extension(site): Extension<Arc<Site>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8")),
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")),
        ],
        robots_txt(&site.tenant, site.is_members_area),
    )
        .into_response()
}

/// `GET /sitemap.xml`.
pub async fn index(
    State(state): State<GatewayState>,
    site: Extension<Arc<Site>>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    answer(&state, &site, "index", &method, &headers).await
}

/// `GET /sitemaps/{kind}-{n}.xml`.
pub async fn file(
    State(state): State<GatewayState>,
    site: Extension<Arc<Site>>,
    Path(name): Path<String>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    if parse_name(&name).is_none() {
        return not_found();
    }
    answer(&state, &site, &name, &method, &headers).await
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))]).into_response()
}

async fn answer(state: &GatewayState, site: &Site, name: &str, method: &Method, headers: &HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, HeaderValue::from_static("GET, HEAD"))])
            .into_response();
    }
    if site.is_members_area {
        return not_found();
    }
    let document = match state.sitemaps.document(state, site, name).await {
        Ok(document) => document,
        Err(Unanswered::NotFound) => return not_found(),
        Err(Unanswered::Unavailable(error)) => {
            tracing::warn!(%error, tenant = %site.tenant.tenant, name, "sitemap unavailable");
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [
                    (header::RETRY_AFTER, HeaderValue::from_static("60")),
                    (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
                ],
            )
                .into_response();
        }
    };
    respond(&document, headers)
}

/// HTTP's date format (`Last-Modified`, `If-Modified-Since`).
pub fn http_date(at: DateTime<Utc>) -> String {
    at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn respond(document: &Document, headers: &HeaderMap) -> Response {
    let mut response = if crate::conditional::not_modified(headers, &document.etag, document.last_modified) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let gzip = headers
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|e| e.split(';').next().unwrap_or_default().trim() == "gzip"));
        let body = if gzip { document.gzip.clone() } else { document.xml() };
        let mut response = (StatusCode::OK, body).into_response();
        let h = response.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/xml; charset=utf-8"));
        if gzip {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        response
    };
    let h = response.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, no-cache"));
    if let Ok(etag) = HeaderValue::from_str(&document.etag) {
        h.insert(header::ETAG, etag);
    }
    if let Ok(at) = HeaderValue::from_str(&http_date(document.last_modified)) {
        h.insert(header::LAST_MODIFIED, at);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalog_contract::api::SitemapVideo;
    use proptest::prelude::*;

    fn site(brand: &str, members: bool) -> Site {
        Site {
            host: format!("{brand}.localhost"),
            tenant: tenants::global().get(brand).unwrap().clone(),
            is_members_area: members,
        }
    }

    fn brands() -> Vec<String> {
        tenants::global().keys().map(str::to_owned).collect()
    }

    fn section(kind: SitemapKind, count: u64) -> SitemapSection {
        SitemapSection { kind, count, last_modified: Some(DateTime::UNIX_EPOCH) }
    }

    #[test]
    fn a_catalogue_of_100k_videos_splits_into_two_files_of_50k() {
        let sections = [section(SitemapKind::Videos, 100_000), section(SitemapKind::Performers, 1)];
        let made = files(&sections, &[SitemapKind::Videos, SitemapKind::Performers]);
        let names: Vec<String> = made.iter().map(SitemapFile::name).collect();
        assert_eq!(names, ["videos-1.xml", "videos-2.xml", "performers-1.xml"]);
        assert_eq!(made[1].offset(), 50_000);
        let one_more = files(&[section(SitemapKind::Videos, 100_001)], &[SitemapKind::Videos]);
        assert_eq!(one_more.len(), 3, "the 100,001st URL opens a third file");
        assert!(files(&[section(SitemapKind::Showcases, 0)], &[SitemapKind::Showcases]).is_empty());
        assert!(files(&sections, &[SitemapKind::Performers]).iter().all(|f| f.kind == SitemapKind::Performers));
    }

    proptest! {
        #[test]
        fn every_entry_is_in_exactly_one_file_of_at_most_50k(count in 0u64..400_000) {
            let made = files(&[section(SitemapKind::Videos, count)], &[SitemapKind::Videos]);
            let per = SITEMAP_FILE_URLS as u64;
            prop_assert_eq!(made.len() as u64, count.div_ceil(per));
            for (i, file) in made.iter().enumerate() {
                prop_assert_eq!(file.offset(), i as u64 * per);
                prop_assert!(file.offset() < count);
                prop_assert_eq!(parse_name(&file.name()), Some((SitemapKind::Videos, file.number)));
            }
        }

        #[test]
        fn xml_text_is_well_formed_character_data(text in any::<String>()) {
            let out = xml_text(&text);
            prop_assert!(!out.contains('<') && !out.contains('>'));
            prop_assert!(out.chars().all(|c| matches!(c, '\t' | '\n' | '\r') || c >= ' '));
            prop_assert!(out.split('&').skip(1).all(|rest| ["amp;", "lt;", "gt;", "quot;", "#39;"].iter().any(|e| rest.starts_with(e))));
        }
    }

    #[test]
    fn file_names_are_the_kinds_and_numbers_from_one() {
        assert_eq!(parse_name("videos-2.xml"), Some((SitemapKind::Videos, 2)));
        assert_eq!(parse_name("showcases-1.xml"), Some((SitemapKind::Showcases, 1)));
        for bad in ["videos-0.xml", "videos-01.xml", "videos.xml", "videos-1", "angels-1.xml", "videos--1.xml", "x"] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn robots_opens_the_tour_and_closes_sessions_signup_sign_in_and_the_apis() {
        let vixen = site("vixen", false);
        let text = robots_txt(&vixen.tenant, false);
        assert!(text.starts_with("User-agent: *\nAllow: /\n"));
        assert!(text.ends_with(&format!("Sitemap: {}/sitemap.xml\n", vixen.tenant.tour_url.trim_end_matches('/'))));
        for path in [
            "/account",
            "/favorites/videos",
            "/offers",
            "/_signupsuccess",
            "/_signup-extern/x",
            "/joinnow",
            "/oidc/login",
            "/api/refresh",
            "/graphql",
            "/videos/a/comment/1",
        ] {
            assert!(disallowed(path), "{path}");
        }
        for path in
            ["/", "/videos", "/videos/golden-hour", "/performers/a", "/channels/a", "/showcase/a", "/categories"]
        {
            assert!(!disallowed(path), "{path}");
        }
        assert_eq!(robots_txt(&vixen.tenant, true), "User-agent: *\nDisallow: /\n");
    }

    #[test]
    fn every_page_that_needs_a_session_is_kept_from_crawlers() {
        for row in routes::rows() {
            let needs_session = routes::page_row(&row.path).needs_session;
            let sample: String = row
                .path
                .split('/')
                .map(|s| if s.starts_with(':') { "a-slug" } else { s })
                .collect::<Vec<_>>()
                .join("/");
            if needs_session {
                assert!(disallowed(&sample), "{} needs a session but robots.txt lets crawlers in", row.path);
            }
        }
    }

    #[test]
    fn each_kind_is_listed_only_where_a_visitor_reaches_indexable_pages() {
        let all = brands();
        // Channels and showcases where the brand shows them to a visitor; every brand's videos,
        // performers and category listings.
        for brand in ["vixen", "tushy"] {
            assert_eq!(kinds(&site(brand, false), &all), SitemapKind::ALL.to_vec(), "{brand}");
        }
        let slayed = kinds(&site("slayed", false), &all);
        assert_eq!(slayed, [SitemapKind::Videos, SitemapKind::Performers, SitemapKind::Categories], "{slayed:?}");
        assert!(kinds(&site("vixen", true), &all).is_empty(), "the members area lists nothing");
        let vixen = site("vixen", false);
        let visitor = visitor(&vixen);
        assert_eq!(page_of(SitemapKind::Categories, "big-city"), "/videos?categories=big-city");
        assert_eq!(
            landing(&vixen, &all, &visitor, "/videos?categories=big-city").as_deref(),
            Some("/videos?categories=big-city")
        );
        assert_eq!(landing(&vixen, &all, &visitor, "/categories/big-city"), None, "the search is not for indexes");
        assert_eq!(
            landing(&vixen, &all, &visitor, "/models/a-slug").as_deref(),
            Some("/performers/a-slug"),
            "moves followed"
        );
        assert_eq!(landing(&vixen, &all, &visitor, "/account"), None, "a session's page");
    }

    fn entry(slug: &str, title: &str) -> SitemapEntry {
        SitemapEntry {
            slug: slug.into(),
            last_modified: DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z").unwrap().to_utc(),
            video: Some(SitemapVideo {
                title: title.into(),
                description: "A <long> & \"quiet\" evening.\u{1}".into(),
                thumbnail: "/media/placeholder/video/a.svg?w=1280&h=720".into(),
                trailer: "/media/trailers/a.mp4".into(),
                duration: 40_000,
                release_date: DateTime::parse_from_rfc3339("2026-11-29T00:00:00Z").unwrap().to_utc(),
            }),
        }
    }

    #[test]
    fn a_video_url_carries_googles_video_extension() {
        let long = "x".repeat(300);
        let e = entry("a", &long);
        let xml = urlset_xml(&[Located { loc: "https://vixen.test/videos/a".into(), entry: &e }], |s| {
            format!("https://vixen.test{s}")
        });
        assert!(xml.contains("xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\""));
        assert!(xml.contains("<loc>https://vixen.test/videos/a</loc>"));
        assert!(xml.contains("<video:thumbnail_loc>https://vixen.test/media/placeholder/video/a.svg?w=1280&amp;h=720</video:thumbnail_loc>"));
        assert!(xml.contains("<video:content_loc>https://vixen.test/media/trailers/a.mp4</video:content_loc>"));
        assert!(xml.contains(&format!("<video:title>{}</video:title>", "x".repeat(VIDEO_TITLE_MAX))));
        assert!(xml.contains("<video:description>A &lt;long&gt; &amp; &quot;quiet&quot; evening.</video:description>"));
        assert!(xml.contains("<video:duration>28800</video:duration>"), "clamped to Google's longest");
        assert!(xml.contains("<video:publication_date>2026-11-29T00:00:00Z</video:publication_date>"));
        assert!(xml.contains("<video:requires_subscription>yes</video:requires_subscription>"));
        assert!(xml.contains("<video:family_friendly>no</video:family_friendly>"));
        let plain = SitemapEntry { video: None, ..entry("b", "B") };
        let xml =
            urlset_xml(&[Located { loc: "https://vixen.test/performers/b".into(), entry: &plain }], str::to_owned);
        assert!(!xml.contains("video"));
    }

    #[test]
    fn conditional_requests_match_the_tag_or_the_date() {
        let document =
            Document::of("<urlset/>", DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z").unwrap().to_utc());
        let with = |name: header::HeaderName, value: &str| {
            let mut h = HeaderMap::new();
            h.insert(name, HeaderValue::from_str(value).unwrap());
            h
        };
        let tag = document.etag.clone();
        assert!(tag.starts_with("W/\""));
        assert!(crate::conditional::not_modified(&with(header::IF_NONE_MATCH, &tag), &tag, document.last_modified));
        assert!(crate::conditional::not_modified(
            &with(header::IF_NONE_MATCH, &format!("\"x\", {}", tag.trim_start_matches("W/"))),
            &tag,
            document.last_modified
        ));
        assert!(!crate::conditional::not_modified(
            &with(header::IF_NONE_MATCH, "W/\"other\""),
            &tag,
            document.last_modified
        ));
        let date = http_date(document.last_modified);
        assert_eq!(date, "Mon, 30 Nov 2026 10:00:00 GMT");
        assert!(crate::conditional::not_modified(
            &with(header::IF_MODIFIED_SINCE, &date),
            &tag,
            document.last_modified
        ));
        assert!(!crate::conditional::not_modified(
            &with(header::IF_MODIFIED_SINCE, "Mon, 30 Nov 2026 09:59:59 GMT"),
            &tag,
            document.last_modified
        ));
        assert!(!crate::conditional::not_modified(&HeaderMap::new(), &tag, document.last_modified));
        assert_eq!(&document.xml()[..], b"<urlset/>");
    }
}
