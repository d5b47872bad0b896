//! Each page's head as a crawler reads it: every row of the route table on two brands, signed
//! out, against the real gateway over the real catalog (demo content). The HTML is parsed with an
//! HTML5 parser (scraper, html5ever), not searched as text; what it should say is taken from the
//! head's copy (config/head.json) and the catalog's own rows, read here from its database.

mod support;

use std::collections::BTreeMap;

use reqwest::{header, redirect::Policy};
use scraper::{Html, Selector};
use serde_json::Value;
use support::stack::{Options, Stack};

const BRANDS: [&str; 2] = ["vixen", "tushy"];

fn copy() -> Value {
    serde_json::from_str(include_str!("../../config/head.json")).expect("config/head.json is JSON")
}

fn routes() -> Value {
    serde_json::from_str(include_str!("../../config/routes.json")).expect("config/routes.json is JSON")
}

/// What a page shows, from the catalog's tables: its slug for the path and its name for the head.
#[derive(Clone, Debug, Default)]
struct Shown {
    slug: String,
    /// The channel's slug, for channel pages.
    channel: String,
    name: String,
    description: String,
}

async fn one(stack: &Stack, sql: &str, brand: &str) -> Option<Shown> {
    let row: Option<(String, String, String, String)> = sqlx::query_as(sql)
        .bind(brand)
        .fetch_optional(&stack.catalog.pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    row.map(|(slug, channel, name, description)| Shown { slug, channel, name, description })
}

/// The brand's demo content a row's parameters name, by lookup kind.
async fn content(stack: &Stack, brand: &str) -> BTreeMap<&'static str, Shown> {
    let queries = [
        (
            "video",
            "select slug, '', title, description from video where site = $1 and published and channel_id is null \
             order by slug limit 1",
        ),
        ("performer", "select slug, '', name, '' from performer where $1 = any(sites) order by slug limit 1"),
        (
            "channel",
            "select c.slug, c.slug, c.name, '' from channel c where $1 = any(c.sites) and exists (select 1 from \
             channel_pack p where p.channel_id = c.channel_id) and exists (select 1 from video v where v.channel_id \
             = c.channel_id and v.published) order by c.slug limit 1",
        ),
        (
            "channelPack",
            "select p.slug, c.slug, p.name, '' from channel_pack p join channel c using (channel_id) where $1 = \
             any(c.sites) order by c.slug, p.slug limit 1",
        ),
        (
            "channelVideo",
            "select v.slug, c.slug, v.title, v.description from video v join channel c using (channel_id) where $1 = \
             any(c.sites) and v.published order by c.slug, v.slug limit 1",
        ),
        ("angel", "select slug, '', name, bio from angel where $1 = any(sites) order by slug limit 1"),
        ("showcase", "select slug, '', title, description from showcase where $1 = any(sites) order by slug limit 1"),
    ];
    let mut found = BTreeMap::new();
    for (kind, sql) in queries {
        if let Some(shown) = one(stack, sql, brand).await {
            found.insert(kind, shown);
        }
    }
    found
}

/// A path of `row` (its parameters filled from `shown`), or None when the brand has nothing it names.
fn path_of(row: &Value, content: &BTreeMap<&'static str, Shown>) -> Option<(String, Option<Shown>)> {
    let pattern = row["path"].as_str().unwrap();
    if pattern == "*" {
        return Some(("/no-such-page".into(), None));
    }
    let shown = match row["lookup"].as_str() {
        Some(kind) => Some(content.get(kind)?.clone()),
        None => None,
    };
    let mut path = String::new();
    for segment in pattern.split('/').filter(|s| !s.is_empty()) {
        let value = match segment.trim_end_matches('?') {
            ":slug" | ":videoSlug" | ":channelPackSlug" => shown.as_ref().map_or("a-slug".into(), |s| s.slug.clone()),
            ":channelSlug" => shown.as_ref().map_or("a-channel".into(), |s| s.channel.clone()),
            ":commentId" => "00000000-0000-0000-0000-000000000001".into(),
            ":uuid" => continue,
            ":biller" => "centrobill".into(),
            ":site" => "tushy".into(),
            ":brand" => "blacked".into(),
            ":type" => "videos".into(),
            other if other.starts_with(':') => panic!("{pattern}: no value for {other}"),
            other => other.to_owned(),
        };
        path.push('/');
        path.push_str(&value);
    }
    Some((if path.is_empty() { "/".into() } else { path }, shown))
}

