//! The gateway's sign-in routes (gateway/src/session.rs) and the profile service together,
//! over real HTTP: login on the members host, the callback and cookies on the brand host,
//! refresh, logout, autologin, the cross-site switch, the failed-login limit through the
//! proxy, cookie flags and the CSRF rule. (findOneUserProfile and the abilities through the
//! gateway need every owner of the profile's facts: gateway/tests/profile_facts.rs.)

mod support;

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use gateway::{graphql::Upstreams, GatewayConfig, GatewayState};
use reqwest::header;
use serde_json::{json, Value};
use support::{form_body, TestEnv, PASSWORD};

struct Gateway {
    addr: SocketAddr,
    state: GatewayState,
    http: reqwest::Client,
    dist: PathBuf,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dist);
    }
}

/// The gateway with its real router, its profile client pointed at `env`'s service.
async fn gateway(env: &TestEnv, brand_origin: &str, members_origin: &str) -> Gateway {
    let dist = std::env::temp_dir().join(format!("profile-gw-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><html><head></head><body></body></html>").unwrap();
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config/tenants");
    let (brand, members, dist_dir) = (brand_origin.to_owned(), members_origin.to_owned(), dist.clone());
    let config = GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => Some(tenants.to_str().unwrap().to_owned()),
        "PAYSITE_DIST_DIR" => Some(dist_dir.to_str().unwrap().to_owned()),
        "PAYSITE_BRAND_ORIGIN" => Some(brand.clone()),
        "PAYSITE_MEMBERS_ORIGIN" => Some(members.clone()),
        _ => None,
    })
    .unwrap();
    let base = env.base.clone();
    let upstreams =
        Upstreams::with_base(move |name, _| if name == "profile" { base.clone() } else { "http://127.0.0.1:9".into() });
    let state = GatewayState::with(&config, Arc::new(upstreams), env.state.signer.verifier()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway::serve(listener, state.clone(), std::future::pending()));
    let http = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    Gateway { addr, state, http, dist }
}

