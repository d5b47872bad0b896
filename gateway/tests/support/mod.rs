//! A gateway on 127.0.0.1:0 over the repository's tenants, its upstream services chosen by
//! the test, and access tokens signed by the test's key.
#![allow(dead_code)]

use std::{path::PathBuf, sync::Arc, time::Duration};

use gateway::{graphql::Upstreams, GatewayConfig, GatewayState};
use reqwest::{header, StatusCode};
use runtime::auth::{Claims, Signer};
use serde_json::Value;
use uuid::Uuid;

pub struct Gateway {
    pub base: String,
    pub client: reqwest::Client,
    pub signer: Signer,
    pub state: GatewayState,
}

pub async fn spawn(upstreams: Upstreams) -> Gateway {
    spawn_with(upstreams, Signer::generate("test")).await
}

pub async fn spawn_with(upstreams: Upstreams, signer: Signer) -> Gateway {
    spawn_serving(upstreams, signer, None).await
}

/// A dist directory with a bare `index.html`, for tests that read the page's inline session.
pub fn bare_dist() -> PathBuf {
    let dist = std::env::temp_dir().join(format!("gateway-test-dist-{}", std::process::id()));
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><html><head></head><body></body></html>").unwrap();
    dist
}

/// As [`spawn_with`], serving the SPA's page from `dist` when given.
pub async fn spawn_serving(upstreams: Upstreams, signer: Signer, dist: Option<PathBuf>) -> Gateway {
    spawn_configured(upstreams, signer, dist, &[]).await
}

/// As [`spawn_serving`], with more of the gateway's settings (`PAYSITE_GRAPHQL_APQ`, ...).
pub async fn spawn_configured(
    upstreams: Upstreams,
    signer: Signer,
    dist: Option<PathBuf>,
    settings: &[(&str, &str)],
) -> Gateway {
    let tenants = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let dist = dist.map_or_else(|| "/nonexistent".to_owned(), |d| d.to_str().unwrap().to_owned());
    let config = GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => Some(tenants.to_str().unwrap().to_owned()),
        "PAYSITE_DIST_DIR" => Some(dist.clone()),
        _ => settings.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned()),
    })
    .unwrap();
    let state = GatewayState::with(&config, Arc::new(upstreams), signer.verifier()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway::serve(listener, state.clone(), std::future::pending()));
    Gateway { base: format!("http://{addr}"), client: runtime::tls::client(), signer, state }
}

pub fn nowhere() -> Upstreams {
    Upstreams::with_base(|_, _| "http://127.0.0.1:9".to_owned())
}

impl Gateway {
    pub fn token(&self, user: Uuid, host: &str, tenant: &str) -> String {
        self.token_in(user, host, tenant, &[])
    }

    pub fn token_in(&self, user: Uuid, host: &str, tenant: &str, groups: &[&str]) -> String {
        let groups = groups.iter().map(|g| (*g).to_owned()).collect();
        let claims = Claims::new(user, host, tenant, Uuid::now_v7(), groups, Duration::from_secs(300));
        self.signer.sign(&claims)
    }

    pub async fn post(&self, host: &str, body: Value, cookie: Option<&str>) -> (StatusCode, Value) {
        let mut request = self
            .client
            .post(format!("{}/graphql", self.base))
            .header(header::HOST, host)
            .header("x-paysite-csrf", "1")
            .json(&body);
        if let Some(token) = cookie {
            request = request.header(header::COOKIE, format!("paysite_at={token}"));
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        (status, response.json().await.unwrap())
    }
}

impl Gateway {
    /// A GET of `/graphql` with this query string (already encoded), the CSRF header when
    /// `csrf`, and the access token when given: the status, the headers and the body.
    pub async fn get(
        &self,
        host: &str,
        query: &str,
        csrf: bool,
        cookie: Option<&str>,
    ) -> (StatusCode, header::HeaderMap, Value) {
        let mut request = self.client.get(format!("{}/graphql?{query}", self.base)).header(header::HOST, host);
        if csrf {
            request = request.header("x-paysite-csrf", "1");
        }
        if let Some(token) = cookie {
            request = request.header(header::COOKIE, format!("paysite_at={token}"));
        }
        let response = request.send().await.unwrap();
        let (status, headers) = (response.status(), response.headers().clone());
        (status, headers, response.json().await.unwrap())
    }
}

/// The query string of a GET naming a persisted document by `hash`, as Apollo's
/// `PersistedQueryLink` sends it.
pub fn persisted_get(operation: &str, hash: &str, variables: &Value) -> String {
    let extensions = serde_json::json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    form_urlencoded::Serializer::new(String::new())
        .append_pair("operationName", operation)
        .append_pair("variables", &variables.to_string())
        .append_pair("extensions", &extensions.to_string())
        .finish()
}

/// The front end's registered document of `operation` (frontend/src/gql/persisted-documents.json):
/// its hash and text.
pub fn registered(operation: &str) -> (String, String) {
    let manifest: std::collections::HashMap<String, String> =
        serde_json::from_str(include_str!("../../../frontend/src/gql/persisted-documents.json")).unwrap();
    let needle = [format!("query {operation}("), format!("query {operation} "), format!("mutation {operation}(")];
    manifest
        .into_iter()
        .find(|(_, text)| needle.iter().any(|n| text.contains(n.as_str())))
        .unwrap_or_else(|| panic!("no registered document {operation}"))
}

/// The start of a body, for failure messages.
pub fn short(body: &Value) -> String {
    body.to_string().chars().take(400).collect()
}

pub fn codes(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .map(|errors| errors.iter().map(|e| e["extensions"]["code"].as_str().unwrap_or("").to_owned()).collect())
        .unwrap_or_default()
}
pub mod content;
pub mod stack;
