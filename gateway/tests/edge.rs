//! The gateway over real HTTP: hosts, the SPA's page and assets, 301 and 404 at the edge.

use std::{net::SocketAddr, path::PathBuf};

use gateway::{GatewayConfig, GatewayState};
use reqwest::{header, redirect::Policy, StatusCode};
use serde_json::Value;

const INDEX_HTML: &str = "<!doctype html>\n<html lang=\"en\">\n<head>\n<title>fake spa</title>\n\
<script type=\"module\" src=\"/assets/index-Ab12Cd.js\"></script>\n</head>\n<body><div id=\"root\"></div></body>\n</html>\n";
const ASSET: &str = "console.log('fake spa')";
const FAVICON: &[u8] = b"\x00\x00\x01\x00fake icon";

const BRANDS: [&str; 10] =
    ["blacked", "blackedraw", "tushy", "tushyraw", "vixen", "deeper", "slayed", "milfy", "vixenplus", "wifey"];

struct TestGateway {
    addr: SocketAddr,
    /// The operations listener (`PAYSITE_OPS_ADDR`): `/healthz`, `/readyz`, `/metrics`.
    ops: SocketAddr,
    client: reqwest::Client,
    _dist: tempfile::TempDir,
}

/// Given a gateway on 127.0.0.1:0 over the repository's tenants and a dist directory holding a fake
/// index.html and one hashed asset.
async fn spawn_gateway() -> TestGateway {
    spawn_gateway_with(&[]).await
}

/// The same with more settings (`PAYSITE_ERROR_REPORTING`, …).
async fn spawn_gateway_with(settings: &[(&str, &str)]) -> TestGateway {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), INDEX_HTML).unwrap();
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/index-Ab12Cd.js"), ASSET).unwrap();
    std::fs::write(dist.path().join("favicon.ico"), FAVICON).unwrap();
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let dist_dir = dist.path().to_str().unwrap().to_owned();
    let config = GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => Some(tenants.to_str().unwrap().to_owned()),
        "PAYSITE_DIST_DIR" => Some(dist_dir.clone()),
        other => settings.iter().find(|(k, _)| *k == other).map(|(_, v)| (*v).to_owned()),
    })
    .unwrap();
    let state = GatewayState::load(&config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway::serve(listener, state, std::future::pending()));
    let mut ops_tasks = tokio::task::JoinSet::new();
    let cancel = tokio_util::sync::CancellationToken::new();
    let ops = runtime::http::serve_ops("127.0.0.1:0".parse().unwrap(), gateway::readiness(), cancel, &mut ops_tasks)
        .await
        .unwrap();
    ops_tasks.detach_all();
    let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();
    TestGateway { addr, ops, client, _dist: dist }
}

impl TestGateway {
    /// GET `path` as the browser on `host` asks for it.
    async fn get(&self, host: &str, path: &str) -> reqwest::Response {
        self.client.get(format!("http://{}{path}", self.addr)).header(header::HOST, host).send().await.unwrap()
    }

    /// GET `path` from the operations listener, as a probe or the scrape does.
    async fn ops(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("http://{}{path}", self.ops)).send().await.unwrap()
    }
}

fn brand_host(brand: &str) -> String {
    format!("{brand}.localhost:8080")
}

