//! Persisted documents over real HTTP: a query named by its hash by GET, a mutation POSTed,
//! APQ registration while it is on, and nothing but the front end's documents while it is off
//! (production's default).

mod support;

use reqwest::StatusCode;
use runtime::auth::Signer;
use serde_json::{json, Value};
use support::{codes, nowhere, persisted_get, registered, spawn, spawn_configured};

const HOST: &str = "vixen.localhost:8080";

#[tokio::test]
async fn a_query_is_a_get_of_its_hash_and_a_mutation_is_not() {
    let gw = spawn(nowhere()).await;
    let (hash, _) = registered("TenantConfig");
    let query = persisted_get("TenantConfig", &hash, &json!({}));
    let (status, _, body) = gw.get(HOST, &query, true, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");

    // Without the CSRF header a page of another site could ask (and a member's answer is theirs).
    let (status, _, body) = gw.get(HOST, &query, false, None).await;
    assert_eq!((status, codes(&body)), (StatusCode::FORBIDDEN, vec!["CSRF_CHECK_FAILED".to_owned()]));

    let (join, _) = registered("Join");
    let (status, headers, body) = gw.get(HOST, &persisted_get("Join", &join, &json!({})), true, None).await;
    assert_eq!((status, codes(&body)), (StatusCode::METHOD_NOT_ALLOWED, vec!["METHOD_NOT_ALLOWED".to_owned()]));
    assert_eq!(headers["allow"], "POST");

    let text = form_urlencoded::Serializer::new(String::new()).append_pair("query", "{ tenantConfig }").finish();
    let (status, _, body) = gw.get(HOST, &text, true, None).await;
    assert_eq!((status, codes(&body)), (StatusCode::BAD_REQUEST, vec!["BAD_REQUEST".to_owned()]), "{body}");

    let long = format!("{query}&pad={}", "x".repeat(9000));
    let (status, _, body) = gw.get(HOST, &long, true, None).await;
    assert_eq!((status, codes(&body)), (StatusCode::URI_TOO_LONG, vec!["REQUEST_TOO_LARGE".to_owned()]));

    // The same hash POSTed is answered the same.
    let extensions = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    let (status, body) =
        gw.post(HOST, json!({ "operationName": "TenantConfig", "extensions": extensions }), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");

    let put = gw.client.put(format!("{}/graphql", gw.base)).header("host", HOST).send().await.unwrap();
    assert_eq!(put.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(put.headers()["allow"], "GET, POST");
}

#[tokio::test]
async fn with_apq_on_an_unknown_hash_asks_for_its_text_once() {
    let gw = spawn(nowhere()).await;
    let text = "query Mine { tenantConfig }";
    let hash = gateway::graphql::persisted::hash_of(text);
    let query = persisted_get("Mine", &hash, &json!({}));
    let (_, _, body) = gw.get(HOST, &query, true, None).await;
    assert_eq!(codes(&body), ["PERSISTED_QUERY_NOT_FOUND"], "{body}");
    assert_eq!(body["errors"][0]["message"], "PersistedQueryNotFound");
    let extensions = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    let (_, body) = gw.post(HOST, json!({ "query": text, "extensions": extensions }), None).await;
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
    let (status, _, body) = gw.get(HOST, &query, true, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
}

#[tokio::test]
async fn with_apq_off_only_the_front_ends_documents_are_executed() {
    let gw = spawn_configured(nowhere(), Signer::generate("test"), None, &[("PAYSITE_GRAPHQL_APQ", "false")]).await;
    assert!(!gw.state.documents.apq());
    let refused = |body: &Value| codes(body) == ["DOCUMENT_NOT_REGISTERED"];

    // Any text of its own, even a harmless one, and a hash the build does not have.
    let (status, body) = gw.post(HOST, json!({ "query": "{ tenantConfig }" }), None).await;
    assert!(status == StatusCode::OK && refused(&body), "{status} {body}");
    let text = "query Mine { tenantConfig }";
    let hash = gateway::graphql::persisted::hash_of(text);
    let extensions = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    let (_, body) = gw.post(HOST, json!({ "query": text, "extensions": extensions }), None).await;
    assert!(refused(&body), "{body}");
    let (_, _, body) = gw.get(HOST, &persisted_get("Mine", &hash, &json!({})), true, None).await;
    assert!(refused(&body), "registering is off: {body}");

    // The front end's own: by hash (GET), and by its exact text (POST).
    let (hash, text) = registered("TenantConfig");
    let (_, _, body) = gw.get(HOST, &persisted_get("TenantConfig", &hash, &json!({})), true, None).await;
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
    let (_, body) = gw.post(HOST, json!({ "query": text }), None).await;
    assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");

    // In a batch, each operation on its own.
    let batch = json!([{ "query": text }, { "query": "{ tenantConfig }" }]);
    let (_, body) = gw.post(HOST, batch, None).await;
    assert_eq!(body[0]["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
    assert!(refused(&body[1]), "{body}");
}
