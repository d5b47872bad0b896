//! Every internal route of every service, as `paysite up` runs them (real PostgreSQL and
//! RabbitMQ), called by each kind of caller: no token, a service token for another service,
//! another user's token, the right user's token and a service token for the service.
//!
//! The routes come from the services' trust tables (`INTERNAL_ROUTES`, each contract's
//! `routes::ALL`), the very tables their gates enforce; a route a table forgot answers 500 to
//! everyone (`runtime::auth::Gate`), and the test below holds each table equal to the routes
//! its router mounts (`.serve(&routes::NAME, ..)`) and to the routes its contract declares.

mod support;

use std::{
    collections::{BTreeMap, BTreeSet},
    time::Duration,
};

use base64::{engine::general_purpose::STANDARD, Engine};
use reqwest::{Method, StatusCode};
use runtime::auth::{Access, Claims, Route, ServiceKey, Signer, CALLER_FORBIDDEN, SERVICE_TOKEN_TTL, TENANT_HEADER};
use support::Up;
use uuid::Uuid;

/// Each service with an internal API, and its trust table.
fn tables() -> Vec<(&'static str, &'static [Route])> {
    vec![
        (profile::SERVICE.name, profile::http::INTERNAL_ROUTES),
        (subscription::SERVICE.name, subscription::http::INTERNAL_ROUTES),
        (wallet::SERVICE.name, wallet::http::INTERNAL_ROUTES),
        (unlocks::SERVICE.name, unlocks::http::INTERNAL_ROUTES),
        (deals::SERVICE.name, deals::http::INTERNAL_ROUTES),
        (catalog::SERVICE.name, catalog::http::INTERNAL_ROUTES),
    ]
}

/// `paysite up` with the given keys, every service ready; stopped when dropped.
async fn up(service_key: &str, signing_key: &str) -> Up {
    let up = Up::start(
        "paysite_test_trust",
        &[
            ("PAYSITE_SERVICE_KEY", service_key),
            ("PROFILE_SIGNING_KEY", signing_key),
            ("PROFILE_ARGON2_MEMORY_KIB", "256"),
            ("PROFILE_ARGON2_ITERATIONS", "1"),
        ],
    );
    let wanted: Vec<&str> = tables().iter().map(|(name, _)| *name).collect();
    for name in wanted {
        up.ready(name).await;
    }
    up
}

