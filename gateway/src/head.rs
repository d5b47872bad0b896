//! Each page's head, written at the edge into the HTML it sends, so that a crawler that runs no
//! JavaScript and a chat app previewing a shared link read the page's own title, description,
//! canonical URL, OpenGraph and Twitter cards, JSON-LD and robots rule.
//!
//! The copy is config/head.json, by route-table row; the browser reads the same file to keep the
//! head current on client-side navigation (frontend `app/head.ts`), and
//! config/head-conformance.json holds the two readers to the same titles. What a page shows (a
//! video's title, a performer's picture) comes from the catalog, asked once per lookup at the
//! edge already (crate::slugs), so the head costs no call of its own.

use std::{collections::HashMap, fmt::Write as _, sync::LazyLock};

use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde::Deserialize;
use serde_json::{json, Value};

use tenants::Tenant;

use crate::routes::PageRow;

/// config/head.json, built in.
const COPY_JSON: &str = include_str!("../../config/head.json");

/// The longest meta description written: what search engines show of one.
pub const DESCRIPTION_MAX: usize = 160;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CopyFile {
    site_description: String,
    not_found: PageCopy,
    server_error: PageCopy,
    pages: HashMap<String, PageCopy>,
}

/// One row's head copy.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageCopy {
    pub title: String,
    pub description: String,
    /// Its name in a breadcrumb trail, for rows others' trails name.
    #[serde(default)]
    pub crumb: Option<String>,
    /// False keeps a page crawlers could reach out of their index.
    #[serde(default = "yes")]
    pub index: bool,
    #[serde(default)]
    pub schema: Option<Schema>,
    /// The rows before this one in its BreadcrumbList, home first.
    #[serde(default)]
    pub trail: Vec<String>,
    /// The query keys that make another page of the row (`/videos?categories=...`, a category's
    /// listing): kept in its canonical URL, in this order, before the page number.
    #[serde(default)]
    pub canonical_query: Vec<String>,
}

fn yes() -> bool {
    true
}

/// The JSON-LD a page carries besides its breadcrumbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Schema {
    WebSite,
    VideoObject,
    Person,
}

static COPY: LazyLock<CopyFile> =
    LazyLock::new(|| serde_json::from_str(COPY_JSON).expect("config/head.json is the head copy"));

/// The copy of a row of the route table.
pub fn page_copy(row: &str) -> Option<&'static PageCopy> {
    COPY.pages.get(row)
}

/// What the catalog said about what a page shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Its name or title.
    pub name: String,
    /// Its own description, empty when it has none.
    pub description: String,
    /// Its picture, as the catalog addresses it (relative to the brand's origin or absolute).
    pub image: Option<String>,
    pub video: Option<VideoFacts>,
}

/// What a video's structured data needs besides its name and description.
#[derive(Clone, Debug, PartialEq)]
pub struct VideoFacts {
    pub release_date: DateTime<Utc>,
    /// Seconds.
    pub duration: u32,
    /// The public trailer.
    pub trailer: String,
}

impl Facts {
    pub fn of_video(video: &catalog_contract::api::Video) -> Facts {
        Facts {
            name: video.title.clone(),
            description: video.description.clone(),
            image: Some(video.images.poster.src.clone()),
            video: Some(VideoFacts {
                release_date: video.release_date,
                duration: video.duration,
                trailer: video.trailer.src.clone(),
            }),
        }
    }

    pub fn named(name: &str, description: &str, image: &catalog_contract::api::Image) -> Facts {
        Facts {
            name: name.to_owned(),
            description: description.to_owned(),
            image: Some(image.src.clone()),
            video: None,
        }
    }
}

/// A page the edge answers, as its head reads it.
pub struct Page<'a> {
    pub tenant: &'a Tenant,
    pub is_members_area: bool,
    pub row: &'a PageRow,
    /// The request's query (raw, without `?`).
    pub query: Option<&'a str>,
    pub status: StatusCode,
    /// What the catalog found for the row's lookup; `None` for a row without one, or when the
    /// catalog could not say.
    pub facts: Option<&'a Facts>,
}

/// A page's head as values, before they are written as HTML.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub title: String,
    pub description: String,
    pub canonical: String,
    pub indexable: bool,
    /// Absolute.
    pub image: Option<String>,
    pub og_type: &'static str,
    /// The JSON-LD documents, each one `<script type="application/ld+json">`.
    pub json_ld: Vec<Value>,
}

