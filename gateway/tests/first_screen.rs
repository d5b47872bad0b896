//! The first screen in the page, over real HTTP with the real catalog: a visitor's home and
//! video page carry the engine's own answer to the screen's first query and a preload of the
//! image it leads with; a member's page carries the member's answer and stays private; a page
//! whose answer fails, or whose slug is not found, is the page without it.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use support::{
    persisted_get, registered, spawn_configured,
    stack::{Options, Stack},
    Gateway,
};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const PHONE: &str = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) \
                     Chrome/130.0.0.0 Mobile Safari/537.36";
const DESKTOP: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

struct Page {
    status: StatusCode,
    headers: header::HeaderMap,
    html: String,
}

impl Page {
    /// Every embedded answer, the screen's first; none when the page carries no first screen.
    fn first_screen_answers(&self) -> Vec<Value> {
        let open = "<script id=\"paysite-first-screen\" type=\"application/json\">";
        let Some(start) = self.html.find(open).map(|at| at + open.len()) else { return Vec::new() };
        let end = start + self.html[start..].find("</script>").unwrap();
        let embedded: Value = serde_json::from_str(&self.html[start..end]).unwrap();
        embedded["answers"].as_array().unwrap().clone()
    }

    /// The embedded screen's answer, if the page has one.
    fn first_screen(&self) -> Option<Value> {
        self.first_screen_answers().into_iter().next()
    }

    /// Every embedded answer's operation, the screen's first.
    fn embedded_operations(&self) -> Vec<String> {
        self.first_screen_answers().iter().map(|a| a["operation"].as_str().unwrap().to_owned()).collect()
    }

    fn preloads(&self) -> Vec<&str> {
        self.html.match_indices("<link rel=\"preload\" as=\"image\"").map(|(at, _)| &self.html[at..]).collect()
    }
}

