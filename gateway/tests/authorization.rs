//! The authorization matrix (issue 9): every operation that takes the id of something on one
//! brand (vixen), asked through the gateway by each kind of caller, against the answer
//! expected of it. The deals and catalog services behind the gateway are the real ones, on
//! their own scratch schemas; each caller's token is signed for the host it calls.
//!
//! Callers:
//! - anonymous: no session;
//! - owner: whoever the operation is for on vixen (vixen's admin for deal management, vixen's
//!   comment editor for moderation, any vixen member for voting and replying);
//! - another user: a vixen member without that right;
//! - the owner on another brand: the owner's own session on tushy, calling tushy's host;
//! - another brand's admin: tushy's admin (and comment editor), calling tushy's host;
//! - a replayed token: the owner's tushy token sent to vixen's host.

mod support;

use catalog::{AppState, CatalogConfig};
use deals::{DealsConfig, Sites};
use gateway::graphql::Upstreams;
use reqwest::StatusCode;
use runtime::{auth::Signer, service::ServiceContext, testing::Scratch};
use serde_json::{json, Value};
use support::{codes, short, spawn_with, Gateway};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const TUSHY: &str = "tushy.localhost:8080";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Anonymous,
    Owner,
    AnotherUser,
    OwnerOnAnotherBrand,
    AnotherBrandsAdmin,
    ReplayedToken,
}

const CALLERS: [Caller; 6] = [
    Caller::Anonymous,
    Caller::Owner,
    Caller::AnotherUser,
    Caller::OwnerOnAnotherBrand,
    Caller::AnotherBrandsAdmin,
    Caller::ReplayedToken,
];

/// What an operation answers a caller: its data, or the first error's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Ok,
    Refused(&'static str),
}

use Answer::{Ok as Allowed, Refused};

struct Env {
    deals: Scratch,
    catalog: Scratch,
    gw: Gateway,
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = app.layer(axum::middleware::from_fn(runtime::http::correlate));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

async fn env() -> Env {
    let signer = Signer::generate("test");
    let deals = Scratch::new(&[("deals", &deals::MIGRATIONS)], 4).await;
    let config =
        DealsConfig { subscriptions_queue: format!("{}.subscriptions", deals.schema), ..DealsConfig::default() };
    let sites = Sites::load(&config.tenants_dir).unwrap();
    let deals_url = serve(deals::router(deals::State::new(
        deals.pool.clone(),
        deals.store.clone(),
        config,
        sites,
        signer.verifier(),
    )))
    .await;
    let catalog = Scratch::new(&[("catalog", &catalog::MIGRATIONS)], 8).await;
    let ctx =
        ServiceContext { pool: catalog.pool.clone(), store: catalog.store.clone(), settings: catalog.settings.clone() };
    catalog::SERVICE.seed.expect("the catalog seeds")(ctx).await.unwrap();
    let state = AppState::new(catalog.pool.clone(), catalog.store.clone(), signer.verifier(), CatalogConfig::default());
    let catalog_url = serve(catalog::router(state)).await;
    let upstreams = Upstreams::with_base(move |name, _| match name {
        "deals" => deals_url.clone(),
        "catalog" => catalog_url.clone(),
        _ => "http://127.0.0.1:9".to_owned(),
    });
    Env { deals, catalog, gw: spawn_with(upstreams, signer).await }
}

/// The people of the matrix: the owner's one identity with a session per brand, another vixen
/// member, and tushy's operator.
struct People {
    owner: Uuid,
    another: Uuid,
    tushy_operator: Uuid,
}

impl Env {
    fn token(&self, user: Uuid, host: &str, groups: &[&str]) -> String {
        let tenant = host.split('.').next().unwrap();
        self.gw.token_in(user, host.split(':').next().unwrap(), tenant, groups)
    }

    /// The host a caller calls and the token it sends; `groups` are the owner's right.
    fn caller(&self, people: &People, caller: Caller, groups: &[&str]) -> (&'static str, Option<String>) {
        match caller {
            Caller::Anonymous => (VIXEN, None),
            Caller::Owner => (VIXEN, Some(self.token(people.owner, VIXEN, groups))),
            Caller::AnotherUser => (VIXEN, Some(self.token(people.another, VIXEN, &[]))),
            Caller::OwnerOnAnotherBrand => (TUSHY, Some(self.token(people.owner, TUSHY, groups))),
            Caller::AnotherBrandsAdmin => {
                (TUSHY, Some(self.token(people.tushy_operator, TUSHY, &["admin", "commenteditor"])))
            }
            Caller::ReplayedToken => (VIXEN, Some(self.token(people.owner, TUSHY, groups))),
        }
    }