/// `path` with its parameters filled: `{user_id}` is `user`, any other `..._id` a fresh id.
fn concrete(path: &str, user: Uuid) -> String {
    path.split('/')
        .map(|segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some("user_id") => user.to_string(),
            Some(name) if name.ends_with("_id") => Uuid::now_v7().to_string(),
            Some("biller") => "epoch".to_owned(),
            Some("brand") => "vixen".to_owned(),
            Some("kind") => "videos".to_owned(),
            Some(_) => "x".to_owned(),
            None => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

struct Answer {
    status: StatusCode,
    body: String,
}

impl Answer {
    /// The gate's refusal of a verified caller the route is not for.
    fn gate_forbade(&self) -> bool {
        self.status == StatusCode::FORBIDDEN && self.body.contains(CALLER_FORBIDDEN)
    }

    /// Past the gate, into the route's handler: no 401, no gate 403, and the route exists
    /// (no bare 404 or 405, no "missing from the trust table").
    fn admitted(&self) -> bool {
        self.status != StatusCode::UNAUTHORIZED
            && !self.gate_forbade()
            && self.status != StatusCode::METHOD_NOT_ALLOWED
            && !(self.status == StatusCode::NOT_FOUND && self.body.is_empty())
            && !self.body.contains("missing from the trust table")
    }
}

async fn call(client: &reqwest::Client, base: &str, route: &Route, path: &str, token: Option<&str>) -> Answer {
    let mut request = client.request(route.method.clone(), format!("{base}{path}")).header(TENANT_HEADER, "vixen");
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if route.method == Method::POST || route.method == Method::PUT {
        request = request.json(&serde_json::json!({}));
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    Answer { status, body: response.text().await.unwrap_or_default() }
}

#[tokio::test]
async fn every_internal_route_admits_only_the_callers_its_table_names() {
    let (service_seed, signing_seed): ([u8; 32], [u8; 32]) = (rand_seed(), rand_seed());
    let up = up(&STANDARD.encode(service_seed), &STANDARD.encode(signing_seed)).await;
    let key = ServiceKey::from_seed(service_seed);
    let signer = Signer::from_seed(profile::keys::CONFIGURED_KID, signing_seed);
    let user_token = |user: Uuid, groups: Vec<String>| {
        signer.sign(&Claims::new(user, "vixen.localhost", "vixen", Uuid::now_v7(), groups, Duration::from_secs(300)))
    };
    // The right user is an admin, so the operators' routes let them in too.
    let (me, other) = (Uuid::now_v7(), Uuid::now_v7());
    let my_token = user_token(me, vec!["admin".into()]);
    let other_token = user_token(other, vec![]);
    let client = runtime::tls::client_builder().timeout(Duration::from_secs(30)).build().unwrap();

    let mut problems = Vec::new();
    let mut checked = 0;
    for (service, routes) in tables() {
        let base = &up.url(service);
        let elsewhere = if service == "wallet" { "catalog" } else { "wallet" };
        let (for_elsewhere, _) = key.issue("trust-test", elsewhere, SERVICE_TOKEN_TTL);
        let (for_service, _) = key.issue("trust-test", service, SERVICE_TOKEN_TTL);
        let forged = ServiceKey::generate().issue("trust-test", service, SERVICE_TOKEN_TTL).0;
        for route in routes {
            let path = concrete(route.path, me);
            let name = format!("{service} {} {}", route.method, route.path);
            let mut expect = |caller: &str, answer: Answer, ok: bool, wanted: &str| {
                if !ok {
                    problems.push(format!("{name} with {caller}: {} {} (wanted {wanted})", answer.status, answer.body));
                }
            };
            for (caller, token) in [
                ("no token", None),
                ("a service token for another service", Some(for_elsewhere.as_str())),
                ("a service token of another key", Some(forged.as_str())),
            ] {
                let answer = call(&client, base, route, &path, token).await;
                let ok = answer.status == StatusCode::UNAUTHORIZED;
                expect(caller, answer, ok, "401");
            }
            let mine = call(&client, base, route, &path, Some(&my_token)).await;
            let theirs = call(&client, base, route, &path, Some(&other_token)).await;
            let system = call(&client, base, route, &path, Some(&for_service)).await;
            match route.access {
                Access::User => {
                    // The user comes from the token: another user is just another user, who
                    // may still be refused by the handler (an operator's route).
                    let ok = mine.admitted();
                    expect("the user's token", mine, ok, "admitted");
                    let ok = theirs.status != StatusCode::UNAUTHORIZED && !theirs.gate_forbade();
                    expect("another user's token", theirs, ok, "past the gate");
                    // A service calling for no user (the gateway for a visitor): not signed in.
                    let ok = system.status == StatusCode::UNAUTHORIZED;
                    expect("a service token", system, ok, "401");
                }
                Access::OwnUser(_) => {
                    let ok = theirs.gate_forbade();
                    expect("another user's token", theirs, ok, "403");
                    let ok = mine.admitted();
                    expect("the user's token", mine, ok, "admitted");
                    let ok = system.admitted();
                    expect("a service token", system, ok, "admitted");
                }
                Access::Any => {
                    for (caller, answer) in
                        [("a user's token", mine), ("another user's token", theirs), ("a service token", system)]
                    {
                        let ok = answer.admitted();
                        expect(caller, answer, ok, "admitted");
                    }
                }
                Access::Service => {
                    for (caller, answer) in [("a user's token", mine), ("another user's token", theirs)] {
                        let ok = answer.gate_forbade();
                        expect(caller, answer, ok, "403");
                    }
                    let ok = system.admitted();
                    expect("a service token", system, ok, "admitted");
                }
                Access::ServiceOrAdmin => {
                    let ok = theirs.gate_forbade();
                    expect("a user's (not an admin's) token", theirs, ok, "403");
                    for (caller, answer) in [("an admin's token", mine), ("a service token", system)] {
                        let ok = answer.admitted();
                        expect(caller, answer, ok, "admitted");
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(problems.is_empty(), "{} of {checked} routes answered wrongly:\n{}", problems.len(), problems.join("\n"));
    assert!(checked >= 100, "only {checked} internal routes were checked");
}

/// 32 random bytes (two random UUIDs' worth).
fn rand_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    seed[..16].copy_from_slice(Uuid::new_v4().as_bytes());
    seed[16..].copy_from_slice(Uuid::new_v4().as_bytes());
    seed
}

/// The routes a contract's `routes.rs` declares: each `pub const NAME: Route = Route::method("path", ..)`
/// as `NAME -> (METHOD, path)`.
fn declared_in_contract(source: &str) -> BTreeMap<String, (String, String)> {
    let mut found = BTreeMap::new();
    for (start, _) in source.match_indices("pub const ") {
        let rest = &source[start + "pub const ".len()..];
        let Some((name, rest)) = rest.split_once(':') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("Route =") else { continue };
        let rest = rest.trim_start().strip_prefix("Route::").expect("a route is made with Route::<method>(..)");
        let (method, rest) = rest.split_once("(\"").expect("Route::<method>(\"<path>\", ..)");
        let path = &rest[..rest.find('"').unwrap()];
        let previous = found.insert(name.trim().to_owned(), (method.to_ascii_uppercase(), path.to_owned()));
        assert!(previous.is_none(), "{name} is declared twice");
    }
    found
}

/// The routes a router's source mounts: the `NAME` of each `.serve(&routes::NAME, handler)`.
fn served_by_router(source: &str) -> Vec<String> {
    source
        .match_indices(".serve(&routes::")
        .map(|(start, _)| {
            let rest = &source[start + ".serve(&routes::".len()..];
            rest[..rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap()].to_owned()
        })
        .collect()
}

/// The first argument of each `.route(..)` call in a router's source: the routes it mounts
/// other than through a contract's route.
fn mounted_by_path(source: &str) -> Vec<String> {
    source
        .match_indices(".route(")
        .map(|(start, _)| {
            let rest = source[start + ".route(".len()..].trim_start();
            rest[..rest.find(',').unwrap_or(rest.len())].trim().to_owned()
        })
        .collect()
}

/// A service's router source: `src/http.rs`, or every file of `src/http/` when the handlers
/// are split by subject (catalog).
fn router_source(file: &str) -> String {
    if let Ok(text) = std::fs::read_to_string(file) {
        return text;
    }
    let dir = file.trim_end_matches(".rs");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("neither {file} nor {dir}/: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    paths.sort();
    paths.iter().map(|path| std::fs::read_to_string(path).unwrap()).collect::<Vec<_>>().join("\n")
}

#[test]
fn each_trust_table_lists_exactly_the_internal_routes_its_router_declares() {
    for (service, routes) in tables() {
        let file = format!("{}/../services/{service}/src/http.rs", env!("CARGO_MANIFEST_DIR"));
        let router = router_source(&file);
        let contract = format!("{}/../services/{service}/contract/src/routes.rs", env!("CARGO_MANIFEST_DIR"));
        let contract = std::fs::read_to_string(&contract).unwrap_or_else(|e| panic!("{contract}: {e}"));
        let in_contract = declared_in_contract(&contract);
        // An internal route is mounted only through its contract's declaration, whose method it takes.
        for first in mounted_by_path(&router) {
            assert!(
                first.starts_with('"') && !first.starts_with("\"/internal/"),
                "{service}: `.route({first}, ..)` mounts a route outside the contract's routes"
            );
        }
        let served = served_by_router(&router);
        let mut declared = BTreeSet::new();
        for name in &served {
            let route = in_contract.get(name).unwrap_or_else(|| panic!("{service}: routes::{name} is not declared"));
            assert!(declared.insert(route.clone()), "{service}: routes::{name} is mounted twice");
        }
        let listed: BTreeSet<(String, String)> =
            routes.iter().map(|r| (r.method.to_string(), r.path.to_owned())).collect();
        assert_eq!(listed.len(), routes.len(), "{service}: a route is listed twice");
        assert!(!declared.is_empty(), "{service}: no internal route found in {file}");
        assert_eq!(declared, listed, "{service}: the trust table and the router differ");
        let all: BTreeSet<(String, String)> = in_contract.into_values().collect();
        assert_eq!(all, listed, "{service}: the contract declares a route its trust table leaves out");
    }
}

#[test]
fn the_router_check_reads_what_a_router_and_a_contract_say() {
    let contract = r#"
/// The member's own token.
pub const ADD_COMMENT: Route = Route::post("/internal/videos/{video_id}/comments", Access::User);
pub const ADMIN_EDIT_DEAL: Route =
    Route::put("/internal/admin/deals/{deal_id}", Access::User);
pub const ALL: &[Route] = &[ADD_COMMENT, ADMIN_EDIT_DEAL];
"#;
    let declared = declared_in_contract(contract);
    assert_eq!(declared.len(), 2);
    assert_eq!(declared["ADD_COMMENT"], ("POST".into(), "/internal/videos/{video_id}/comments".into()));
    assert_eq!(declared["ADMIN_EDIT_DEAL"], ("PUT".into(), "/internal/admin/deals/{deal_id}".into()));
    let router = r#"Router::new()
        .route("/media/deals/{deal_id}/{file}", get(media))
        .serve(&routes::ADD_COMMENT, add_comment)
        .route(routes::ADMIN_EDIT_DEAL.path, put(edit))"#;
    assert_eq!(served_by_router(router), ["ADD_COMMENT"]);
    assert_eq!(mounted_by_path(router), ["\"/media/deals/{deal_id}/{file}\"", "routes::ADMIN_EDIT_DEAL.path"]);
}