fn interpolate(template: &str, vars: &[(&str, &str)]) -> String {
    vars.iter().fold(template.to_owned(), |text, (name, value)| text.replace(&format!("{{{{{name}}}}}"), value))
}

/// The head's facts, read as a crawler reads them.
#[derive(Debug)]
struct Read {
    titles: Vec<String>,
    description: Option<String>,
    canonical: Option<String>,
    robots: Option<String>,
    property: BTreeMap<String, String>,
    json_ld: Vec<Value>,
    rating: Option<String>,
    icon: Option<String>,
}

fn read(html: &str) -> Read {
    let document = Html::parse_document(html);
    let select = |css: &str| Selector::parse(css).unwrap();
    let attr = |css: &str, name: &str| {
        document.select(&select(css)).next().and_then(|e| e.value().attr(name)).map(str::to_owned)
    };
    let mut property = BTreeMap::new();
    for meta in document.select(&select("head meta[property], head meta[name^='twitter:']")) {
        let key = meta.value().attr("property").or(meta.value().attr("name")).unwrap();
        property.insert(key.to_owned(), meta.value().attr("content").unwrap_or_default().to_owned());
    }
    Read {
        titles: document.select(&select("title")).map(|t| t.text().collect()).collect(),
        description: attr("head meta[name='description']", "content"),
        canonical: attr("head link[rel='canonical']", "href"),
        robots: attr("head meta[name='robots']", "content"),
        property,
        json_ld: document
            .select(&select("head script[type='application/ld+json']"))
            .map(|s| {
                let text: String = s.text().collect();
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("JSON-LD is JSON: {e}: {text}"))
            })
            .collect(),
        rating: attr("head meta[name='RATING']", "content"),
        icon: attr("head link[rel='icon']", "href"),
    }
}

fn is_iso_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("PT") else { return false };
    let mut digits = false;
    let mut units = String::new();
    for c in rest.chars() {
        if c.is_ascii_digit() {
            digits = true;
        } else if "HMS".contains(c) && digits {
            units.push(c);
            digits = false;
        } else {
            return false;
        }
    }
    !units.is_empty() && !digits && ["H", "M", "S", "HM", "HS", "MS", "HMS"].contains(&units.as_str())
}

