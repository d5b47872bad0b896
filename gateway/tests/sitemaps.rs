//! robots.txt and the sitemaps as a crawler reads them, against the real gateway over the real
//! catalog (demo content, PostgreSQL): what each brand lists and where, that every URL listed
//! is a page that answers 200 with itself as canonical, the conditional requests' 304, a new
//! video listed within a minute, and a 100,000-video catalogue split into files of 50,000.
//! The XML is parsed as XML (roxmltree); the journeys check it against the sitemap schemas
//! (frontend/e2e/crawler.e2e.ts).

mod support;

use std::time::{Duration, Instant};

use reqwest::{header, redirect::Policy, StatusCode};
use support::stack::{Options, Stack};

const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";

struct Crawler {
    client: reqwest::Client,
    base: String,
}

impl Crawler {
    fn new(stack: &Stack) -> Crawler {
        let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();
        Crawler { client, base: stack.gw.base.clone() }
    }

    /// GET `url` (absolute on a brand's origin) through the gateway, with `extra` headers.
    async fn get(&self, url: &str, extra: &[(header::HeaderName, &str)]) -> reqwest::Response {
        let parsed = reqwest::Url::parse(url).unwrap();
        let host = format!("{}:{}", parsed.host_str().unwrap(), parsed.port().unwrap_or(80));
        let path = &url[url.find(parsed.path()).unwrap()..];
        // As crawlers do: compressed, please.
        let mut request = self
            .client
            .get(format!("{}{path}", self.base))
            .header(header::HOST, host)
            .header(header::ACCEPT_ENCODING, "gzip");
        for (name, value) in extra {
            request = request.header(name, *value);
        }
        request.send().await.unwrap()
    }

    async fn text(&self, url: &str) -> String {
        let response = self.get(url, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{url}");
        body(response).await
    }
}

/// The body as text, gunzipped when it came compressed.
async fn body(response: reqwest::Response) -> String {
    let gzip = response.headers().get(header::CONTENT_ENCODING).is_some_and(|v| v == "gzip");
    let bytes = response.bytes().await.unwrap();
    if !gzip {
        return String::from_utf8(bytes.to_vec()).unwrap();
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).expect("gzip");
    text
}

fn origin(brand: &str) -> String {
    format!("http://{brand}.localhost:8080")
}

/// The `loc`s of a sitemap index or urlset, checked to be in the sitemaps namespace.
fn locs(xml: &str, root: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("well-formed XML: {e}"));
    let top = document.root_element();
    assert_eq!((top.tag_name().namespace(), top.tag_name().name()), (Some(SITEMAP_NS), root));
    top.children()
        .filter(|n| n.is_element())
        .map(|n| {
            n.children()
                .find(|c| c.has_tag_name((SITEMAP_NS, "loc")))
                .and_then(|l| l.text())
                .expect("every entry has its loc")
                .trim()
                .to_owned()
        })
        .collect()
}