/// `{{name}}` in `template` replaced by its value in `vars`; an unknown name by nothing.
pub fn interpolate(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let name = after[..end].trim();
                out.push_str(vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v).unwrap_or_default());
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// At most [`DESCRIPTION_MAX`] characters of `text` with its whitespace folded, cut at a word with
/// an ellipsis.
pub fn clip(text: &str) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if folded.chars().count() <= DESCRIPTION_MAX {
        return folded;
    }
    let cut: String = folded.chars().take(DESCRIPTION_MAX - 1).collect();
    let at_word = cut.rfind(' ').filter(|at| *at > DESCRIPTION_MAX / 2).unwrap_or(cut.len());
    format!("{}…", cut[..at_word].trim_end_matches([' ', ',', '.', ';', ':']))
}

/// ISO 8601 duration of `seconds` (`PT1H2M3S`, `PT7M`, `PT0S`).
pub fn iso_duration(seconds: u32) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = String::from("PT");
    if h > 0 {
        let _ = write!(out, "{h}H");
    }
    if m > 0 {
        let _ = write!(out, "{m}M");
    }
    if s > 0 || (h == 0 && m == 0) {
        let _ = write!(out, "{s}S");
    }
    out
}

/// The brand's own origin (its tour URL), without a trailing slash.
pub(crate) fn origin(tenant: &Tenant) -> &str {
    tenant.tour_url.trim_end_matches('/')
}

/// `url` absolute on the brand's origin when it is a path.
pub(crate) fn absolute(tenant: &Tenant, url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") {
        format!("{}{url}", origin(tenant))
    } else {
        url.to_owned()
    }
}

/// The query of a page's canonical URL: the row's [`PageCopy::canonical_query`] keys the request
/// names (their first non-empty value), then the listing's page past the first; `?` and all, or
/// nothing.
fn canonical_query(copy: Option<&PageCopy>, query: Option<&str>) -> String {
    let pairs: Vec<(String, String)> =
        form_urlencoded::parse(query.unwrap_or_default().as_bytes()).into_owned().collect();
    let mut kept = form_urlencoded::Serializer::new(String::new());
    let mut any = false;
    for key in copy.map(|c| c.canonical_query.as_slice()).unwrap_or_default() {
        if let Some((_, value)) = pairs.iter().find(|(k, v)| k == key && !v.is_empty()) {
            kept.append_pair(key, value);
            any = true;
        }
    }
    if let Some(n) = listing_page(query) {
        kept.append_pair("page", &n.to_string());
        any = true;
    }
    if any {
        format!("?{}", kept.finish())
    } else {
        String::new()
    }
}

/// The page of a listing, when the query names one past the first.
fn listing_page(query: Option<&str>) -> Option<u32> {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "page")
        .and_then(|(_, v)| v.parse::<u32>().ok())
        .filter(|page| *page > 1)
}

