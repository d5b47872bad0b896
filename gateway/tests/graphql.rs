//! The GraphQL door over real HTTP: CSRF, abuse limits with clear codes, the signed-in user
//! from the session cookie, and a wallet query answered by the real wallet service.

mod support;

use std::time::Duration;

use gateway::graphql::Upstreams;
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use support::{codes, nowhere, short, spawn};
use uuid::Uuid;

#[tokio::test]
async fn the_tenant_config_follows_the_host_and_unknown_hosts_are_refused() {
    let gw = spawn(nowhere()).await;
    let (status, body) = gw.post("blacked.localhost:8080", json!({"query": "{ tenantConfig }"}), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "blacked");
    let response = gw
        .client
        .post(format!("{}/graphql", gw.base))
        .header(header::HOST, "evil.test")
        .header("x-paysite-csrf", "1")
        .json(&json!({"query": "{ tenantConfig }"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(response.text().await.unwrap(), "Received unexpected host string");
}

#[tokio::test]
async fn requests_without_json_or_the_custom_header_are_refused() {
    let gw = spawn(nowhere()).await;
    let url = format!("{}/graphql", gw.base);
    let query = r#"{"query":"mutation { acknowledgeNewGemsBalance { lastAcknowledgementDate } }"}"#;
    let cases: Vec<(&str, Option<&str>)> = vec![
        ("application/json", None),
        ("text/plain", Some("1")),
        ("application/x-www-form-urlencoded", Some("1")),
        ("multipart/form-data; boundary=x", Some("1")),
    ];
    for (content_type, csrf) in cases {
        let mut request = gw
            .client
            .post(&url)
            .header(header::HOST, "vixen.localhost:8080")
            .header(header::CONTENT_TYPE, content_type)
            .body(query);
        if let Some(value) = csrf {
            request = request.header("x-paysite-csrf", value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{content_type} {csrf:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(codes(&body), ["CSRF_CHECK_FAILED"]);
    }
    // A GET (a persisted query's hash) needs the header too; other methods are not GraphQL.
    let get = gw.client.get(&url).header(header::HOST, "vixen.localhost:8080").send().await.unwrap();
    assert_eq!(get.status(), StatusCode::FORBIDDEN);
    let delete = gw.client.delete(&url).header(header::HOST, "vixen.localhost:8080").send().await.unwrap();
    assert_eq!(delete.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn abusive_documents_are_refused_quickly_with_a_code() {
    let gw = spawn(nowhere()).await;
    let host = "vixen.localhost:8080";
    let started = std::time::Instant::now();

    let deep = format!("{{ {}tenantConfig{} }}", "__typename ... on QueryRoot { ".repeat(50), " }".repeat(50));
    let (_, body) = gw.post(host, json!({ "query": deep }), None).await;
    assert!(codes(&body).iter().any(|c| c == "QUERY_TOO_DEEP" || c == "GRAPHQL_VALIDATION_FAILED"), "{body}");

    let aliases: String = (0..2000).map(|i| format!("a{i}: tenantConfig ")).collect();
    let (_, body) = gw.post(host, json!({ "query": format!("{{ {aliases} }}") }), None).await;
    assert_eq!(codes(&body), ["QUERY_TOO_LARGE"], "{}", short(&body));
    let aliases: String = (0..60).map(|i| format!("a{i}: tenantConfig ")).collect();
    let (_, body) = gw.post(host, json!({ "query": format!("{{ {aliases} }}") }), None).await;
    assert_eq!(codes(&body), ["TOO_MANY_ALIASES"], "{}", short(&body));

    let batch: Vec<Value> = (0..100).map(|_| json!({"query": "{ __typename }"})).collect();
    let (status, body) = gw.post(host, Value::Array(batch), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(codes(&body), ["BATCH_TOO_LARGE"]);

    let directives = "@include(if: true) ".repeat(10_000);
    let (status, body) = gw.post(host, json!({ "query": format!("{{ tenantConfig {directives} }}") }), None).await;
    assert!(
        status == StatusCode::PAYLOAD_TOO_LARGE || codes(&body) == ["TOO_MANY_DIRECTIVES"],
        "{status} {}",
        short(&body)
    );
    let directives = "@include(if: true) ".repeat(100);
    let (_, body) = gw.post(host, json!({ "query": format!("{{ tenantConfig {directives} }}") }), None).await;
    assert_eq!(codes(&body), ["TOO_MANY_DIRECTIVES"], "{body}");

    let (_, body) = gw.post(host, json!({ "query": "{ nope" }), None).await;
    assert_eq!(codes(&body), ["GRAPHQL_PARSE_FAILED"], "{body}");
    let (_, body) = gw.post(host, json!({ "query": "{ noSuchField }" }), None).await;
    assert_eq!(codes(&body), ["GRAPHQL_VALIDATION_FAILED"], "{body}");

    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
}

/// `fragment F{k} on QueryRoot { ...F{k-1} ...F{k-1} }`, the operation spreading the last:
/// about 40 bytes a level, 2^levels spreads once expanded.
fn fragment_explosion(levels: u32) -> String {
    let mut query = format!("query Boom {{ ...F{levels} }}\nfragment F0 on QueryRoot {{ __typename }}\n");
    for k in 1..=levels {
        query.push_str(&format!("fragment F{k} on QueryRoot {{ ...F{j} ...F{j} }}\n", j = k - 1));
    }
    query
}

#[tokio::test]
async fn a_fragment_explosion_is_refused_before_it_is_expanded() {
    let gw = spawn(nowhere()).await;
    let host = "vixen.localhost:8080";
    for levels in [10, 20, 30] {
        let query = fragment_explosion(levels);
        assert!(query.len() < 1_500, "{} bytes", query.len());
        let started = std::time::Instant::now();
        let (status, body) = gw.post(host, json!({ "query": query }), None).await;
        println!("2^{levels} spreads ({} bytes): refused in {:?}", query.len(), started.elapsed());
        assert_eq!(status, StatusCode::OK);
        assert_eq!(codes(&body), ["QUERY_TOO_COMPLEX"], "{}", short(&body));
        assert!(body["data"].is_null(), "{body}");
    }
    // A page's shape: a fragment used twice, aliases, an inline fragment.
    let (status, body) = gw
        .post(
            host,
            json!({ "query": "query Page { a: tenantConfig ...T ...T ... on QueryRoot { b: tenantConfig } } \
                              fragment T on QueryRoot { __typename }" }),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.get("errors").is_none(), "{body}");
    assert_eq!(body["data"]["a"]["tenant"], "vixen", "{body}");
}

/// Every operation of the browser (frontend/src/**/*.graphql, fragments shared across files)
/// stays under the document limits.
#[test]
fn the_browsers_operations_stay_under_the_limits() {
    fn graphql_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("gql") && !path.ends_with("node_modules") {
                    graphql_files(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "graphql") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    graphql_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/src"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let all: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap() + "\n").collect();
    let parsed = async_graphql::parser::parse_query(&all).expect("the browser's documents parse");
    let mut operations = 0;
    for (name, operation) in parsed.operations.iter() {
        let mut alone = parsed.clone();
        alone.operations = async_graphql::parser::types::DocumentOperations::Single(operation.clone());
        gateway::graphql::cost::check_document(&alone).unwrap_or_else(|r| panic!("{name:?}: {r:?}"));
        operations += 1;
    }
    assert!(operations > 10);
    for file in &files {
        gateway::graphql::cost::check_text(&std::fs::read_to_string(file).unwrap()).unwrap();
    }
}

#[tokio::test]
async fn a_small_batch_runs_every_operation() {
    let gw = spawn(nowhere()).await;
    let batch: Vec<Value> = (0..3).map(|_| json!({"query": "{ __typename }"})).collect();
    let (status, body) = gw.post("vixen.localhost:8080", Value::Array(batch), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn user_queries_need_a_session_for_this_host() {
    let gw = spawn(nowhere()).await;
    let query = json!({"query": "{ getGemsBalance { wallet { balance { amount } } } }"});
    let (_, body) = gw.post("vixen.localhost:8080", query.clone(), None).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{body}");
    // A token for another brand's host is not a session here.
    let token = gw.token(Uuid::now_v7(), "blacked.localhost", "blacked");
    let (_, body) = gw.post("vixen.localhost:8080", query.clone(), Some(&token)).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{body}");
    // The right host's token passes the door; the wallet is down, which is masked.
    let token = gw.token(Uuid::now_v7(), "vixen.localhost", "vixen");
    let (_, body) = gw.post("vixen.localhost:8080", query, Some(&token)).await;
    assert_eq!(codes(&body), ["SERVICE_UNAVAILABLE"], "{body}");
    assert!(!body.to_string().contains("127.0.0.1"), "internals leak: {body}");
}

#[tokio::test]
async fn the_wallet_answers_through_the_gateway() {
    let scratch = runtime::testing::Scratch::new(&[("wallet", &wallet::MIGRATIONS)], 4).await;
    let state = wallet::State::new(
        scratch.pool.clone(),
        scratch.store.clone(),
        wallet::WalletConfig { weekly_gems: 15, ..wallet::WalletConfig::from_env().unwrap() },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let upstreams = Upstreams::with_base(|name, _| match name {
        "wallet" => format!("http://{addr}"),
        _ => "http://127.0.0.1:9".to_owned(),
    });
    let gw = spawn(upstreams).await;
    // The wallet checks the tokens the gateway forwards with the profile keys the gateway trusts.
    let state = state.with_verifier(gw.signer.verifier());
    tokio::spawn(async move { axum::serve(listener, wallet::router(state)).await.unwrap() });
    let user = Uuid::now_v7();
    let token = gw.token(user, "vixen.localhost", "vixen");
    let query = json!({"query": "{ getGemsBalance { daysUntilRefreshGems weeklyGems wallet { balance { amount } } } getTransactions { amount } }"});
    let (status, body) = gw.post("vixen.localhost:8080", query, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.get("errors").is_none(), "{body}");
    assert_eq!(body["data"]["getGemsBalance"]["wallet"]["balance"]["amount"], 0);
    assert_eq!(body["data"]["getGemsBalance"]["weeklyGems"], 15, "the wallet's configured amount");
    let days = body["data"]["getGemsBalance"]["daysUntilRefreshGems"].as_u64().unwrap();
    assert!((1..=7).contains(&days), "{days}");
    assert_eq!(body["data"]["getTransactions"], json!([]));

    let ack = json!({"query": "mutation { acknowledgeNewGemsBalance { lastAcknowledgementDate } }"});
    let (_, body) = gw.post("vixen.localhost:8080", ack, Some(&token)).await;
    assert!(body["data"]["acknowledgeNewGemsBalance"]["lastAcknowledgementDate"].is_string(), "{body}");
    scratch.cleanup().await;
}