async fn count(stack: &Stack, sql: &str) -> usize {
    let n: i64 = sqlx::query_scalar(sql).fetch_one(&stack.catalog.pool).await.unwrap();
    n as usize
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_opens_the_tour_names_the_sitemap_and_shuts_the_members_host() {
    let stack = Stack::start(Options::default()).await;
    let crawler = Crawler::new(&stack);
    let response = crawler.get(&format!("{}/robots.txt", origin("vixen")), &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["rating"], "RTA-5042-1996-1400-1577-RTA");
    assert!(response.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain"));
    let text = body(response).await;
    for line in ["User-agent: *", "Allow: /", "Disallow: /account", "Disallow: /favorites", "Disallow: /offers"] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    for line in
        ["Disallow: /_signup", "Disallow: /joinnow", "Disallow: /oidc/", "Disallow: /api/", "Disallow: /graphql"]
    {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    assert!(text.lines().any(|l| l == format!("Sitemap: {}/sitemap.xml", origin("vixen"))), "{text}");

    let members = crawler.get("http://members.localhost:8080/robots.txt", &[]).await;
    assert_eq!(members.status(), StatusCode::OK);
    assert_eq!(body(members).await, "User-agent: *\nDisallow: /\n");
    let members_sitemap = crawler.get("http://members.localhost:8080/sitemap.xml", &[]).await;
    assert_eq!(members_sitemap.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_brand_lists_its_pages_and_every_listed_url_is_a_canonical_page() {
    let stack = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    let crawler = Crawler::new(&stack);
    for (brand, kinds) in [
        ("vixen", vec!["videos", "performers", "categories", "channels", "showcases"]),
        ("tushy", vec!["videos", "performers", "categories", "channels", "showcases"]),
    ] {
        let index_url = format!("{}/sitemap.xml", origin(brand));
        let response = crawler.get(&index_url, &[]).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("application/xml"));
        assert!(
            response.headers().contains_key(header::ETAG) && response.headers().contains_key(header::LAST_MODIFIED)
        );
        let files = locs(&body(response).await, "sitemapindex");
        let expected: Vec<String> = kinds.iter().map(|k| format!("{}/sitemaps/{k}-1.xml", origin(brand))).collect();
        assert_eq!(files, expected, "{brand}'s index");

        for file in &files {
            let xml = crawler.text(file).await;
            let urls = locs(&xml, "urlset");
            assert!(!urls.is_empty(), "{file} lists something");
            assert!(urls.iter().all(|u| u.starts_with(&origin(brand))), "{file}: on the brand's origin");
            // A sample of what it lists: each a page of its own, 200, canonical to itself.
            for url in urls.iter().step_by(urls.len().div_ceil(3)) {
                let page = crawler.get(url, &[]).await;
                assert_eq!(page.status(), StatusCode::OK, "{url} of {file}");
                let html = body(page).await;
                let canonical = format!("<link rel=\"canonical\" href=\"{}\" />", url.replace('&', "&amp;"));
                assert!(html.contains(&canonical), "{url} is its own canonical");
                assert!(html.contains("content=\"index, follow"), "{url} may be indexed");
            }
            if file.contains("/videos-") {
                let own =
                    count(&stack, &format!("select count(*) from video where site = '{brand}' and published")).await;
                assert_eq!(urls.len(), own, "every published {brand} video, once");
                let document = roxmltree::Document::parse(&xml).unwrap();
                for url in document.descendants().filter(|n| n.has_tag_name((SITEMAP_NS, "url"))) {
                    let video = url.children().find(|n| n.has_tag_name((VIDEO_NS, "video"))).expect("video:video");
                    let field = |name: &str| {
                        video
                            .children()
                            .find(|n| n.has_tag_name((VIDEO_NS, name)))
                            .and_then(|n| n.text())
                            .unwrap_or_default()
                    };
                    assert!(field("thumbnail_loc").starts_with(&origin(brand)));
                    assert!(field("content_loc").starts_with(&format!("{}/media/trailers/", origin(brand))));
                    assert!(!field("title").is_empty() && !field("description").is_empty());
                    assert!((1..=28_800).contains(&field("duration").parse::<u32>().unwrap()));
                    assert!(chrono::DateTime::parse_from_rfc3339(field("publication_date")).is_ok());
                    assert_eq!(field("requires_subscription"), "yes");
                    assert_eq!(field("family_friendly"), "no");
                }
            }
        }
    }
    let unknown = crawler.get(&format!("{}/sitemaps/channels-1.xml", origin("slayed")), &[]).await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND, "slayed shows no channels");
    let past = crawler.get(&format!("{}/sitemaps/videos-2.xml", origin("vixen")), &[]).await;
    assert_eq!(past.status(), StatusCode::NOT_FOUND, "one file holds vixen's videos");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_sitemap_answers_304_and_a_new_video_is_listed_within_a_minute() {
    let stack = Stack::start(Options { seed_catalog: true, ..Default::default() }).await;
    let crawler = Crawler::new(&stack);
    let file = format!("{}/sitemaps/videos-1.xml", origin("vixen"));
    let first = crawler.get(&file, &[]).await;
    assert_eq!(first.status(), StatusCode::OK);
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
    let modified = first.headers()[header::LAST_MODIFIED].to_str().unwrap().to_owned();
    assert_eq!(first.headers()[header::CONTENT_ENCODING], "gzip");
    let before = locs(&body(first).await, "urlset");

    let by_tag = crawler.get(&file, &[(header::IF_NONE_MATCH, &etag)]).await;
    assert_eq!(by_tag.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(by_tag.headers()[header::ETAG], etag.as_str());
    assert!(by_tag.bytes().await.unwrap().is_empty());
    let by_date = crawler.get(&file, &[(header::IF_MODIFIED_SINCE, &modified)]).await;
    assert_eq!(by_date.status(), StatusCode::NOT_MODIFIED);
    let other = crawler.get(&file, &[(header::IF_NONE_MATCH, "W/\"another\"")]).await;
    assert_eq!(other.status(), StatusCode::OK);
    // Plain and gzip-compressed alike: the same file, the same validator.
    let plain = runtime::tls::client_builder().no_gzip().build().unwrap();
    let raw = plain
        .get(format!("{}/sitemaps/videos-1.xml", stack.gw.base))
        .header(header::HOST, "vixen.localhost:8080")
        .send()
        .await
        .unwrap();
    assert!(raw.headers().get(header::CONTENT_ENCODING).is_none());
    assert_eq!(raw.headers()[header::ETAG], etag.as_str());
    assert_eq!(locs(&raw.text().await.unwrap(), "urlset"), before);

    let mut video = support::content::video_on("vixen", None);
    video.slug = "a-brand-new-evening".into();
    video.title = "A Brand New Evening".into();
    stack.publish(&[support::content::published(&video)]).await;
    let listed = format!("{}/videos/a-brand-new-evening", origin("vixen"));
    let published = Instant::now();
    loop {
        let now = crawler.get(&file, &[(header::IF_NONE_MATCH, &etag)]).await;
        if now.status() == StatusCode::OK {
            assert_ne!(now.headers()[header::ETAG], etag.as_str());
            let after = locs(&body(now).await, "urlset");
            assert!(after.contains(&listed), "the new video is listed");
            assert_eq!(after.len(), before.len() + 1);
            break;
        }
        assert_eq!(now.status(), StatusCode::NOT_MODIFIED);
        assert!(published.elapsed() < Duration::from_secs(60), "a new video is listed within a minute");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_catalogue_of_100k_videos_is_split_into_files_of_50k() {
    let stack = Stack::start(Options::default()).await;
    sqlx::query(
        "insert into video (video_id, legacy_id, new_id, slug, site, title, description, release_date, \
         duration_seconds, performer_ids, category_slugs, is_third_party_channel, is_free_limited_trial, award, \
         qualities, published, published_at)
         select gen_random_uuid(), n::text, (900000 + n)::text, 'evening-' || n, 'deeper', 'Evening ' || n,
                'A quiet evening, number ' || n || '.', now() - make_interval(mins => n), 1200, '{}', '{}',
                false, false, 0, '{hls}', true, now() - make_interval(mins => n)
         from generate_series(1, 100000) n",
    )
    .execute(&stack.catalog.pool)
    .await
    .unwrap();
    let crawler = Crawler::new(&stack);
    let files = locs(&crawler.text(&format!("{}/sitemap.xml", origin("deeper"))).await, "sitemapindex");
    let videos: Vec<&String> = files.iter().filter(|f| f.contains("/sitemaps/videos-")).collect();
    assert_eq!(
        videos,
        [
            &format!("{}/sitemaps/videos-1.xml", origin("deeper")),
            &format!("{}/sitemaps/videos-2.xml", origin("deeper"))
        ]
    );
    let mut all = Vec::new();
    for file in videos {
        let urls = locs(&crawler.text(file).await, "urlset");
        assert_eq!(urls.len(), 50_000, "{file}");
        all.extend(urls);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 100_000, "every video in exactly one file");
}