impl Gateway {
    fn request(&self, method: reqwest::Method, host: &str, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("http://{}{path}", self.addr)).header(header::HOST, host)
    }

    fn get(&self, host: &str, path: &str) -> reqwest::RequestBuilder {
        self.request(reqwest::Method::GET, host, path)
    }

    fn post(&self, host: &str, path: &str) -> reqwest::RequestBuilder {
        self.request(reqwest::Method::POST, host, path)
    }

    /// The login form on the members host, posted: the 303 to the brand host's callback.
    async fn login(&self, members: &str, uri: &str, login: &str, password: &str, address: &str) -> reqwest::Response {
        let form = self
            .get(members, &format!("/oidc/login?uri={}", profile::sessions::encode_component(uri)))
            .send()
            .await
            .unwrap();
        assert_eq!(form.status(), 200);
        assert!(form.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
        let csrf_cookie = form.headers()[header::SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
        let csrf = csrf_cookie.split_once('=').unwrap().1.to_owned();
        let page = form.text().await.unwrap();
        assert!(page.contains(r#"<label for="username">"#) && page.contains(r#"<label for="password">"#));
        self.post(members, "/oidc/login")
            .header(header::COOKIE, csrf_cookie)
            .header("x-forwarded-for", address)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form_body(&[("username", login), ("password", password), ("uri", uri), ("csrf", &csrf)]))
            .send()
            .await
            .unwrap()
    }

    /// Signs in on `brand` through members host and callback; answers the callback's response.
    async fn sign_in(&self, members: &str, brand_origin: &str, brand_host: &str, login: &str) -> reqwest::Response {
        let response = self.login(members, &format!("{brand_origin}/videos?page=2"), login, PASSWORD, "10.0.0.1").await;
        assert_eq!(response.status(), 303);
        let location = response.headers()[header::LOCATION].to_str().unwrap().to_owned();
        assert!(location.starts_with(&format!("{brand_origin}/oidc/callback?code=")), "{location}");
        let path = &location[brand_origin.len()..];
        self.get(brand_host, path).send().await.unwrap()
    }
}

fn set_cookies(response: &reqwest::Response) -> Vec<String> {
    response.headers().get_all(header::SET_COOKIE).iter().map(|v| v.to_str().unwrap().to_owned()).collect()
}

fn cookie_value(cookies: &[String], name: &str) -> Option<String> {
    cookies.iter().find_map(|c| c.split(';').next()?.strip_prefix(&format!("{name}=")).map(str::to_owned))
}

fn cookie_header(cookies: &[String]) -> String {
    cookies.iter().map(|c| c.split(';').next().unwrap()).collect::<Vec<_>>().join("; ")
}

#[tokio::test]
async fn login_on_the_members_host_redirects_and_the_brand_host_sets_its_cookies() {
    let env = TestEnv::new().await;
    let jane = env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let callback =
        gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", "vixen.localhost:8080", "jane").await;
    assert_eq!(callback.status(), 302);
    assert_eq!(callback.headers()[header::LOCATION], "/videos?page=2");
    let cookies = set_cookies(&callback);
    assert_eq!(cookies.len(), 2, "{cookies:?}");
    for c in &cookies {
        // Plain-http development: no __Host- prefix and no Secure (docs/decisions/).
        assert!(c.contains("; Path=/; HttpOnly; SameSite=Lax; Max-Age="), "{c}");
        assert!(!c.contains("Secure"), "{c}");
    }
    let access = cookie_value(&cookies, "paysite_at").unwrap();
    assert!(cookie_value(&cookies, "paysite_rt").is_some());

    // The gateway knows the user from the access cookie, on this host only.
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(header::COOKIE, format!("paysite_at={access}").parse().unwrap());
    let vixen = gw.state.sites().resolve("vixen.localhost").unwrap();
    let (claims, _) = gateway::session::current_user(&gw.state, &vixen, &headers).await.unwrap();
    assert_eq!(claims.sub, jane);
    let tushy = gw.state.sites().resolve("tushy.localhost").unwrap();
    assert!(gateway::session::current_user(&gw.state, &tushy, &headers).await.is_none());

    // A code is single use: the same callback again goes to the login page.
    let members_login = gw.get("vixen.localhost:8080", "/oidc/callback?code=nope&uri=%2Faccount").send().await.unwrap();
    assert_eq!(members_login.status(), 302);
    assert_eq!(
        members_login.headers()[header::LOCATION],
        "http://members.localhost:8080/oidc/login?uri=http%3A%2F%2Fvixen.localhost%3A8080%2Faccount"
    );
    // The login pages live on the members host only.
    assert_eq!(gw.get("vixen.localhost:8080", "/oidc/login").send().await.unwrap().status(), 404);
    env.cleanup().await;
}

#[tokio::test]
async fn on_https_hosts_the_cookies_are_host_prefixed_and_secure() {
    let env = TestEnv::with_brand_origin("https://www.{brand}.test").await;
    env.account("jane").await;
    let gw = gateway(&env, "https://www.{brand}.test", "https://members.{brand}.test").await;
    let callback = gw.sign_in("members.vixen.test", "https://www.vixen.test", "www.vixen.test", "jane").await;
    assert_eq!(callback.status(), 302);
    let cookies = set_cookies(&callback);
    for name in ["__Host-paysite_at", "__Host-paysite_rt"] {
        let c = cookies.iter().find(|c| c.starts_with(&format!("{name}="))).unwrap_or_else(|| panic!("{cookies:?}"));
        assert!(c.contains("; Path=/; HttpOnly; SameSite=Lax;") && c.ends_with("; Secure"), "{c}");
        assert!(!c.contains("Domain"), "{c}");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn refresh_rotates_the_cookies_and_a_reused_refresh_cookie_ends_the_session() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let host = "vixen.localhost:8080";
    let first = set_cookies(&gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await);
    for path in ["/api/refresh", "/refresh"] {
        assert_eq!(gw.get(host, path).send().await.unwrap().status(), 401, "no cookie: {path}");
    }
    let refreshed = gw.get(host, "/api/refresh").header(header::COOKIE, cookie_header(&first)).send().await.unwrap();
    assert_eq!(refreshed.status(), 200);
    let second = set_cookies(&refreshed);
    assert_ne!(cookie_value(&second, "paysite_rt"), cookie_value(&first, "paysite_rt"));
    // Another tab with the first cookie at the same moment: retry later, the cookies are kept.
    let racing = gw.get(host, "/api/refresh").header(header::COOKIE, cookie_header(&first)).send().await.unwrap();
    assert_eq!(racing.status(), 409);
    assert!(set_cookies(&racing).is_empty(), "the winner's cookies stay");
    assert_eq!(racing.json::<Value>().await.unwrap(), json!({ "error": "refresh_in_progress" }));
    let third =
        set_cookies(&gw.get(host, "/refresh").header(header::COOKIE, cookie_header(&second)).send().await.unwrap());
    assert!(cookie_value(&third, "paysite_rt").is_some());

    // The first refresh cookie again: the family is revoked, the browser's cookies cleared.
    let reuse = gw.get(host, "/api/refresh").header(header::COOKIE, cookie_header(&first)).send().await.unwrap();
    assert_eq!(reuse.status(), 401);
    let cleared = set_cookies(&reuse);
    assert!(cleared.iter().all(|c| c.contains("Max-Age=0")), "{cleared:?}");
    assert_eq!(reuse.json::<Value>().await.unwrap(), json!({ "error": "invalid_grant" }));
    let after = gw.get(host, "/api/refresh").header(header::COOKIE, cookie_header(&third)).send().await.unwrap();
    assert_eq!(after.status(), 401);
    env.cleanup().await;
}

/// The page's bootstrap user, as the gateway inlined it.
fn bootstrap_user(html: &str) -> Value {
    let start =
        html.find(r#"type="application/json">"#).expect("the bootstrap script") + r#"type="application/json">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str::<Value>(&html[start..end]).unwrap()["user"].clone()
}

#[tokio::test]
async fn a_page_load_with_a_lapsed_access_token_renews_the_session_before_the_page_is_built() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let host = "vixen.localhost:8080";
    let signed_in =
        set_cookies(&gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await);
    // The browser dropped the access cookie at its Max-Age; the refresh cookie lives on.
    let refresh_only: Vec<String> = signed_in.iter().filter(|c| c.starts_with("paysite_rt=")).cloned().collect();
    let page =
        gw.get(host, "/videos?page=2").header(header::COOKIE, cookie_header(&refresh_only)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let renewed = set_cookies(&page);
    assert!(cookie_value(&renewed, "paysite_at").is_some_and(|t| !t.is_empty()), "{renewed:?}");
    assert_ne!(cookie_value(&renewed, "paysite_rt"), cookie_value(&refresh_only, "paysite_rt"), "rotated");
    assert_eq!(page.headers()[header::CACHE_CONTROL], "no-store");
    assert_eq!(bootstrap_user(&page.text().await.unwrap())["isAuthenticated"], json!(true));

    // The renewed cookies are the session from now on: the next page needs no renewal.
    let next = gw.get(host, "/").header(header::COOKIE, cookie_header(&renewed)).send().await.unwrap();
    assert!(set_cookies(&next).is_empty());
    assert_eq!(bootstrap_user(&next.text().await.unwrap())["isAuthenticated"], json!(true));

    // Another tab loading with the cookie just rotated: the page is left to the browser's refresh.
    let racing = gw.get(host, "/").header(header::COOKIE, cookie_header(&refresh_only)).send().await.unwrap();
    assert!(set_cookies(&racing).is_empty(), "the winner's cookies stay");

    // The session signed out: its refresh cookie alone gives a visitor's page and clears the cookies.
    let out = gw
        .post(host, "/logout")
        .header(header::COOKIE, cookie_header(&renewed))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    let renewed_refresh: Vec<String> = renewed.iter().filter(|c| c.starts_with("paysite_rt=")).cloned().collect();
    let dead = gw.get(host, "/").header(header::COOKIE, cookie_header(&renewed_refresh)).send().await.unwrap();
    assert_eq!(dead.status(), 200);
    assert!(set_cookies(&dead).iter().all(|c| c.contains("Max-Age=0")), "{:?}", set_cookies(&dead));
    assert_eq!(bootstrap_user(&dead.text().await.unwrap())["isAuthenticated"], json!(false));

    // No cookie at all: a visitor, and nothing set.
    let visitor = gw.get(host, "/").send().await.unwrap();
    assert!(set_cookies(&visitor).is_empty());
    env.cleanup().await;
}

#[tokio::test]
async fn logout_needs_the_csrf_rule_and_ends_the_session() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let host = "vixen.localhost:8080";
    let cookies = set_cookies(&gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await);
    let refused = gw.post(host, "/logout").header(header::COOKIE, cookie_header(&cookies)).send().await.unwrap();
    assert_eq!(refused.status(), 403);
    let out = gw
        .post(host, "/logout")
        .header(header::COOKIE, cookie_header(&cookies))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    assert!(set_cookies(&out).iter().all(|c| c.contains("Max-Age=0")));
    let dead = gw.get(host, "/api/refresh").header(header::COOKIE, cookie_header(&cookies)).send().await.unwrap();
    assert_eq!(dead.status(), 401);

    // Logout everywhere ends the sessions on other hosts too.
    let a = set_cookies(&gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await);
    let b = set_cookies(
        &gw.sign_in("members.localhost:8080", "http://tushy.localhost:8080", "tushy.localhost:8080", "jane").await,
    );
    // A link without the browser's word that it started here is refused.
    let unmarked =
        gw.get(host, "/logout?everywhere=true").header(header::COOKIE, cookie_header(&a)).send().await.unwrap();
    assert_eq!(unmarked.status(), 403);
    let link = gw
        .get(host, "/logout?everywhere=true")
        .header(header::COOKIE, cookie_header(&a))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!((link.status().as_u16(), link.headers()[header::LOCATION].to_str().unwrap()), (302, "/"));
    let other =
        gw.get("tushy.localhost:8080", "/api/refresh").header(header::COOKIE, cookie_header(&b)).send().await.unwrap();
    assert_eq!(other.status(), 401);
    // Another site cannot start a logout with a link.
    let cross = gw.get(host, "/logout").header("sec-fetch-site", "cross-site").send().await.unwrap();
    assert_eq!(cross.status(), 403);
    env.cleanup().await;
}

#[tokio::test]
async fn an_autologin_link_signs_in_once() {
    let env = TestEnv::new().await;
    let jane = env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let issued = profile::client::ProfileClient::new(&env.base).issue_autologin(jane, "vixen").await.unwrap();
    let path = format!("/?al_token={}&notification=upgradesuccess&fatr=true", issued.al_token);
    let first = gw.get("vixen.localhost:8080", &path).send().await.unwrap();
    assert_eq!(first.status(), 302);
    assert_eq!(first.headers()[header::LOCATION], "/?notification=upgradesuccess&fatr=true");
    assert_eq!(set_cookies(&first).len(), 2);
    let second = gw.get("vixen.localhost:8080", &path).send().await.unwrap();
    assert_eq!(second.status(), 302);
    assert!(set_cookies(&second).is_empty(), "a used token signs nobody in");
    // Home without a token is the page.
    assert_eq!(gw.get("vixen.localhost:8080", "/").send().await.unwrap().status(), 200);
    env.cleanup().await;
}

#[tokio::test]
async fn the_cross_site_switch_lands_signed_in_on_the_other_brand() {
    let env = TestEnv::new().await;
    let jane = env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let host = "vixen.localhost:8080";
    // Signed out, outside the members area, an authenticated route is not found (product.md, "Route errors and the error screen").
    let anonymous = gw.get(host, "/xsite/tushy").send().await.unwrap();
    assert_eq!(anonymous.status(), 404);
    let cookies = set_cookies(&gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await);
    let switch = gw
        .get(host, "/xsite/tushy?deeplink=%2Fvideos")
        .header(header::COOKIE, cookie_header(&cookies))
        .send()
        .await
        .unwrap();
    assert_eq!(switch.status(), 302);
    let location = switch.headers()[header::LOCATION].to_str().unwrap().to_owned();
    let path = location.strip_prefix("http://tushy.localhost:8080").unwrap_or_else(|| panic!("{location}"));
    let landed = gw.get("tushy.localhost:8080", path).send().await.unwrap();
    assert_eq!((landed.status().as_u16(), landed.headers()[header::LOCATION].to_str().unwrap()), (302, "/videos"));
    let access = cookie_value(&set_cookies(&landed), "paysite_at").unwrap();
    let claims = env.state.verifier.verify_for(&access, "tushy.localhost").await.unwrap();
    assert_eq!((claims.sub, claims.tenant.as_str()), (jane, "tushy"));
    env.cleanup().await;
}

#[tokio::test]
async fn the_sixth_failed_login_through_the_members_host_is_429() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    for attempt in 1..=5 {
        let r = gw.login("members.localhost:8080", "/", "jane", "Wrong12345", "192.0.2.7").await;
        assert_eq!(r.status(), 401, "attempt {attempt}");
        assert!(r.text().await.unwrap().contains("Invalid username or password."));
    }
    let sixth = gw.login("members.localhost:8080", "/", "jane", PASSWORD, "192.0.2.7").await;
    assert_eq!(sixth.status(), 429);
    env.cleanup().await;
}

#[tokio::test]
async fn a_state_change_without_the_csrf_header_or_with_a_simple_body_is_refused() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let host = "vixen.localhost:8080";
    let cookies = cookie_header(&set_cookies(
        &gw.sign_in("members.localhost:8080", "http://vixen.localhost:8080", host, "jane").await,
    ));
    let body = r#"{"emailConsent":true,"consentHtmlSnippet":"<p>ok</p>"}"#;
    for (content_type, csrf) in [
        ("application/json", false),
        ("text/plain", true),
        ("application/x-www-form-urlencoded", true),
        ("multipart/form-data; boundary=x", true),
    ] {
        let mut request = gw
            .post(host, "/v2/user/email-consent")
            .header(header::COOKIE, &cookies)
            .header(header::CONTENT_TYPE, content_type)
            .body(body);
        if csrf {
            request = request.header("x-paysite-csrf", "1");
        }
        assert_eq!(request.send().await.unwrap().status(), 403, "{content_type} csrf={csrf}");
    }
    let ok = gw
        .post(host, "/v2/user/email-consent")
        .header(header::COOKIE, &cookies)
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.json::<Value>().await.unwrap(), json!({ "hasEmailConsent": true }));
    // Without a session: 401.
    let anonymous = gw
        .post(host, "/v2/user/email-consent")
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    // The VIP form answers the code as the message.
    let vip = gw
        .post(host, "/subscriptions/vip-user-credentials")
        .header(header::COOKIE, &cookies)
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body(r#"{"newEmail":"me@example.com","newPassword":"Mine12345"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(vip.status(), 422);
    assert_eq!(vip.json::<Value>().await.unwrap(), json!({ "message": "NOT_A_VIP_USER" }));
    env.cleanup().await;
}

#[tokio::test]
async fn dot_segments_through_the_members_proxy_never_reach_the_internal_api() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let env = TestEnv::new().await;
    let victim = env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    let body = format!(r#"{{"userId":"{victim}","site":"vixen"}}"#);
    for path in ["/oidc/%2e%2e/internal/autologin-tokens", "/oidc/../internal/autologin-tokens", "/oidc/./login"] {
        // Raw HTTP: a client library would resolve the dot segments before sending.
        let mut stream = tokio::net::TcpStream::connect(gw.addr).await.unwrap();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: members.localhost:8080\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {}", answer.lines().next().unwrap_or_default());
        assert!(!answer.contains("alToken"), "{path}");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn a_forged_forwarded_for_does_not_escape_the_per_address_limit() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await;
    // Five failures on five different accounts, each claiming another address: the gateway
    // is not behind a trusted proxy, so they all count against the one peer address.
    for i in 1..=5 {
        let r = gw
            .login("members.localhost:8080", "/", &format!("nobody{i}"), "Wrong12345", &format!("198.51.100.{i}"))
            .await;
        assert_eq!(r.status(), 401, "attempt {i}");
    }
    let r = gw.login("members.localhost:8080", "/", "jane", PASSWORD, "203.0.113.9").await;
    assert_eq!(r.status(), 429);
    env.cleanup().await;
}

#[tokio::test]
async fn parallel_guesses_get_no_more_than_the_limit() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let gw = Arc::new(gateway(&env, "http://{brand}.localhost:8080", "http://members.localhost:8080").await);
    let attempts = (0..20).map(|_| {
        let gw = gw.clone();
        tokio::spawn(async move {
            gw.login("members.localhost:8080", "/", "jane", "Wrong12345", "192.0.2.7").await.status()
        })
    });
    let statuses: Vec<u16> =
        futures::future::join_all(attempts).await.into_iter().map(|s| s.unwrap().as_u16()).collect();
    let guessed = statuses.iter().filter(|s| **s == 401).count();
    assert_eq!(guessed, 5, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 15, "{statuses:?}");
    env.cleanup().await;
}
