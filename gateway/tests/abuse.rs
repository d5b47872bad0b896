//! Abuse resistance at the real gateway: security headers on every answer, and the per-address rate
//! limits on `/graphql` and the sign-in form (429 with Retry-After).

mod support;

use std::{path::PathBuf, sync::Arc};

use gateway::{
    rate_limits::RateLimits,
    security_headers::{CONTENT_SECURITY_POLICY, STRICT_TRANSPORT_SECURITY},
    GatewayConfig, GatewayState,
};
use reqwest::header;
use runtime::{
    auth::Signer,
    throttle::{Rate, Throttle},
};
use serde_json::json;
use support::{bare_dist, nowhere};

/// A gateway with `limits`, the given extra configuration, serving a bare SPA page.
async fn spawn(limits: RateLimits, extra: &[(&str, &str)]) -> String {
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let dist = bare_dist();
    std::fs::write(dist.join("assets/app.js"), "console.log(1)").unwrap();
    let extra: Vec<(String, String)> = extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let config = GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => Some(tenants.to_str().unwrap().to_owned()),
        "PAYSITE_DIST_DIR" => Some(dist.to_str().unwrap().to_owned()),
        other => extra.iter().find(|(k, _)| k == other).map(|(_, v)| v.clone()),
    })
    .unwrap();
    let state = GatewayState::with(&config, Arc::new(nowhere()), Signer::generate("test").verifier())
        .unwrap()
        .with_rate_limits(limits);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway::serve(listener, state, std::future::pending()));
    format!("http://{addr}")
}

fn limits(graphql_burst: u32, login_burst: u32) -> RateLimits {
    RateLimits {
        graphql: Throttle::new(Some(Rate { per_minute: 60, burst: graphql_burst })),
        login: Throttle::new(Some(Rate { per_minute: 60, burst: login_burst })),
    }
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_hsts_only_on_https() {
    let base = spawn(RateLimits::off(), &[]).await;
    let http = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let graphql = http
        .post(format!("{base}/graphql"))
        .header(header::HOST, "vixen.localhost:8080")
        .header("x-paysite-csrf", "1")
        .json(&json!({ "query": "{ tenantConfig }" }));
    let answers = [
        http.get(format!("{base}/")).header(header::HOST, "vixen.localhost:8080").send().await.unwrap(),
        http.get(format!("{base}/assets/app.js")).header(header::HOST, "vixen.localhost:8080").send().await.unwrap(),
        http.get(format!("{base}/no-such-page")).header(header::HOST, "tushy.localhost:8080").send().await.unwrap(),
        http.get(format!("{base}/")).header(header::HOST, "members.localhost:8080").send().await.unwrap(),
        graphql.send().await.unwrap(),
    ];
    for answer in &answers {
        let h = answer.headers();
        let url = answer.url().to_string();
        assert_eq!(h[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY, "{url}");
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{url}");
        assert_eq!(h[header::REFERRER_POLICY], "strict-origin-when-cross-origin", "{url}");
        assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{url}");
        assert!(h.get(header::STRICT_TRANSPORT_SECURITY).is_none(), "http origin: {url}");
        // The adult label, for filters that read the header of any URL.
        assert_eq!(h["rating"], "RTA-5042-1996-1400-1577-RTA", "{url}");
    }
    assert_eq!(answers[0].status(), 200);
    assert_eq!(answers[1].status(), 200);
    // And in the head of every brand's page, as a crawler reads it.
    let mut answers = answers.into_iter();
    for (brand, page) in [("vixen", answers.next().unwrap()), ("tushy", answers.nth(1).unwrap())] {
        let html = page.text().await.unwrap();
        let head = &html[..html.find("</head>").expect("a head")];
        assert!(head.contains(r#"<meta name="RATING" content="RTA-5042-1996-1400-1577-RTA" />"#), "{brand}: {head}");
    }

    let base = spawn(
        RateLimits::off(),
        &[("PAYSITE_BRAND_ORIGIN", "https://www.{brand}.com"), ("PAYSITE_MEMBERS_ORIGIN", "https://members.vixen.com")],
    )
    .await;
    let page = http.get(format!("{base}/")).header(header::HOST, "www.vixen.com").send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()[header::STRICT_TRANSPORT_SECURITY], STRICT_TRANSPORT_SECURITY);
}

#[tokio::test]
async fn graphql_past_an_addresss_burst_is_429_with_retry_after_and_other_addresses_go_on() {
    let base = spawn(limits(5, 100), &[("PAYSITE_TRUST_FORWARDED_FOR", "true")]).await;
    let http = runtime::tls::client();
    let ask = |address: &'static str| {
        http.post(format!("{base}/graphql"))
            .header(header::HOST, "vixen.localhost:8080")
            .header("x-paysite-csrf", "1")
            .header("x-forwarded-for", address)
            .json(&json!({ "query": "{ tenantConfig }" }))
            .send()
    };
    for n in 0..5 {
        assert_eq!(ask("203.0.113.1").await.unwrap().status(), 200, "request {n}");
    }
    let refused = ask("203.0.113.1").await.unwrap();
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait), "{wait}");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "RATE_LIMITED");
    // Another client behind the same trusted proxy is not held.
    assert_eq!(ask("203.0.113.2").await.unwrap().status(), 200);
}

#[tokio::test]
async fn sign_in_forms_past_an_addresss_burst_are_429_before_reaching_the_login_pages() {
    let base = spawn(limits(100, 3), &[]).await;
    let http = runtime::tls::client();
    let send = || {
        http.post(format!("{base}/oidc/login"))
            .header(header::HOST, "members.localhost:8080")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body("username=a&password=b&uri=%2F&csrf=x")
            .send()
    };
    for _ in 0..3 {
        // The profile service is not running here: passed on, the form gets 503.
        assert_eq!(send().await.unwrap().status(), 503);
    }
    let refused = send().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key(header::RETRY_AFTER));
    assert!(refused.text().await.unwrap().starts_with("Too many requests."));
    // The login page itself (GET) is not counted.
    let page = http.get(format!("{base}/oidc/login")).header(header::HOST, "members.localhost:8080").send().await;
    assert_ne!(page.unwrap().status(), 429);
}