/// The head of `page`.
pub fn head(page: &Page<'_>, requested_path: &str) -> Head {
    let tenant = page.tenant;
    let copy = page_copy(page.row.path);
    let error = match page.status {
        StatusCode::OK => None,
        StatusCode::NOT_FOUND => Some(&COPY.not_found),
        _ => Some(&COPY.server_error),
    };
    let facts = page.facts.filter(|_| error.is_none());
    let brand = page.row.params.iter().find(|(n, _)| *n == "brand").map(|(_, v)| v.to_ascii_uppercase());
    let name = facts.map(|f| f.name.as_str()).unwrap_or_default();
    let own_description = facts.map(|f| f.description.as_str()).unwrap_or_default();
    let vars = [
        ("site", tenant.site.as_str()),
        ("name", name),
        ("description", own_description),
        ("brand", brand.as_deref().unwrap_or_default()),
    ];
    let shown = error.or(copy).unwrap_or(&COPY.not_found);
    // A page about something the catalog could not name says only whose site it is.
    let names_it = shown.title.contains("{{name}}") || shown.title.contains("{{ name }}");
    let title = if names_it && name.is_empty() { tenant.site.clone() } else { interpolate(&shown.title, &vars) };
    let mut description = clip(&interpolate(&shown.description, &vars));
    if description.is_empty() {
        description = clip(&interpolate(&COPY.site_description, &vars));
    }
    let path = if page.row.path == "*" { requested_path.to_owned() } else { page.row.filled() };
    let canonical = format!("{}{path}{}", origin(tenant), canonical_query(copy, page.query));
    let indexable = error.is_none()
        && !page.is_members_area
        && !page.row.needs_session
        && page.row.path != "*"
        && copy.is_some_and(|c| c.index);
    let image = facts.and_then(|f| f.image.as_deref()).map(|src| absolute(tenant, src));
    let schema = if error.is_none() { copy.and_then(|c| c.schema) } else { None };
    let og_type = match schema {
        Some(Schema::VideoObject) if facts.is_some_and(|f| f.video.is_some()) => "video.other",
        Some(Schema::Person) if facts.is_some() => "profile",
        _ => "website",
    };
    let mut json_ld = Vec::new();
    match (schema, facts) {
        (Some(Schema::WebSite), _) => json_ld.push(website(tenant)),
        (Some(Schema::VideoObject), Some(facts)) => {
            if let Some(video) = &facts.video {
                json_ld.push(video_object(tenant, facts, video, &description, &canonical));
            }
        }
        (Some(Schema::Person), Some(facts)) => json_ld.push(json!({
            "@context": "https://schema.org",
            "@type": "Person",
            "name": facts.name,
            "url": canonical,
            "image": image,
        })),
        _ => {}
    }
    if let Some(copy) = copy.filter(|c| error.is_none() && !c.trail.is_empty()) {
        let current =
            if name.is_empty() { copy.crumb.clone().unwrap_or_else(|| title.clone()) } else { name.to_owned() };
        json_ld.push(breadcrumbs(tenant, &copy.trail, &current, &canonical));
    }
    Head { title, description, canonical, indexable, image, og_type, json_ld }
}

fn website(tenant: &Tenant) -> Value {
    let origin = origin(tenant);
    json!({
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": tenant.site,
        "url": format!("{origin}/"),
        "potentialAction": {
            "@type": "SearchAction",
            "target": { "@type": "EntryPoint", "urlTemplate": format!("{origin}/search?q={{search_term_string}}") },
            "query-input": "required name=search_term_string",
        },
    })
}

fn video_object(tenant: &Tenant, facts: &Facts, video: &VideoFacts, description: &str, canonical: &str) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "VideoObject",
        "name": facts.name,
        "description": description,
        "thumbnailUrl": facts.image.iter().map(|src| absolute(tenant, src)).collect::<Vec<_>>(),
        "uploadDate": video.release_date.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "duration": iso_duration(video.duration),
        "contentUrl": absolute(tenant, &video.trailer),
        "embedUrl": canonical,
        "isFamilyFriendly": false,
        "contentRating": "adult",
    })
}

fn breadcrumbs(tenant: &Tenant, trail: &[String], current: &str, canonical: &str) -> Value {
    let site = [("site", tenant.site.as_str())];
    let mut items: Vec<Value> = trail
        .iter()
        .filter_map(|row| {
            let crumb = page_copy(row)?.crumb.as_deref()?;
            Some((interpolate(crumb, &site), format!("{}{row}", origin(tenant))))
        })
        .chain(std::iter::once((current.to_owned(), canonical.to_owned())))
        .enumerate()
        .map(|(i, (name, item))| json!({ "@type": "ListItem", "position": i + 1, "name": name, "item": item }))
        .collect();
    if items.len() == 1 {
        items.clear();
    }
    json!({ "@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items })
}

/// Text made safe inside an HTML attribute value or element.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The brand's icon: its wordmark's first letter on its accent colour, as an SVG data URL (no
/// request, one per brand).
pub fn favicon(tenant: &Tenant) -> String {
    let theme = &tenant.theme;
    let letter: String = theme.wordmark.trim().chars().next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\"><rect width=\"64\" height=\"64\" rx=\"12\" \
         fill=\"{}\"/><text x=\"32\" y=\"46\" text-anchor=\"middle\" font-size=\"42\" font-weight=\"700\" \
         font-family=\"{}\" fill=\"{}\">{}</text></svg>",
        escape(&theme.colors.accent),
        escape(&theme.typography.wordmark_font),
        escape(&theme.colors.on_accent),
        escape(&letter)
    );
    format!("data:image/svg+xml,{}", utf8_percent_encode(&svg, NON_ALPHANUMERIC))
}

/// The robots rule: what may be indexed is, with large previews; a members host is neither indexed
/// nor followed; anything else is not indexed.
pub fn robots(indexable: bool, is_members_area: bool) -> &'static str {
    match (indexable, is_members_area) {
        (true, _) => "index, follow, max-image-preview:large",
        (false, true) => "noindex, nofollow",
        (false, false) => "noindex",
    }
}