/// The session the page carries in `<script id="paysite-bootstrap" type="application/json">`.
fn bootstrap(html: &str) -> Value {
    let open = "<script id=\"paysite-bootstrap\" type=\"application/json\">";
    let start = html.find(open).unwrap_or_else(|| panic!("no bootstrap in {html}")) + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[tokio::test]
async fn every_brand_host_serves_its_own_tenant() {
    let gw = spawn_gateway().await;
    for brand in BRANDS {
        let response = gw.get(&brand_host(brand), "/").await;
        assert_eq!(response.status(), StatusCode::OK, "{brand}");
        let session = bootstrap(&response.text().await.unwrap());
        assert_eq!(session["tenant"]["tenant"], brand);
        assert_eq!(session["tenant"]["site"], brand.to_uppercase());
        assert_eq!(session["tenant"]["tourUrl"], format!("http://{brand}.localhost:8080"));
        assert_eq!(session["tenant"]["membersUrl"], "http://members.localhost:8080");
        assert_eq!(session["isMembersArea"], false);
    }
}

#[tokio::test]
async fn the_host_is_matched_without_port_or_case() {
    let gw = spawn_gateway().await;
    for host in ["VIXEN.Localhost:8080", "vixen.localhost", "vixen.localhost:3000"] {
        let response = gw.get(host, "/videos").await;
        assert_eq!(response.status(), StatusCode::OK, "{host}");
        assert_eq!(bootstrap(&response.text().await.unwrap())["tenant"]["tenant"], "vixen");
    }
}

#[tokio::test]
async fn an_unknown_host_is_a_400_with_the_spec_error() {
    let gw = spawn_gateway().await;
    for (host, path) in
        [("nope.localhost:8080", "/"), ("127.0.0.1", "/videos"), ("evil.test", "/assets/index-Ab12Cd.js")]
    {
        let response = gw.get(host, path).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{host}{path}");
        assert_eq!(response.text().await.unwrap(), "Received unexpected host string");
    }
}

#[tokio::test]
async fn the_operations_routes_answer_on_the_operations_listener() {
    let gw = spawn_gateway().await;
    assert_eq!(gw.ops("/healthz").await.status(), StatusCode::OK);
    let ready = gw.ops("/readyz").await;
    assert_eq!(ready.status(), StatusCode::OK);
    assert_eq!(ready.json::<Value>().await.unwrap()["status"], "ready");
    // The first /metrics installs the recorder; then a page is served and timed.
    assert_eq!(gw.ops("/metrics").await.status(), StatusCode::OK);
    assert_eq!(gw.get(&brand_host("vixen"), "/api/tenant-config").await.status(), StatusCode::OK);
    let metrics = gw.ops("/metrics").await.text().await.unwrap();
    // A histogram (buckets, not a summary's quantiles), by route template and status.
    assert!(metrics.contains("# TYPE paysite_http_request_duration_seconds histogram"), "{metrics}");
    assert!(
        metrics.lines().any(|l| l.starts_with("paysite_http_request_duration_seconds_bucket")
            && l.contains("service=\"gateway\"")
            && l.contains("route=\"/api/tenant-config\"")
            && l.contains("status=\"200\"")
            && l.contains("le=\"0.005\"")),
        "{metrics}"
    );
}

#[tokio::test]
async fn the_operations_routes_are_not_served_on_brand_hosts_nor_the_brand_port() {
    let gw = spawn_gateway().await;
    for host in [brand_host("vixen"), brand_host("tushy"), "members.localhost:8080".to_owned()] {
        for path in ["/metrics", "/readyz", "/healthz"] {
            let answer = gw.get(&host, path).await;
            assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{host}{path}");
            assert!(!answer.text().await.unwrap().contains("# TYPE"), "{host}{path}");
        }
    }
    // Nor on the pod's address at the brand port: that port is the edge's, which knows only brand hosts.
    assert_eq!(gw.get("10.0.0.7:8080", "/metrics").await.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_permanent_moves_are_301_with_their_location() {
    let gw = spawn_gateway().await;
    let moves = [
        ("/models", "/performers"),
        ("/models?order=name&page=2", "/performers?order=name&page=2"),
        ("/models/jane-doe", "/performers/jane-doe"),
        ("/models/jane-doe?page=3", "/performers/jane-doe"),
        ("/categories/big-city", "/search?search=big-city"),
        ("/reels", "/quickies"),
        ("/reels/0190c0de-7e57-7000-8000-000000000001", "/quickies/0190c0de-7e57-7000-8000-000000000001"),
        ("/favorites/models", "/favorites/performers"),
        ("/Models/", "/performers"),
    ];
    for (from, to) in moves {
        let response = gw.get(&brand_host("tushy"), from).await;
        assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(response.headers()[header::LOCATION], to, "{from}");
    }
}

#[tokio::test]
async fn a_path_outside_the_table_is_404_with_the_spas_page() {
    let gw = spawn_gateway().await;
    for path in ["/nope", "/videos/a/b", "/favorites/models/x", "/index.html"] {
        let response = gw.get(&brand_host("deeper"), path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
        let html = response.text().await.unwrap();
        assert!(html.contains("src=\"/assets/index-Ab12Cd.js\""), "the SPA's page: {html}");
        assert!(html.contains("<title>Page Not Found – DEEPER</title>") && !html.contains("fake spa"), "{html}");
        assert_eq!(bootstrap(&html)["tenant"]["tenant"], "deeper");
    }
}

#[tokio::test]
async fn an_invalid_slug_is_404_with_the_spas_page() {
    let gw = spawn_gateway().await;
    for path in ["/videos/Bad_Slug", "/models/-x", "/categories/a--b", "/channels/ok/packs/NO", "/trailer/a%20b"] {
        let response = gw.get(&brand_host("vixen"), path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(bootstrap(&response.text().await.unwrap())["tenant"]["tenant"], "vixen");
    }
}

#[tokio::test]
async fn a_route_of_the_table_is_200_with_the_session_of_its_tenant() {
    let gw = spawn_gateway().await;
    let response = gw.get(&brand_host("tushy"), "/videos/some-video?page=2").await;
    assert_eq!(response.status(), StatusCode::OK);
    let html = response.text().await.unwrap();
    // The catalog cannot be reached here: the page of an unnamed video says only whose site it is.
    assert!(html.contains("<title>TUSHY</title>") && !html.contains("fake spa"), "{html}");
    let session = bootstrap(&html);
    assert_eq!(session["tenant"]["tenant"], "tushy");
    assert_eq!(session["tenant"]["abbreviation"], "tsh");
    assert_eq!(session["tenant"]["offerPageId"], 2);
    assert_eq!(session["tenant"]["api"]["host"], "http://tushy.localhost:8080/api");
    assert_eq!(session["tenant"]["multisiteSiteIds"], serde_json::json!([900, 110]));
    assert_eq!(session["tenant"]["paginationListSizes"], serde_json::json!({"large": 6, "medium": 4, "small": 3}));
    // A visitor: no profile, and the visitor's abilities on tushy from the access rules.
    let visitor = access::abilities(&access::UserFacts::anonymous("tushy"), &tushy_features());
    assert!(!visitor.is_empty());
    assert_eq!(
        session["user"],
        serde_json::json!({"isAuthenticated": false, "abilities": visitor, "profile": null, "welcome": {}})
    );
    assert_eq!(session["isMembersArea"], false);
}

fn tushy_features() -> tenants::Features {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/tenants/tushy.json");
    let tenant: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    serde_json::from_value(tenant["features"].clone()).unwrap()
}

#[tokio::test]
async fn a_tenant_feature_that_is_off_makes_its_route_404() {
    let gw = spawn_gateway().await;
    // vixen shows angels; tushy does not.
    assert_eq!(gw.get(&brand_host("vixen"), "/angels").await.status(), StatusCode::OK);
    assert_eq!(gw.get(&brand_host("tushy"), "/angels").await.status(), StatusCode::NOT_FOUND);
    // tushyraw has no reels: the old path still moves, the new one is not found.
    assert_eq!(gw.get(&brand_host("tushyraw"), "/reels").await.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(gw.get(&brand_host("tushyraw"), "/quickies").await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_members_host_is_the_members_area() {
    let gw = spawn_gateway().await;
    let response = gw.get("members.localhost:8080", "/joinnow").await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = bootstrap(&response.text().await.unwrap());
    assert_eq!(session["isMembersArea"], true);
    assert_eq!(session["tenant"]["tenant"], "vixenplus");
    assert_eq!(session["tenant"]["api"]["host"], "http://members.localhost:8080/api");
}

#[tokio::test]
async fn assets_are_immutable_and_the_page_is_revalidated() {
    let gw = spawn_gateway().await;
    let asset = gw.get(&brand_host("milfy"), "/assets/index-Ab12Cd.js").await;
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(asset.headers()[header::CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert!(asset.headers()[header::CONTENT_TYPE].to_str().unwrap().contains("javascript"));
    assert_eq!(asset.text().await.unwrap(), ASSET);

    let missing = gw.get(&brand_host("milfy"), "/assets/index-Gone00.js").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.headers()[header::CACHE_CONTROL], "no-cache");

    for path in ["/", "/performers", "/nope"] {
        let page = gw.get(&brand_host("milfy"), path).await;
        assert_eq!(page.headers()[header::CACHE_CONTROL], "private, no-cache", "{path}");
        // The home page carries its first screen, planned from the viewport the browser says it has too.
        let vary = if path == "/" { gateway::first_screen::VARY } else { "Cookie" };
        assert_eq!(page.headers()[header::VARY], vary, "{path}");
    }
}

#[tokio::test]
async fn the_favicon_is_served_by_name_and_cached_for_a_day() {
    let gw = spawn_gateway().await;
    for host in [brand_host("blacked"), "members.localhost:8080".to_owned()] {
        let icon = gw.get(&host, "/favicon.ico").await;
        assert_eq!(icon.status(), StatusCode::OK, "{host}");
        assert_eq!(icon.headers()[header::CACHE_CONTROL], "public, max-age=86400");
        assert_eq!(icon.bytes().await.unwrap().as_ref(), FAVICON);
    }
}

#[tokio::test]
async fn the_tenant_configuration_is_served_as_json() {
    let gw = spawn_gateway().await;
    let response = gw.get(&brand_host("slayed"), "/api/tenant-config").await;
    assert_eq!(response.status(), StatusCode::OK);
    let tenant: Value = response.json().await.unwrap();
    assert_eq!(tenant["tenant"], "slayed");
    assert_eq!(tenant["abbreviation"], "sl");
    assert_eq!(tenant["features"]["healthWarning"]["US-TX"]["regionName"], "Texas");

    let unknown = gw.get(&brand_host("slayed"), "/api/nothing-here").await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert_eq!(unknown.headers()[header::CONTENT_TYPE], "application/json");
}

#[tokio::test]
async fn every_answer_carries_a_correlation_id() {
    let gw = spawn_gateway().await;
    for (host, path) in
        [("wifey.localhost", "/"), ("wifey.localhost", "/models"), ("nope.localhost", "/"), ("x", "/healthz")]
    {
        let response = gw.get(host, path).await;
        assert!(response.headers().contains_key("x-correlation-id"), "{host}{path}");
    }
}

#[tokio::test]
async fn only_get_and_head_reach_the_pages() {
    let gw = spawn_gateway().await;
    let url = format!("http://{}/videos", gw.addr);
    let post = gw.client.post(&url).header(header::HOST, brand_host("vixen")).send().await.unwrap();
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    let head = gw.client.head(&url).header(header::HOST, brand_host("vixen")).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_signup_result_pages_carry_the_welcome_data_and_keep_it_for_an_hour() {
    let gw = spawn_gateway().await;
    let host = brand_host("vixen");
    let response = gw
        .get(&host, "/_signupsuccess?memberid=EP-9&hashedMemberId=abc&username=new+joiner&siteId=3&isTrial=true")
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let set_cookie = response.headers()[header::SET_COOKIE].to_str().unwrap().to_owned();
    assert!(set_cookie.starts_with("paysite_welcome=") && set_cookie.contains("HttpOnly"), "{set_cookie}");
    let welcome = bootstrap(&response.text().await.unwrap())["user"]["welcome"].clone();
    assert_eq!(
        welcome,
        serde_json::json!({ "memberid": "EP-9", "hashedMemberId": "abc", "username": "new joiner", "siteId": 3,
                            "isTrial": true })
    );

    // A later page of the same signup, without the query, has it from the cookie.
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let later = gw
        .client
        .get(format!("http://{}/_upgrademembership", gw.addr))
        .header(header::HOST, &host)
        .header(header::COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert!(later.headers().get(header::SET_COOKIE).is_none());
    assert_eq!(bootstrap(&later.text().await.unwrap())["user"]["welcome"], welcome);

    // Other pages never carry it, whatever their query says.
    let other = gw
        .client
        .get(format!("http://{}/videos?memberid=EP-9&username=x", gw.addr))
        .header(header::HOST, &host)
        .header(header::COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert!(other.headers().get(header::SET_COOKIE).is_none());
    assert_eq!(bootstrap(&other.text().await.unwrap())["user"]["welcome"], serde_json::json!({}));

    // A decline's reason reaches signup denied.
    let denied = gw.get(&host, "/_signupdenial?siteId=3&reason=Card+expired").await;
    assert_eq!(bootstrap(&denied.text().await.unwrap())["user"]["welcome"]["reason"], "Card expired");
}

#[tokio::test]
async fn analytics_events_are_checked_counted_and_refused_when_malformed() {
    let gw = spawn_gateway().await;
    let host = brand_host("vixen");
    // The first /metrics installs the recorder.
    assert_eq!(gw.ops("/metrics").await.status(), StatusCode::OK);
    let post = |body: serde_json::Value, csrf: bool| {
        let mut request = gw
            .client
            .post(format!("http://{}/api/analytics/events", gw.addr))
            .header(header::HOST, &host)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
        if csrf {
            request = request.header("x-paysite-csrf", "1");
        }
        request.send()
    };
    let view = serde_json::json!({ "event": "page_view", "label": "Homepage" });
    assert_eq!(post(view.clone(), true).await.unwrap().status(), StatusCode::NO_CONTENT);
    let leave =
        serde_json::json!({ "event": "leave", "label": "Video", "ref": "video", "elm": "video-player", "to": "join" });
    assert_eq!(post(leave, true).await.unwrap().status(), StatusCode::NO_CONTENT);
    assert_eq!(post(view, false).await.unwrap().status(), StatusCode::FORBIDDEN);
    let unknown = post(serde_json::json!({ "event": "purchase", "label": "Homepage" }), true).await.unwrap();
    assert_eq!(unknown.status(), StatusCode::BAD_REQUEST);
    let nowhere = post(serde_json::json!({ "event": "leave", "label": "Video" }), true).await.unwrap();
    assert_eq!(nowhere.status(), StatusCode::BAD_REQUEST);

    let metrics = gw.ops("/metrics").await.text().await.unwrap();
    let count = |event: &str| {
        metrics
            .lines()
            .find(|l| {
                l.starts_with("paysite_analytics_events_total")
                    && l.contains(&format!("event=\"{event}\""))
                    && l.contains("tenant=\"vixen\"")
            })
            .and_then(|l| l.rsplit(' ').next())
            .map(str::to_owned)
    };
    assert_eq!(count("page_view").as_deref(), Some("1"), "{metrics}");
    assert_eq!(count("leave").as_deref(), Some("1"));
}

fn post_event(gw: &TestGateway, host: &str, body: serde_json::Value, correlation: &str) -> reqwest::RequestBuilder {
    gw.client
        .post(format!("http://{}/api/analytics/events", gw.addr))
        .header(header::HOST, host)
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .header("x-correlation-id", correlation)
        .body(body.to_string())
}

#[tokio::test]
async fn a_reported_error_is_counted_under_the_report_id_the_page_chose() {
    let gw = spawn_gateway().await;
    let host = brand_host("vixen");
    // The first /metrics installs the recorder (asked as the scraper does, on the operations
    // listener: the operations routes are not served on brand hosts).
    assert_eq!(gw.ops("/metrics").await.status(), StatusCode::OK);
    // The page learns that reporting is on from its bootstrap.
    assert_eq!(bootstrap(&gw.get(&host, "/").await.text().await.unwrap())["errorReporting"], true);
    let report_id = "0199a3e4-5b6c-7d8e-9f00-112233445566";
    let error = serde_json::json!({ "event": "error", "label": "Deals",
        "message": "Outgoing upsell - Confirmation link is missing", "path": "/deals" });
    let answer = post_event(&gw, &host, error, report_id).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::NO_CONTENT);
    assert_eq!(answer.headers()["x-correlation-id"], report_id, "logged under the page's report id");
    let malformed = serde_json::json!({ "event": "error", "label": "Deals", "message": "" });
    assert_eq!(post_event(&gw, &host, malformed, report_id).send().await.unwrap().status(), StatusCode::BAD_REQUEST);
    let metrics = gw.ops("/metrics").await.text().await.unwrap();
    assert!(
        metrics.lines().any(|l| l.starts_with("paysite_analytics_events_total")
            && l.contains("event=\"error\"")
            && l.contains("tenant=\"vixen\"")
            && l.ends_with(" 1")),
        "{metrics}"
    );
}

#[tokio::test]
async fn with_reporting_off_the_page_is_told_so_and_an_error_report_is_refused() {
    let gw = spawn_gateway_with(&[("PAYSITE_ERROR_REPORTING", "false")]).await;
    let host = brand_host("tushy");
    assert_eq!(bootstrap(&gw.get(&host, "/").await.text().await.unwrap())["errorReporting"], false);
    let error = serde_json::json!({ "event": "error", "label": "Deals", "message": "boom", "path": "/deals" });
    let answer = post_event(&gw, &host, error, "0199a3e4-5b6c-7d8e-9f00-112233445566").send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::FORBIDDEN);
    assert_eq!(answer.json::<Value>().await.unwrap()["code"], "ERROR_REPORTING_OFF");
}

#[tokio::test]
async fn text_answers_are_compressed_for_browsers_that_accept_it() {
    use std::io::Read;
    let gw = spawn_gateway().await;
    let ask = |encoding: Option<&'static str>| {
        let mut request =
            gw.client.get(format!("http://{}/api/tenant-config", gw.addr)).header(header::HOST, brand_host("vixen"));
        if let Some(e) = encoding {
            request = request.header(header::ACCEPT_ENCODING, e);
        }
        request.send()
    };
    let plain = ask(None).await.unwrap();
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none(), "nothing asked, nothing encoded");
    let plain = plain.bytes().await.unwrap();
    assert!(plain.len() > gateway::compression::MIN_BYTES as usize, "{} bytes", plain.len());

    let gzip = ask(Some("gzip")).await.unwrap();
    assert_eq!(gzip.headers()[header::CONTENT_ENCODING], "gzip");
    assert!(gzip.headers()[header::VARY].to_str().unwrap().to_ascii_lowercase().contains("accept-encoding"));
    let packed = gzip.bytes().await.unwrap();
    assert!(packed.len() < plain.len(), "{} → {}", plain.len(), packed.len());
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&packed[..]).read_to_end(&mut unpacked).unwrap();
    assert_eq!(unpacked, plain);

    let br = ask(Some("br, gzip;q=0.5")).await.unwrap();
    assert_eq!(br.headers()[header::CONTENT_ENCODING], "br");

    // The page too; a small asset goes as it is.
    let page = gw
        .client
        .get(format!("http://{}/videos", gw.addr))
        .header(header::HOST, brand_host("vixen"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers()[header::CONTENT_ENCODING], "gzip");
    let asset = gw
        .client
        .get(format!("http://{}/assets/index-Ab12Cd.js", gw.addr))
        .header(header::HOST, brand_host("vixen"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert!(asset.headers().get(header::CONTENT_ENCODING).is_none());
    assert_eq!(asset.text().await.unwrap(), ASSET);

    // Media is outside the layer: a request that rules out every encoding is never a 406 there
    // (no service runs behind this gateway, so the answer is the proxy's own).
    let media = gw
        .client
        .get(format!("http://{}/media/videos/some-video/1080p.mp4", gw.addr))
        .header(header::HOST, brand_host("vixen"))
        .header(header::ACCEPT_ENCODING, "identity;q=0, zstd")
        .header(header::RANGE, "bytes=0-99")
        .send()
        .await
        .unwrap();
    assert_ne!(media.status(), StatusCode::NOT_ACCEPTABLE);
    assert!(media.headers().get(header::CONTENT_ENCODING).is_none());
}