/// Problems of one JSON-LD document as its schema.org type requires it.
fn json_ld_problems(document: &Value, origin: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut need = |ok: bool, what: &str| {
        if !ok {
            problems.push(format!("{what}: {document}"));
        }
    };
    need(document["@context"] == "https://schema.org", "@context");
    let text = |key: &str| document[key].as_str().filter(|s| !s.is_empty());
    match document["@type"].as_str() {
        Some("VideoObject") => {
            need(text("name").is_some(), "VideoObject name");
            need(text("description").is_some(), "VideoObject description");
            let thumbnails = document["thumbnailUrl"].as_array().cloned().unwrap_or_default();
            need(!thumbnails.is_empty(), "VideoObject thumbnailUrl");
            need(thumbnails.iter().all(|t| t.as_str().is_some_and(|t| t.starts_with(origin))), "absolute thumbnails");
            need(
                text("uploadDate").is_some_and(|d| chrono::DateTime::parse_from_rfc3339(d).is_ok()),
                "VideoObject uploadDate (ISO 8601)",
            );
            need(text("duration").is_some_and(is_iso_duration), "VideoObject duration (ISO 8601)");
            need(
                text("contentUrl").is_some_and(|u| u.starts_with(origin) && u.ends_with(".mp4")),
                "contentUrl trailer",
            );
        }
        Some("Person") => {
            need(text("name").is_some(), "Person name");
            need(text("url").is_some_and(|u| u.starts_with(origin)), "Person url");
        }
        Some("BreadcrumbList") => {
            let items = document["itemListElement"].as_array().cloned().unwrap_or_default();
            need(items.len() >= 2, "a trail of at least two");
            for (i, item) in items.iter().enumerate() {
                need(item["@type"] == "ListItem" && item["position"] == i + 1, "ListItem positions from 1");
                need(item["name"].as_str().is_some_and(|n| !n.is_empty()), "ListItem name");
                need(item["item"].as_str().is_some_and(|u| u.starts_with(origin)), "ListItem item");
            }
        }
        Some("WebSite") => {
            need(text("url") == Some(&format!("{origin}/")), "WebSite url");
            let action = &document["potentialAction"];
            need(action["@type"] == "SearchAction", "SearchAction");
            need(
                action["target"]["urlTemplate"].as_str().is_some_and(|t| t.contains("{search_term_string}")),
                "SearchAction target",
            );
            need(action["query-input"] == "required name=search_term_string", "SearchAction query-input");
        }
        other => need(false, &format!("a known @type, not {other:?}")),
    }
    problems
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_row_has_its_head_on_two_brands_as_a_crawler_reads_it() {
    let stack = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();
    let copy = copy();
    let mut failures = Vec::new();
    let mut checked = 0;
    for brand in BRANDS {
        let content = content(&stack, brand).await;
        let site = tenants::global().get(brand).unwrap().site.clone();
        let origin = format!("http://{brand}.localhost:8080");
        for row in routes()["routes"].as_array().unwrap() {
            let pattern = row["path"].as_str().unwrap();
            let Some((path, shown)) = path_of(row, &content) else { continue };
            let response = client
                .get(format!("{}{path}", stack.gw.base))
                .header(header::HOST, format!("{brand}.localhost:8080"))
                .send()
                .await
                .unwrap();
            let status = response.status().as_u16();
            if ![200, 404].contains(&status) {
                continue; // a redirect: no page, no head
            }
            checked += 1;
            let header_rating = response.headers().get("rating").map(|v| v.to_str().unwrap().to_owned());
            let head = read(&response.text().await.unwrap());
            let mut fail = |what: String| failures.push(format!("{brand} {pattern} ({path}, {status}): {what}"));
            let page = &copy["pages"][pattern];
            let shown_copy = if status == 404 { &copy["notFound"] } else { page };
            let name = shown.as_ref().map(|s| s.name.as_str()).unwrap_or_default();
            let vars = [("site", site.as_str()), ("name", name), ("brand", "BLACKED")];
            let title = interpolate(shown_copy["title"].as_str().unwrap(), &vars);
            if head.titles != [title.clone()] {
                fail(format!("titles {:?}, expected [{title:?}]", head.titles));
            }
            let description = head.description.clone().unwrap_or_default();
            if description.is_empty() || description.chars().count() > 160 {
                fail(format!("description {description:?}"));
            }
            if let Some(own) = shown.as_ref().map(|s| s.description.as_str()).filter(|d| !d.is_empty() && status == 200)
            {
                let folded = own.split_whitespace().collect::<Vec<_>>().join(" ");
                if page["description"] == "{{description}}" && !folded.starts_with(description.trim_end_matches('…'))
                {
                    fail(format!("description {description:?} is not the catalog's {own:?}"));
                }
            }
            let canonical = head.canonical.clone().unwrap_or_default();
            if !canonical.starts_with(&format!("{origin}/"))
                || (pattern != "*" && canonical != format!("{origin}{path}"))
            {
                fail(format!("canonical {canonical:?}"));
            }
            let needs_session = row["steps"].as_array().unwrap().iter().any(|s| s == "authenticated");
            let indexable = status == 200 && pattern != "*" && !needs_session && page["index"] != false;
            let robots = head.robots.clone().unwrap_or_default();
            if robots.contains("noindex") == indexable || robots.is_empty() {
                fail(format!("robots {robots:?}, indexable {indexable}"));
            }
            for (key, want) in [
                ("og:title", Some(title.as_str())),
                ("og:site_name", Some(site.as_str())),
                ("og:url", Some(canonical.as_str())),
                ("og:description", Some(description.as_str())),
                ("twitter:title", Some(title.as_str())),
            ] {
                if head.property.get(key).map(String::as_str) != want {
                    fail(format!("{key} {:?}, expected {want:?}", head.property.get(key)));
                }
            }
            let shows_something = status == 200 && shown.is_some();
            if shows_something && !head.property.get("og:image").is_some_and(|i| i.starts_with(&origin)) {
                fail(format!("og:image {:?}", head.property.get("og:image")));
            }
            if head.property.get("twitter:card").map(String::as_str)
                != Some(if head.property.contains_key("og:image") { "summary_large_image" } else { "summary" })
            {
                fail(format!("twitter:card {:?}", head.property.get("twitter:card")));
            }
            if head.rating.as_deref() != Some("RTA-5042-1996-1400-1577-RTA") || header_rating != head.rating {
                fail(format!("the adult label: meta {:?}, header {header_rating:?}", head.rating));
            }
            if !head.icon.as_deref().is_some_and(|i| i.starts_with("data:image/svg+xml,")) {
                fail(format!("icon {:?}", head.icon));
            }
            let types: Vec<&str> = head.json_ld.iter().filter_map(|d| d["@type"].as_str()).collect();
            let mut want: Vec<&str> = Vec::new();
            if status == 200 {
                match page["schema"].as_str() {
                    Some("WebSite") => want.push("WebSite"),
                    Some(other) if shown.is_some() => want.push(other),
                    _ => {}
                }
                if page["trail"].as_array().is_some_and(|t| !t.is_empty()) {
                    want.push("BreadcrumbList");
                }
            }
            if types != want {
                fail(format!("JSON-LD {types:?}, expected {want:?}"));
            }
            for document in &head.json_ld {
                for problem in json_ld_problems(document, &origin) {
                    fail(problem);
                }
            }
            if let (Some(video), Some(shown)) =
                (head.json_ld.iter().find(|d| d["@type"] == "VideoObject"), shown.as_ref())
            {
                if video["name"] != shown.name.as_str() {
                    fail(format!("VideoObject name {}, the catalog's {:?}", video["name"], shown.name));
                }
            }
        }
    }
    assert!(checked > 80, "only {checked} pages were checked");
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_members_host_and_a_missing_video_are_never_indexed() {
    let stack = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();
    let get = |host: &'static str, path: &'static str| {
        client.get(format!("{}{path}", stack.gw.base)).header(header::HOST, host).send()
    };
    let members = get("members.localhost:8080", "/videos").await.unwrap();
    assert_eq!(members.status(), 200);
    let head = read(&members.text().await.unwrap());
    assert_eq!(head.robots.as_deref(), Some("noindex, nofollow"));
    assert!(head.canonical.unwrap().starts_with("http://"), "the canonical is on a brand's own origin");

    let missing = get("vixen.localhost:8080", "/videos/no-such-video-at-all").await.unwrap();
    assert_eq!(missing.status(), 404);
    let head = read(&missing.text().await.unwrap());
    assert_eq!(head.titles, ["Page Not Found – VIXEN"]);
    assert_eq!(head.robots.as_deref(), Some("noindex"));
    assert!(head.json_ld.is_empty(), "{:?}", head.json_ld);
}
