//! `paysite up` starts every service and the gateway, answers on loopback only, stops cleanly,
//! and survives hostile documents, as does a production-mode gateway in front of it.

mod support;

use std::{
    io::ErrorKind,
    net::{IpAddr, SocketAddr, TcpStream},
    process::{Command, Stdio},
    time::Duration,
};

use support::{stop, Up};

#[tokio::test]
async fn up_serves_every_service_and_the_brands_on_loopback_only_and_stops_cleanly_on_sigterm() {
    let mut up = Up::start("paysite_test_up", &[]);
    let (gateway, gateway_ops, services, ops) =
        (up.gateway.clone(), up.gateway_ops, up.services.clone(), up.ops.clone());
    let wallet_ops = ops.iter().find(|(name, _)| name == "wallet ops").map(|(_, a)| format!("http://{a}")).unwrap();
    assert!(services.len() >= 7, "the banner lists every service: {services:?}");
    let client = runtime::tls::client();
    up.ready("wallet").await;
    let page = client.get(format!("http://{gateway}/videos")).header("host", "vixen.localhost").send().await.unwrap();
    assert_eq!(page.status(), 200);
    let unknown = client.get(format!("http://{gateway}/")).header("host", "elsewhere.example").send().await.unwrap();
    assert_eq!(unknown.status(), 400);
    assert_eq!(unknown.text().await.unwrap(), "Received unexpected host string");

    // The operations routes are on their own listeners: not on a brand host, nor on a service's API.
    let metrics = client.get(format!("http://{gateway_ops}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    for path in ["/metrics", "/readyz", "/healthz"] {
        let on_brand = client.get(format!("http://{gateway}{path}")).header("host", "vixen.localhost").send().await;
        assert_eq!(on_brand.unwrap().status(), 404, "{path} on a brand host");
    }
    let wallet = services.iter().find(|(name, _)| name == "wallet").map(|(_, a)| *a).unwrap();
    assert_eq!(client.get(format!("http://{wallet}/metrics")).send().await.unwrap().status(), 404);
    assert_eq!(client.get(format!("{wallet_ops}/metrics")).send().await.unwrap().status(), 200);

    // Every service and the gateway answer on loopback, and on no other address of the machine.
    let mut listening = services.clone();
    listening.extend(ops.iter().cloned());
    listening.push(("gateway".to_owned(), gateway.parse().unwrap()));
    listening.push(("gateway ops".to_owned(), gateway_ops));
    let others = non_loopback_addresses();
    assert!(!others.is_empty(), "this machine has no address but loopback to try (`ip -o addr`)");
    for (name, addr) in &listening {
        assert!(addr.ip().is_loopback(), "{name} listens on {addr}");
        assert!(TcpStream::connect_timeout(addr, Duration::from_secs(2)).is_ok(), "{name} answers on {addr}");
        for ip in &others {
            let there = SocketAddr::new(*ip, addr.port());
            match TcpStream::connect_timeout(&there, Duration::from_secs(2)) {
                Ok(_) => panic!("{name} answers on {there}"),
                Err(e) => assert_eq!(e.kind(), ErrorKind::ConnectionRefused, "{name} on {there}: {e}"),
            }
        }
    }

    let exit = up.stop();
    assert!(exit.success(), "paysite up exited with {exit}");
}

/// Hostile documents, each with the code it must be refused with (the whole list of shapes,
/// generated, is gateway/tests/hostile_documents.rs; these are the ones that crashed or could).
fn hostile_documents() -> Vec<(&'static str, serde_json::Value, &'static str)> {
    use serde_json::json;
    let chain = |n: usize| {
        let mut text = String::from("{ ...F0 }\n");
        for i in 0..n {
            text.push_str(&format!("fragment F{i} on QueryRoot {{ ...F{} }}\n", i + 1));
        }
        text + &format!("fragment F{n} on QueryRoot {{ __typename }}")
    };
    let lists = |before: &str| {
        format!("{{ videoAccess(videoIds: [{before}{}\"v\"{}]) {{ videoId }} }}", "[".repeat(500), "]".repeat(500))
    };
    let cycle = "query { ...A } fragment A on QueryRoot { ...B } fragment B on QueryRoot { ...A }";
    let self_spread = "query { ...A } fragment A on QueryRoot { a: __typename ...A }";
    let hash = {
        use sha2::Digest;
        sha2::Sha256::digest(self_spread.as_bytes()).iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let persisted = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    vec![
        ("a cycle of two", json!({ "query": cycle }), "GRAPHQL_VALIDATION_FAILED"),
        ("a self-spread", json!({ "query": self_spread }), "GRAPHQL_VALIDATION_FAILED"),
        (
            "a cycle inside nested fields",
            json!({ "query": "{ a { b { ...A } } } fragment A on QueryRoot { c { ...A } }" }),
            "GRAPHQL_VALIDATION_FAILED",
        ),
        (
            "a cycle through inline fragments",
            json!({ "query": "{ ... on QueryRoot { ...A } } fragment A on QueryRoot { ... on QueryRoot { ... { ...A } } }" }),
            "GRAPHQL_VALIDATION_FAILED",
        ),
        ("a chain of 10,000 fragments", json!({ "query": chain(10_000) }), "REQUEST_TOO_LARGE"),
        ("a chain of 1,500 fragments", json!({ "query": chain(1_500) }), "QUERY_TOO_LARGE"),
        ("a chain of 60 fragments", json!({ "query": chain(60) }), "QUERY_TOO_DEEP"),
        ("lists 500 deep", json!({ "query": lists("") }), "QUERY_TOO_DEEP"),
        ("lists 500 deep after four quotes", json!({ "query": lists("\"\"\"\", ") }), "QUERY_TOO_DEEP"),
        (
            "a cycle in a batch",
            json!([{ "query": "{ tenantConfig }" }, { "query": cycle }]),
            "GRAPHQL_VALIDATION_FAILED",
        ),
        (
            "a persisted cycle, registered",
            json!({ "query": self_spread, "extensions": persisted }),
            "GRAPHQL_VALIDATION_FAILED",
        ),
        ("a persisted cycle, by its hash", json!({ "extensions": persisted }), "GRAPHQL_VALIDATION_FAILED"),
    ]
}

/// Sends every hostile document to the gateway at `base`, then a listing: each refusal has its
/// code, and the listing is answered.
async fn survives_hostile_documents(client: &reqwest::Client, base: &str, what: &str) {
    let post = |body: &serde_json::Value| {
        client
            .post(format!("{base}/graphql"))
            .header("host", "vixen.localhost")
            .header("x-paysite-csrf", "1")
            .json(body)
            .send()
    };
    for (name, body, code) in hostile_documents() {
        // An answer at all is what is checked (a walk without a bound never answers); how fast
        // is `paysite bench refusals`' to measure.
        let answer = tokio::time::timeout(Duration::from_secs(30), post(&body))
            .await
            .unwrap_or_else(|_| panic!("{what}: {name}: no answer within 30 s"))
            .unwrap_or_else(|e| panic!("{what}: {name}: no answer: {e}"));
        let answer: serde_json::Value = answer.json().await.unwrap();
        // A batch's refused operation is its last.
        let refused = if answer.is_array() { answer.as_array().unwrap().last().unwrap().clone() } else { answer };
        assert_eq!(refused["errors"][0]["extensions"]["code"], code, "{what}: {name}: {refused}");
    }
    let listing =
        serde_json::json!({ "query": "{ videos(page: 1, size: 12) { totalCount page videos { uuid title } } }" });
    let answer: serde_json::Value = post(&listing).await.expect("the listing is answered").json().await.unwrap();
    assert!(answer.get("errors").is_none() && answer["data"]["videos"]["page"] == 1, "{what}: {answer}");
}

#[tokio::test]
async fn hostile_documents_leave_the_product_and_a_production_gateway_answering() {
    let key = runtime::auth::ServiceKey::generate().to_base64();
    let key = key.expose().to_owned();
    let mut up = Up::start("paysite_test_hostile", &[("PAYSITE_SERVICE_KEY", &key)]);
    up.ready("catalog").await;
    let client = runtime::tls::client();
    survives_hostile_documents(&client, &format!("http://{}", up.gateway), "paysite up").await;

    // A production gateway of its own, in front of the same services and with their key. With
    // automatic persisted queries kept on (the operators' switch): by default production refuses
    // any document but the front end's before the engine sees it (DOCUMENT_NOT_REGISTERED,
    // gateway/tests/persisted.rs and the rehearsal), and this is where the engine's own guards
    // face hostile text in production.
    let free_port = || std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let (addr, ops) = (format!("127.0.0.1:{}", free_port()), format!("127.0.0.1:{}", free_port()));
    let urls: Vec<(String, String)> = up
        .services
        .iter()
        .map(|(name, a)| (format!("PAYSITE_{}_URL", name.to_uppercase().replace('-', "_")), format!("http://{a}")))
        .collect();
    let mut production = Command::new(env!("CARGO_BIN_EXE_paysite"))
        .args(["serve", "gateway"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("PAYSITE_ENV", "production")
        .env("PAYSITE_GRAPHQL_APQ", "true")
        .env("PAYSITE_SERVICE_KEY", &key)
        .env("AMQP_URL", &up.vhost.url)
        .env("PAYSITE_EXCHANGE", &up.exchange)
        .env("PAYSITE_ADDR", &addr)
        .env("PAYSITE_OPS_ADDR", &ops)
        .env("RUST_LOG", "warn")
        .envs(urls)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let ready = async {
        while !client.get(format!("http://{ops}/readyz")).send().await.is_ok_and(|r| r.status() == 200) {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), ready).await.expect("the production gateway became ready");
    survives_hostile_documents(&client, &format!("http://{addr}"), "a production gateway").await;
    assert!(production.try_wait().unwrap().is_none(), "the production gateway is still running");
    assert!(up.child.try_wait().unwrap().is_none(), "paysite up is still running");
    let exit = stop(&mut production, "the production gateway");
    assert!(exit.success(), "the production gateway exited with {exit}");
    let exit = up.stop();
    assert!(exit.success(), "paysite up exited with {exit}");
}

/// The machine's addresses other than loopback and link-local ones, from `ip -o addr`.
fn non_loopback_addresses() -> Vec<IpAddr> {
    let out = Command::new("ip").args(["-o", "addr"]).output().expect("`ip` (iproute2) lists the addresses");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace().skip_while(|w| *w != "inet" && *w != "inet6");
            words.next()?;
            words.next()?.split('/').next()?.parse::<IpAddr>().ok()
        })
        .filter(|ip| match ip {
            IpAddr::V4(v4) => !v4.is_loopback() && !v4.is_link_local() && !v4.is_unspecified(),
            IpAddr::V6(v6) => !v6.is_loopback() && (v6.segments()[0] & 0xffc0) != 0xfe80 && !v6.is_unspecified(),
        })
        .collect()
}