    async fn ask(&self, host: &str, token: Option<&str>, query: &str, variables: &Value) -> Value {
        let (status, body) = self.gw.post(host, json!({"query": query, "variables": variables}), token).await;
        assert_eq!(status, StatusCode::OK, "{}", short(&body));
        body
    }
}

fn answer_of(body: &Value) -> Answer {
    match codes(body).first() {
        None => Allowed,
        Some(code) => Refused(match code.as_str() {
            "UNAUTHENTICATED" => "UNAUTHENTICATED",
            "FORBIDDEN" => "FORBIDDEN",
            "ALREADY_LIKED" => "ALREADY_LIKED",
            other => panic!("an unexpected code {other}: {}", short(body)),
        }),
    }
}

/// The expected answers of an operation owned by a right (admin, moderator) of vixen: only
/// the owner on vixen's own host gets through.
fn vixen_right_only(caller: Caller) -> Answer {
    match caller {
        Caller::Owner => Allowed,
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        Caller::AnotherUser | Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("FORBIDDEN"),
    }
}

fn deal_input(site: &str, name: &str) -> Value {
    json!({
        "name": name, "site": site, "partnerName": "Northwind Stream", "dealText": "A year at a member price",
        "url": "https://northwind.example.com/join", "initialPrice": "$1.00",
        "enabled": true, "rank": 1, "enabledList": true, "rankListing": 1,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_on_a_brands_resource_answers_each_caller_as_expected() {
    let env = env().await;
    let people = People { owner: Uuid::now_v7(), another: Uuid::now_v7(), tushy_operator: Uuid::now_v7() };

    // A vixen deal, made by vixen's admin.
    let vixen_admin = env.token(people.owner, VIXEN, &["admin"]);
    let create = "mutation($input: DealInput!) { createDeal(input: $input) { id } }";
    let created = env.ask(VIXEN, Some(&vixen_admin), create, &json!({"input": deal_input("vixen", "Matrix")})).await;
    let deal_id = created["data"]["createDeal"]["id"].as_str().unwrap_or_else(|| panic!("{}", short(&created)));
    let deal_id = deal_id.to_owned();

    // A comment by another vixen member on a vixen video.
    let videos = env.ask(VIXEN, None, "{ videos(size: 12) { videos { uuid site } } }", &json!({})).await;
    let video = videos["data"]["videos"]["videos"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["site"] == "vixen"))
        .unwrap_or_else(|| panic!("a vixen video: {}", short(&videos)))["uuid"]
        .as_str()
        .unwrap()
        .to_owned();
    let author = env.token(people.another, VIXEN, &[]);
    let add = "mutation($v: ID!) { addComment(videoId: $v, text: \"Lovely light in this scene.\") { id } }";
    let comment = env.ask(VIXEN, Some(&author), add, &json!({"v": video})).await;
    let comment_id = comment["data"]["addComment"]["id"].as_str().unwrap_or_else(|| panic!("{}", short(&comment)));
    let comment_id = comment_id.to_owned();

    // (operation, the owner's right, the document, its variables, the expected answer per caller).
    type Expect = fn(Caller) -> Answer;
    let matrix: Vec<(&str, &[&str], &str, Value, Expect)> = vec![
        (
            "adminDeals",
            &["admin"],
            "query($s: String) { adminDeals(site: $s) { id } }",
            json!({"s": "vixen"}),
            vixen_right_only,
        ),
        (
            "editDeal",
            &["admin"],
            "mutation($id: ID!, $input: DealInput!) { editDeal(id: $id, input: $input) { id } }",
            json!({"id": deal_id, "input": deal_input("vixen", "Matrix edited")}),
            vixen_right_only,
        ),
        (
            "setDealEnabled",
            &["admin"],
            "mutation($id: ID!) { setDealEnabled(id: $id, type: listing, enabled: true) { id } }",
            json!({"id": deal_id}),
            vixen_right_only,
        ),
        (
            "rankDeal",
            &["admin"],
            "mutation($id: ID!) { rankDeal(id: $id, type: listing, rank: 3) { id } }",
            json!({"id": deal_id}),
            vixen_right_only,
        ),
        (
            "pinComment",
            &["commenteditor"],
            "mutation($c: ID!) { pinComment(commentId: $c) { id } }",
            json!({"c": comment_id}),
            vixen_right_only,
        ),
        (
            "unpinComment",
            &["commenteditor"],
            "mutation($c: ID!) { unpinComment(commentId: $c) { id } }",
            json!({"c": comment_id}),
            vixen_right_only,
        ),
        (
            // Any signed-in user votes, once per person whatever the brand: the owner, who voted
            // through tushy's host a moment before, is told so on vixen's. A token of another
            // host is no session here.
            "voteComment",
            &[],
            "mutation($c: ID!) { voteComment(commentId: $c, vote: like) { id } }",
            json!({"c": comment_id}),
            |caller| match caller {
                Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
                Caller::Owner => Refused("ALREADY_LIKED"),
                _ => Allowed,
            },
        ),
        // Last: removal ends the comment for the rows after it.
        (
            "removeComment",
            &["commenteditor"],
            "mutation($c: ID!) { removeComment(commentId: $c) { id } }",
            json!({"c": comment_id}),
            vixen_right_only,
        ),
    ];

    let mut failures = Vec::new();
    for (operation, right, document, variables, expect) in &matrix {
        // The owner last, so that a refusal is checked while the resource is as created.
        let order = CALLERS.iter().filter(|c| **c != Caller::Owner).chain([&Caller::Owner]);
        for caller in order {
            let (host, token) = env.caller(&people, *caller, right);
            let body = env.ask(host, token.as_deref(), document, variables).await;
            let (got, want) = (answer_of(&body), expect(*caller));
            if got != want {
                failures.push(format!("{operation} × {caller:?}: {got:?}, expected {want:?}: {}", short(&body)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Refused calls recorded nothing: the deal has the owner's edit only, once.
    let edits: i64 = env.deals.scalar("select count(*) from event where event_type = 'DealEdited'").await;
    assert_eq!(edits, 1);
    let pins: i64 = env.catalog.scalar("select count(*) from event where event_type = 'CommentPinned'").await;
    assert_eq!(pins, 1);
    env.deals.cleanup().await;
    env.catalog.cleanup().await;
}
