//! Deals through the gateway, answered by the real deals service: findDeals per type,
//! operators only for deal management, the /deals confirmation payload's refusals.

mod support;

use base64::{engine::general_purpose::STANDARD, Engine};
use deals::{DealsConfig, Sites};
use gateway::graphql::Upstreams;
use runtime::{auth::Signer, testing::Scratch};
use serde_json::{json, Value};
use support::{codes, short, spawn_with, Gateway};
use uuid::Uuid;

const HOST: &str = "tushy.localhost:8080";

struct Env {
    scratch: Scratch,
    gw: Gateway,
}

async fn env() -> Env {
    let scratch = Scratch::new(&[("deals", &deals::MIGRATIONS)], 4).await;
    let signer = Signer::generate("test");
    let config =
        DealsConfig { subscriptions_queue: format!("{}.subscriptions", scratch.schema), ..DealsConfig::default() };
    let sites = Sites::load(&config.tenants_dir).unwrap();
    let state = deals::State::new(scratch.pool.clone(), scratch.store.clone(), config, sites, signer.verifier());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = deals::router(state).layer(axum::middleware::from_fn(runtime::http::correlate));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let upstreams = Upstreams::with_base(|name, _| match name {
        "deals" => format!("http://{addr}"),
        _ => "http://127.0.0.1:9".to_owned(),
    });
    Env { scratch, gw: spawn_with(upstreams, signer).await }
}

fn deal(name: &str, rank: i32, rank_listing: i32, enabled: bool, enabled_list: bool) -> Value {
    json!({
        "name": name, "site": "tushy", "partnerName": format!("{name} Partner"),
        "dealText": "Save big", "dealTextListing": "Save big today", "discount": "50",
        "discountPrefix": "up to", "discountTextPostPrefix": "% off", "discountLiteral": "50% off",
        "url": "https://partner.example/join", "initialPrice": "$9.99",
        "logo": [{"src": "/media/deals/x/logo-200x100.svg", "width": 200, "height": 100}],
        "thumbnail": [{"src": "/media/deals/x/thumb-400x300.svg", "width": 400, "height": 300}],
        "rank": rank, "rankListing": rank_listing, "rankInterstitial": 1,
        "enabled": enabled, "enabledList": enabled_list, "enabledInterstitial": false
    })
}

const CREATE: &str = "mutation($input: DealInput!) { createDeal(input: $input) { id name rank } }";

#[tokio::test]
async fn operators_manage_deals_and_find_deals_orders_each_type_by_its_rank() {
    let Env { scratch, gw } = env().await;
    let admin = gw.token_in(Uuid::now_v7(), "tushy.localhost", "tushy", &["admin"]);
    let member = gw.token_in(Uuid::now_v7(), "tushy.localhost", "tushy", &[]);

    let create = json!({"query": CREATE, "variables": {"input": deal("Alpha", 2, 1, true, true)}});
    let (_, body) = gw.post(HOST, create.clone(), None).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    let (_, body) = gw.post(HOST, create.clone(), Some(&member)).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));

    for (name, rank, rank_listing, enabled, enabled_list) in
        [("Alpha", 2, 1, true, true), ("Bravo", 1, 3, true, false), ("Charlie", 3, 2, false, true)]
    {
        let create =
            json!({"query": CREATE, "variables": {"input": deal(name, rank, rank_listing, enabled, enabled_list)}});
        let (_, body) = gw.post(HOST, create, Some(&admin)).await;
        assert_eq!(body["data"]["createDeal"]["name"], name, "{}", short(&body));
    }

    let find = |t: &str| json!({"query": format!("{{ findDeals(input: {{type: {t}}}) {{ name partnerName dealText discountLiteral initialPrice logo {{ src width height }} rank rankListing enabled enabledList }} }}")});
    let names = |body: &Value| -> Vec<String> {
        body["data"]["findDeals"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_owned()).collect()
    };
    let (_, body) = gw.post(HOST, find("carousel"), None).await;
    assert_eq!(names(&body), ["Bravo", "Alpha"], "{}", short(&body));
    assert_eq!(body["data"]["findDeals"][1]["logo"][0]["width"], 200);
    let (_, body) = gw.post(HOST, find("listing"), None).await;
    assert_eq!(names(&body), ["Alpha", "Charlie"], "{}", short(&body));

    let (_, body) =
        gw.post(HOST, json!({"query": "{ findDeals(input: {type: carousel, limit: 41}) { name } }"}), None).await;
    assert_eq!(codes(&body), ["INVALID_REQUEST"], "{}", short(&body));

    // Another brand's host sees none of tushy's deals.
    let (_, body) = gw.post("vixen.localhost:8080", find("carousel"), None).await;
    assert_eq!(body["data"]["findDeals"], json!([]), "{}", short(&body));
    scratch.cleanup().await;
}

#[tokio::test]
async fn bad_confirmation_payloads_are_refused_with_clear_errors() {
    let Env { scratch, gw } = env().await;
    let query = "query($c: String!) { outgoingUpsellConfirmation(confirmation: $c) { confirmationLink confirmationTitle price } }";
    let ask = |c: String| json!({"query": query, "variables": {"c": c}});

    let good = STANDARD.encode(
        json!({"title": "Add a partner", "confirmationLink": "https://partner.example/ok", "component": "ConfirmOutgoingUpsell", "price": "$1", "description": "d"}).to_string(),
    );
    let (_, body) = gw.post(HOST, ask(good), None).await;
    assert_eq!(
        body["data"]["outgoingUpsellConfirmation"]["confirmationLink"],
        "https://partner.example/ok",
        "{}",
        short(&body)
    );

    let (_, body) = gw.post(HOST, ask("%%% not base64".into()), None).await;
    assert_eq!(codes(&body), ["CONFIRMATION_NOT_BASE64"], "{}", short(&body));
    let (_, body) = gw.post(HOST, ask(STANDARD.encode("not json")), None).await;
    assert_eq!(codes(&body), ["CONFIRMATION_NOT_JSON"], "{}", short(&body));
    let empty = STANDARD.encode(json!({"title": "t", "confirmationLink": ""}).to_string());
    let (_, body) = gw.post(HOST, ask(empty), None).await;
    assert_eq!(codes(&body), ["CONFIRMATION_LINK_MISSING"], "{}", short(&body));
    assert_eq!(body["errors"][0]["message"], "Outgoing upsell - Confirmation link is missing");
    scratch.cleanup().await;
}

#[tokio::test]
async fn deal_images_are_served_through_the_brand_host() {
    let Env { scratch, gw } = env().await;
    let admin = gw.token_in(Uuid::now_v7(), "tushy.localhost", "tushy", &["admin"]);
    let create = json!({"query": CREATE, "variables": {"input": deal("Alpha", 1, 1, true, true)}});
    let (_, body) = gw.post(HOST, create, Some(&admin)).await;
    let id = body["data"]["createDeal"]["id"].as_str().unwrap_or_else(|| panic!("{}", short(&body))).to_owned();
    let missing = gw
        .client
        .get(format!("{}/media/deals/{}/logo-200x100.svg", gw.base, Uuid::now_v7()))
        .header(reqwest::header::HOST, HOST)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let response = gw
        .client
        .get(format!("{}/media/deals/{id}/logo-200x100.svg", gw.base))
        .header(reqwest::header::HOST, HOST)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()[reqwest::header::CONTENT_TYPE].to_str().unwrap().starts_with("image/svg+xml"));
    assert!(response.text().await.unwrap().starts_with("<svg"));
    scratch.cleanup().await;
}