async fn page(gw: &Gateway, host: &str, path: &str, agent: &str, token: Option<&str>) -> Page {
    let mut request = gw.client.get(format!("{}{path}", gw.base)).header("host", host).header("user-agent", agent);
    if let Some(token) = token {
        request = request.header("cookie", format!("paysite_at={token}"));
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    Page { status, headers, html: response.text().await.unwrap() }
}

async fn some_video(stack: &Stack) -> String {
    sqlx::query_scalar(
        "select slug from video where site = 'vixen' and published and channel_id is null order by slug limit 1",
    )
    .fetch_one(&stack.catalog.pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_visitors_home_carries_the_engines_own_answer_and_its_lead_image() {
    // Following the catalog's events, the gateway keeps visitors' answers: the page's is kept too.
    let s = Stack::start(Options { seed_catalog: true, serve_page: true, follow_answers: true, ..Default::default() })
        .await;
    let home = page(&s.gw, VIXEN, "/", PHONE, None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert_eq!(home.headers[header::CACHE_CONTROL], "private, no-cache");
    let vary = home.headers[header::VARY].to_str().unwrap();
    for varies in ["Cookie", "Sec-CH-Viewport-Width", "User-Agent"] {
        assert!(vary.contains(varies), "{vary}");
    }
    assert_eq!(home.headers["accept-ch"], "Sec-CH-Viewport-Width");
    let first = home.first_screen().expect("the home page carries its first screen");
    assert_eq!(home.embedded_operations(), ["HomePage"], "a visitor's shell asks nothing of its own");
    // A phone: three of each shelf (the tenant's small list size), no free-trial shelf.
    assert_eq!(first["operation"], "HomePage");
    let variables = json!({ "shelfSize": 3, "latestSize": 3, "freeTrial": false });
    assert_eq!(first["variables"], variables);
    let latest = first["data"]["latest"]["videos"].as_array().unwrap();
    assert!(!latest.is_empty(), "{first}");

    // The same answer as the page's own GET then gets: the one the engine gave and the gateway kept (a recommendation
    // shelf's recommId is new on each computed answer, so an equal one is the kept one).
    let (hash, _) = registered("HomePage");
    let (_, headers, asked) = s.gw.get(VIXEN, &persisted_get("HomePage", &hash, &variables), true, None).await;
    assert_eq!(asked["data"], first["data"]);
    assert!(headers[header::CACHE_CONTROL].to_str().unwrap().starts_with("public"), "a visitor's answer: {headers:?}");

    // One preload on a phone: the first card's poster, with its high-DPI sizes, at high priority, before the script.
    let preloads = home.preloads();
    assert_eq!(preloads.len(), 1, "{}", home.html);
    let image = &latest[0]["images"]["listing"];
    let src = image["src"].as_str().unwrap().replace('&', "&amp;");
    assert!(preloads[0].starts_with(&format!("<link rel=\"preload\" as=\"image\" href=\"{src}\"")), "{}", preloads[0]);
    assert!(preloads[0].contains("fetchpriority=\"high\""));
    if let Some(double) = image["highdpi"]["double"].as_str() {
        assert!(preloads[0].contains(&format!("{} 2x", double.replace('&', "&amp;"))), "{}", preloads[0]);
    }
    assert!(home.html.find("rel=\"preload\" as=\"image\"").unwrap() < home.html.find("paysite-first-screen").unwrap());

    // A wide screen asks the spec's large shelves, and preloads the first row.
    let wide = page(&s.gw, VIXEN, "/", DESKTOP, None).await;
    let wide_first = wide.first_screen().unwrap();
    assert_eq!(wide_first["variables"], json!({ "shelfSize": 9, "latestSize": 6, "freeTrial": false }));
    let wide_latest = wide_first["data"]["latest"]["videos"].as_array().unwrap().len();
    assert_eq!(wide.preloads().len(), wide_latest.min(3));
    s.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_video_page_carries_its_video_for_a_visitor_and_for_a_member_only_for_that_member() {
    let s = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    // The unlocks service's copy of the catalog, which says whose access covers a video's media.
    s.sync_catalog_to_unlocks().await;
    let slug = some_video(&s).await;
    let visitor = page(&s.gw, VIXEN, &format!("/videos/{slug}"), PHONE, None).await;
    assert_eq!(visitor.status, StatusCode::OK);
    let first = visitor.first_screen().expect("the video page carries its first screen");
    assert_eq!(first["operation"], "VideoPage");
    assert_eq!(first["variables"], json!({ "videoSlug": slug, "relatedCount": 6 }));
    assert_eq!(first["data"]["getVideo"]["video"]["slug"], slug);
    let poster = first["data"]["getVideo"]["video"]["trailer"]["poster"].as_str().unwrap();
    let href = poster.replace('&', "&amp;");
    assert!(visitor.preloads()[0].contains(&format!("href=\"{href}\"")), "{}", visitor.html);

    // A member: their own answer (their rating of it), in a page no shared cache may keep.
    let member = Uuid::now_v7();
    s.member(member, &["vixen"], MembershipKind::Member, false).await;
    let token = s.token(member, VIXEN, &[]);
    let theirs = page(&s.gw, VIXEN, &format!("/videos/{slug}"), DESKTOP, Some(&token)).await;
    assert_eq!(theirs.status, StatusCode::OK);
    assert_eq!(theirs.headers[header::CACHE_CONTROL], "private, no-cache");
    let first = theirs.first_screen().expect("a member's video page carries their first screen");
    assert_eq!(
        theirs.embedded_operations(),
        ["VideoPage", "GemsBalance", "VideoTokens", "VideoFavorite"],
        "the header's gems balance, and what the player and the favourite button ask with the video's answer"
    );
    assert_eq!(first["data"]["getVideo"]["video"]["slug"], slug);
    let uuid = first["data"]["getVideo"]["video"]["uuid"].as_str().unwrap().to_owned();
    let embedded = theirs.first_screen_answers();
    for (operation, variables) in [
        ("VideoPage", json!({ "videoSlug": slug, "relatedCount": 6 })),
        ("VideoTokens", json!({ "videoId": uuid })),
        ("VideoFavorite", json!({ "videoSlug": slug })),
    ] {
        let carried = embedded.iter().find(|a| a["operation"] == operation).unwrap();
        assert_eq!(carried["variables"], variables, "{operation}");
        let (hash, _) = registered(operation);
        let (_, headers, asked) =
            s.gw.get(VIXEN, &persisted_get(operation, &hash, &variables), true, Some(&token)).await;
        assert_eq!(headers[header::CACHE_CONTROL], "private, no-store", "{operation}");
        assert_eq!(asked["data"], carried["data"], "the member's page carries the member's own {operation} answer");
    }

    // A signed-in user whose access does not cover the video: the tokens' answer is FORBIDDEN, so the page leaves it
    // out (the player asks, and shows the way in), and still carries the rest.
    let stranger = Uuid::now_v7();
    s.account(stranger, "vixen").await;
    let locked = page(&s.gw, VIXEN, &format!("/videos/{slug}"), DESKTOP, Some(&s.token(stranger, VIXEN, &[]))).await;
    assert_eq!(locked.embedded_operations(), ["VideoPage", "GemsBalance", "VideoFavorite"]);

    // A slug the brand does not have: the 404 page, with nothing embedded.
    let missing = page(&s.gw, VIXEN, "/videos/no-such-video-here", PHONE, None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.first_screen().is_none() && missing.preloads().is_empty());
    // A page the edge plans nothing for.
    assert!(page(&s.gw, VIXEN, "/performers", PHONE, None).await.first_screen().is_none());
    s.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failing_prefetch_or_the_switch_off_leaves_the_page_as_it_was() {
    let dist = support::bare_dist();
    // Nothing behind the gateway answers: the home page is still the page, without a first screen.
    let unreachable =
        spawn_configured(support::nowhere(), runtime::auth::Signer::generate("t"), Some(dist.clone()), &[]).await;
    let home = page(&unreachable, VIXEN, "/", PHONE, None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.html.contains("paysite-bootstrap"), "{}", home.html);
    assert!(home.first_screen().is_none() && home.preloads().is_empty(), "{}", home.html);

    let s = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    let upstreams = s.replica_upstreams();
    let off = spawn_configured(upstreams, s.gw.signer.clone(), Some(dist), &[("PAYSITE_FIRST_SCREEN", "false")]).await;
    let home = page(&off, VIXEN, "/", PHONE, None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.first_screen().is_none(), "switched off");
    assert_eq!(home.headers[header::VARY], "Cookie");
    assert!(home.headers.get("accept-ch").is_none());
    s.cleanup().await;
}