/// The head's elements as HTML, the adult label's meta among them.
pub fn html(head: &Head, tenant: &Tenant, is_members_area: bool) -> String {
    let mut out = String::new();
    let meta = |out: &mut String, attr: &str, key: &str, value: &str| {
        let _ = write!(out, "<meta {attr}=\"{key}\" content=\"{}\" />", escape(value));
    };
    let _ = write!(out, "<title>{}</title>", escape(&head.title));
    meta(&mut out, "name", "description", &head.description);
    meta(&mut out, "name", "robots", robots(head.indexable, is_members_area));
    let _ = write!(out, "<link rel=\"canonical\" href=\"{}\" />", escape(&head.canonical));
    let _ = write!(out, "<link rel=\"icon\" type=\"image/svg+xml\" href=\"{}\" />", escape(&favicon(tenant)));
    meta(&mut out, "name", "theme-color", &tenant.theme.colors.accent);
    out.push_str(&crate::rating::meta_tag());
    meta(&mut out, "property", "og:site_name", &tenant.site);
    meta(&mut out, "property", "og:type", head.og_type);
    meta(&mut out, "property", "og:title", &head.title);
    meta(&mut out, "property", "og:description", &head.description);
    meta(&mut out, "property", "og:url", &head.canonical);
    let card = if head.image.is_some() { "summary_large_image" } else { "summary" };
    meta(&mut out, "name", "twitter:card", card);
    meta(&mut out, "name", "twitter:title", &head.title);
    meta(&mut out, "name", "twitter:description", &head.description);
    if let Some(image) = &head.image {
        meta(&mut out, "property", "og:image", image);
        meta(&mut out, "name", "twitter:image", image);
    }
    for document in &head.json_ld {
        let _ = write!(out, "<script type=\"application/ld+json\">{}</script>", crate::spa::script_json(document));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::{page_row, rows};

    fn tenant(brand: &str) -> Tenant {
        tenants::global().get(brand).unwrap().clone()
    }

    fn page<'a>(tenant: &'a Tenant, row: &'a PageRow, facts: Option<&'a Facts>) -> Page<'a> {
        Page { tenant, is_members_area: false, row, query: None, status: StatusCode::OK, facts }
    }

    fn video() -> Facts {
        Facts {
            name: "Golden Hour".into(),
            description: "A long summer evening.".into(),
            image: Some("/media/placeholder/video/golden-hour.svg?w=1280".into()),
            video: Some(VideoFacts {
                release_date: "2026-03-04T05:06:07Z".parse().unwrap(),
                duration: 3723,
                trailer: "/media/trailers/golden-hour.mp4".into(),
            }),
        }
    }

    #[test]
    fn every_row_of_the_route_table_has_its_copy_and_no_copy_names_another_row() {
        let table: Vec<&str> = rows().iter().map(|r| r.path.as_str()).collect();
        for row in &table {
            let copy = page_copy(row).unwrap_or_else(|| panic!("config/head.json has no page {row}"));
            assert!(!copy.title.is_empty() && !copy.description.is_empty(), "{row}");
            for parent in &copy.trail {
                assert!(page_copy(parent).and_then(|p| p.crumb.as_ref()).is_some(), "{row}'s trail names {parent}");
            }
        }
        for row in COPY.pages.keys() {
            assert!(table.contains(&row.as_str()), "config/head.json's {row} is no row of the table");
        }
    }

    #[test]
    fn a_video_page_names_the_video_and_describes_it_as_a_video_object() {
        let vixen = tenant("vixen");
        let row = page_row("/Videos/golden-hour/");
        let facts = video();
        let head = head(&page(&vixen, &row, Some(&facts)), "/Videos/golden-hour/");
        assert_eq!(head.title, "Golden Hour – VIXEN");
        assert_eq!(head.description, "A long summer evening.");
        assert_eq!(head.canonical, format!("{}/videos/golden-hour", vixen.tour_url));
        assert!(head.indexable);
        assert_eq!(head.og_type, "video.other");
        let video = &head.json_ld[0];
        assert_eq!(video["@type"], "VideoObject");
        assert_eq!(video["duration"], "PT1H2M3S");
        assert_eq!(video["uploadDate"], "2026-03-04T05:06:07Z");
        assert_eq!(video["contentUrl"], format!("{}/media/trailers/golden-hour.mp4", vixen.tour_url));
        let crumbs = &head.json_ld[1]["itemListElement"];
        assert_eq!(crumbs.as_array().unwrap().len(), 3);
        assert_eq!(crumbs[1]["name"], "Videos");
        assert_eq!(crumbs[2]["name"], "Golden Hour");
    }

    #[test]
    fn pages_needing_a_session_error_pages_signup_and_members_hosts_are_not_indexed() {
        let vixen = tenant("vixen");
        for path in ["/account", "/favorites/videos", "/joinnow", "/_signupsuccess", "/search"] {
            let row = page_row(path);
            assert!(!head(&page(&vixen, &row, None), path).indexable, "{path}");
        }
        let row = page_row("/videos");
        assert!(head(&page(&vixen, &row, None), "/videos").indexable);
        let members = Page { is_members_area: true, ..page(&vixen, &row, None) };
        assert!(!head(&members, "/videos").indexable);
        let missing = Page { status: StatusCode::NOT_FOUND, ..page(&vixen, &row, None) };
        let missing = head(&missing, "/videos");
        assert!(!missing.indexable);
        assert_eq!(missing.title, "Page Not Found – VIXEN");
        assert!(missing.json_ld.is_empty());
    }

    #[test]
    fn home_is_a_web_site_with_its_search() {
        let tushy = tenant("tushy");
        let row = page_row("/");
        let head = head(&page(&tushy, &row, None), "/");
        assert_eq!(head.title, "TUSHY – Home");
        let site = &head.json_ld[0];
        assert_eq!(site["@type"], "WebSite");
        assert_eq!(
            site["potentialAction"]["target"]["urlTemplate"],
            format!("{}/search?q={{search_term_string}}", tushy.tour_url)
        );
    }

    #[test]
    fn a_listing_page_past_the_first_is_its_own_canonical() {
        let vixen = tenant("vixen");
        let row = page_row("/videos");
        let second = Page { query: Some("page=2&sort=x"), ..page(&vixen, &row, None) };
        assert_eq!(head(&second, "/videos").canonical, format!("{}/videos?page=2", vixen.tour_url));
        let first = Page { query: Some("page=1"), ..page(&vixen, &row, None) };
        assert_eq!(head(&first, "/videos").canonical, format!("{}/videos", vixen.tour_url));
    }

    #[test]
    fn a_category_listing_is_its_own_canonical_and_other_rows_drop_the_category() {
        let vixen = tenant("vixen");
        let row = page_row("/videos");
        let category = Page { query: Some("order=x&page=3&categories=big-city"), ..page(&vixen, &row, None) };
        let head_of = head(&category, "/videos");
        assert_eq!(head_of.canonical, format!("{}/videos?categories=big-city&page=3", vixen.tour_url));
        assert!(head_of.indexable);
        let empty = Page { query: Some("categories="), ..page(&vixen, &row, None) };
        assert_eq!(head(&empty, "/videos").canonical, format!("{}/videos", vixen.tour_url));
        let performers = page_row("/performers");
        let other = Page { query: Some("categories=big-city"), ..page(&vixen, &performers, None) };
        assert_eq!(head(&other, "/performers").canonical, format!("{}/performers", vixen.tour_url));
    }

    #[test]
    fn what_the_catalog_writes_cannot_break_out_of_the_head() {
        let vixen = tenant("vixen");
        let row = page_row("/videos/x");
        let facts = Facts { name: "</title><script>alert(1)</script>".into(), ..video() };
        let head = head(&page(&vixen, &row, Some(&facts)), "/videos/x");
        let html = html(&head, &vixen, false);
        assert!(!html.contains("<script>alert"), "{html}");
        assert_eq!(html.matches("</title>").count(), 1);
        assert!(!html.contains("</script><script>"), "{html}");
    }

    #[test]
    fn each_brand_has_its_icon_the_wordmarks_first_letter_in_its_colours_escaped() {
        let decode = |url: String| {
            let svg = url.strip_prefix("data:image/svg+xml,").unwrap().to_owned();
            percent_encoding::percent_decode_str(&svg).decode_utf8().unwrap().into_owned()
        };
        let mut tushy = tenant("tushy");
        let svg = decode(favicon(&tushy));
        assert!(svg.contains(&format!("fill=\"{}\"", tushy.theme.colors.accent)), "{svg}");
        assert!(svg.contains(&format!("fill=\"{}\">T</text>", tushy.theme.colors.on_accent)), "{svg}");
        tushy.theme.wordmark = "<b".into();
        tushy.theme.colors.accent = "\"/><script>".into();
        let svg = decode(favicon(&tushy));
        assert!(svg.contains(">&lt;</text>") && !svg.contains("<script>"), "{svg}");
    }

    #[test]
    fn durations_are_iso_8601() {
        assert_eq!(iso_duration(0), "PT0S");
        assert_eq!(iso_duration(420), "PT7M");
        assert_eq!(iso_duration(3600), "PT1H");
        assert_eq!(iso_duration(3723), "PT1H2M3S");
    }

    #[test]
    fn descriptions_are_clipped_at_a_word() {
        let long = "word ".repeat(100);
        let clipped = clip(&long);
        assert!(clipped.chars().count() <= DESCRIPTION_MAX, "{clipped}");
        assert!(clipped.ends_with("word…"), "{clipped}");
        assert_eq!(clip("  two\n words "), "two words");
    }

    #[test]
    fn interpolation_fills_known_names_and_drops_unknown_ones() {
        assert_eq!(interpolate("{{name}} – {{site}}{{x}}", &[("name", "A"), ("site", "B")]), "A – B");
        assert_eq!(interpolate("open {{ brace", &[]), "open {{ brace");
    }

    /// config/head-conformance.json: the browser's reader (frontend `app/head/head.ts`) runs it too.
    #[test]
    fn the_edge_writes_every_case_of_the_conformance_file() {
        let file: Value = serde_json::from_str(include_str!("../../config/head-conformance.json")).unwrap();
        let mut failures = Vec::new();
        for case in file["cases"].as_array().unwrap() {
            let mut tenant = tenant("vixen");
            tenant.site = case["site"].as_str().unwrap().to_owned();
            let row_path = case["row"].as_str().unwrap();
            let mut row = page_row(&row_path.replace(":slug", "a-b").replace(":brand", "x").replace(":type", "videos"));
            assert_eq!(row.path, row_path, "a path of {row_path}");
            if let Some(brand) = case["brand"].as_str() {
                row.params = vec![("brand", brand.to_owned()), ("type", "videos".to_owned())];
            }
            let facts = case["shown"].as_object().map(|shown| Facts {
                name: shown["name"].as_str().unwrap().to_owned(),
                description: shown.get("description").and_then(Value::as_str).unwrap_or_default().to_owned(),
                ..Facts::default()
            });
            let status = StatusCode::from_u16(case["status"].as_u64().unwrap() as u16).unwrap();
            let members = case["members"].as_bool().unwrap();
            let shown = Page {
                tenant: &tenant,
                is_members_area: members,
                row: &row,
                query: None,
                status,
                facts: facts.as_ref(),
            };
            let head = head(&shown, "/x");
            let robots = robots(head.indexable, members);
            let got = json!({ "title": head.title, "description": head.description, "robots": robots });
            let want = json!({ "title": case["title"], "description": case["description"], "robots": case["robots"] });
            if got != want {
                failures.push(format!("{case}: {got}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn a_clipped_description_is_short_and_a_prefix_of_the_words(text in "[ a-zA-Z.,\\n]{0,400}") {
                let clipped = clip(&text);
                prop_assert!(clipped.chars().count() <= DESCRIPTION_MAX);
                let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
                prop_assert!(folded.starts_with(clipped.trim_end_matches('…')));
            }

            #[test]
            fn the_head_escapes_whatever_the_catalog_names(name in "\\PC{0,80}") {
                let vixen = tenant("vixen");
                let row = page_row("/performers/a-b");
                let facts = Facts { name, description: String::new(), image: None, video: None };
                let html = html(&head(&page(&vixen, &row, Some(&facts)), "/performers/a-b"), &vixen, false);
                prop_assert_eq!(html.matches("<title>").count(), 1);
                prop_assert_eq!(html.matches('<').count(), html.matches("<title>").count()
                    + html.matches("</title>").count() + html.matches("<meta ").count()
                    + html.matches("<link ").count() + 2 * html.matches("<script type=").count());
            }
        }
    }
}
