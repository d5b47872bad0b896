//! findDeals, the operators' API and the confirmation check over real HTTP, on port 0.

mod support;

use reqwest::Method;
use serde_json::{json, Value};
use uuid::Uuid;

use runtime::testing::ServiceAuth;
use support::{deal_body, TestEnv};

#[tokio::test]
async fn find_deals_filters_by_the_types_flag_and_orders_by_the_types_rank() {
    let env = TestEnv::new().await;
    // name, carousel, listing, interstitial
    env.create_deal(deal_body("a", "tushy", (true, 3), (true, 1), (false, 0))).await;
    env.create_deal(deal_body("b", "tushy", (true, 1), (false, 0), (true, 2))).await;
    env.create_deal(deal_body("c", "tushy", (true, 2), (true, 3), (true, 1))).await;
    env.create_deal(deal_body("d", "tushy", (false, 0), (true, 2), (true, 0))).await;
    env.create_deal(deal_body("other-site", "vixen", (true, 0), (true, 0), (true, 0))).await;

    assert_eq!(env.find("carousel", "tushy", None, None).await, ["b", "c", "a"]);
    assert_eq!(env.find("listing", "tushy", None, None).await, ["a", "d", "c"]);
    assert_eq!(env.find("interstitial", "tushy", None, None).await, ["d", "c", "b"]);
    assert_eq!(env.find("carousel", "TUSHY", Some(2), None).await, ["b", "c"], "site is case-insensitive");
    assert_eq!(env.find("carousel", "vixen", None, None).await, ["other-site"]);

    // Operators move and switch deals per type; only that type changes.
    let all = env.get("/internal/admin/deals?site=tushy", Some(&env.admin())).await.1;
    let id = |name: &str| {
        all["deals"].as_array().unwrap().iter().find(|d| d["name"] == name).unwrap()["id"].as_str().unwrap().to_owned()
    };
    let admin = env.admin();
    let (status, a) = env
        .post(&format!("/internal/admin/deals/{}/rank", id("a")), Some(&admin), &json!({"type": "carousel", "rank": 0}))
        .await;
    assert_eq!((status, a["rank"].as_u64(), a["rankListing"].as_u64()), (200, Some(0), Some(1)));
    let (status, _) = env
        .post(&format!("/internal/admin/deals/{}/disable", id("c")), Some(&admin), &json!({"type": "listing"}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = env
        .post(&format!("/internal/admin/deals/{}/enable", id("d")), Some(&admin), &json!({"type": "carousel"}))
        .await;
    assert_eq!(status, 200);
    // a and d share rank 0: the older deal (lower id) first.
    assert_eq!(env.find("carousel", "tushy", None, None).await, ["a", "d", "b", "c"]);
    assert_eq!(env.find("listing", "tushy", None, None).await, ["a", "d"]);
    assert_eq!(env.find("interstitial", "tushy", None, None).await, ["d", "c", "b"]);
    env.cleanup().await;
}

#[tokio::test]
async fn every_field_of_the_deal_is_answered_with_its_consent_props() {
    let env = TestEnv::new().await;
    let id = Uuid::now_v7();
    let body = json!({
        "id": id, "name": "northwind-annual", "site": "tushy", "partnerName": "Northwind Stream",
        "dealText": "A year at a member price", "dealTextListing": "One year",
        "discount": "75", "discountPrefix": "SAVE", "discountTextPostPrefix": "% OFF", "discountLiteral": "SAVE 75% OFF",
        "exclusive": true, "url": "https://northwind.example.com/join",
        "oneClickUrl": "https://northwind.example.com/oneclick", "internalOneClick": false, "initialPrice": "$1.00",
        "logo": [{"src": "/media/deals/x/logo-200x60.svg", "width": 200, "height": 60},
                 {"src": "/media/deals/x/logo-400x120.svg", "width": 400, "height": 120}],
        "thumbnail": [{"src": "/media/deals/x/thumb-320x180.svg", "width": 320, "height": 180}],
        "requestPartnerConsent": true, "oneClickEnabled": true, "itsUpZoneId": "zone-1", "itsUpCampaignId": "camp-1",
        "rank": 1, "rankListing": 2, "rankInterstitial": 3, "enabled": true, "enabledList": false,
        "enabledInterstitial": true, "specialOffer": false,
    });
    let created = env.create_deal(body.clone()).await;
    let mut expected = body;
    expected.as_object_mut().unwrap().insert(
        "oneClickConsent".into(),
        json!({
            "partnerName": "Northwind Stream", "price": "$1.00",
            "oneClickUrl": "https://northwind.example.com/oneclick", "src": "/media/deals/x/logo-400x120.svg",
        }),
    );
    assert_eq!(created, expected);
    let (_, found) = env.get("/internal/deals?type=carousel&site=tushy", None).await;
    assert_eq!(found["deals"][0], expected);
    // The same deal again changes nothing; another under its id is a conflict.
    let (status, again) = env.post("/internal/admin/deals", Some(&env.admin()), &without_consent(&expected)).await;
    assert_eq!((status, &again), (200, &expected));
    let mut other = without_consent(&expected);
    other["dealText"] = json!("Something else");
    let (status, body) = env.post("/internal/admin/deals", Some(&env.admin()), &other).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("DEAL_ALREADY_EXISTS")));
    assert_eq!(env.scalar("select count(*) from event").await, 1);
    env.cleanup().await;
}

fn without_consent(deal: &Value) -> Value {
    let mut body = deal.clone();
    body.as_object_mut().unwrap().remove("oneClickConsent");
    body
}

#[tokio::test]
async fn the_carousel_answers_40_and_the_grids_15_and_other_limits_are_refused() {
    let env = TestEnv::new().await;
    for n in 0..45 {
        env.create_deal(deal_body(&format!("d{n:02}"), "vixen", (true, n), (n % 2 == 0, 45 - n), (true, n))).await;
    }
    let carousel = env.find("carousel", "vixen", None, None).await;
    assert_eq!(carousel.len(), 40);
    assert_eq!(carousel.first().map(String::as_str), Some("d00"));
    assert_eq!(carousel.last().map(String::as_str), Some("d39"));
    let listing = env.find("listing", "vixen", None, None).await;
    assert_eq!(listing.len(), 15);
    assert_eq!(listing.first().map(String::as_str), Some("d44"), "by rankListing");
    assert_eq!(env.find("interstitial", "vixen", None, None).await.len(), 15);
    assert_eq!(env.find("carousel", "vixen", Some(40), None).await.len(), 40);
    assert_eq!(env.find("listing", "vixen", Some(5), None).await.len(), 5);
    for (query, message) in [
        ("type=carousel&site=vixen&limit=41", "limit must be between 1 and 40 for carousel deals"),
        ("type=listing&site=vixen&limit=16", "limit must be between 1 and 15 for listing deals"),
        ("type=interstitial&site=vixen&limit=0", "limit must be between 1 and 15 for interstitial deals"),
    ] {
        let (status, body) = env.get(&format!("/internal/deals?{query}"), None).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (422, Some("INVALID_REQUEST"), Some(message))
        );
    }
    let (status, body) = env.get("/internal/deals?type=carousel&site=nowhere", None).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("UNKNOWN_SITE")));
    let (status, body) = env.get("/internal/deals?type=banner&site=vixen", None).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("BAD_REQUEST")));
    env.cleanup().await;
}

#[tokio::test]
async fn only_admins_of_the_brand_manage_its_deals_anonymous_401_member_and_other_brands_admin_403_admin_200() {
    let env = TestEnv::new().await;
    let created = env.create_deal(deal_body("a", "tushy", (true, 1), (true, 1), (true, 1))).await;
    let id = created["id"].as_str().unwrap();
    let member = env.token(Uuid::now_v7(), "tushy", &["commenteditor"]);
    let admin = env.admin();
    let vixen_admin = env.token(Uuid::now_v7(), "vixen", &["admin"]);
    let body = deal_body("b", "tushy", (true, 2), (true, 2), (true, 2));
    let edit = deal_body("a", "tushy", (true, 5), (true, 1), (true, 1));
    let calls: Vec<(Method, String, Value, u16)> = vec![
        (Method::GET, "/internal/admin/deals?site=tushy".into(), Value::Null, 200),
        (Method::GET, format!("/internal/admin/deals/{id}"), Value::Null, 200),
        (Method::POST, "/internal/admin/deals".into(), body, 201),
        (Method::PUT, format!("/internal/admin/deals/{id}"), edit, 200),
        (Method::POST, format!("/internal/admin/deals/{id}/disable"), json!({"type": "listing"}), 200),
        (Method::POST, format!("/internal/admin/deals/{id}/enable"), json!({"type": "listing"}), 200),
        (Method::POST, format!("/internal/admin/deals/{id}/rank"), json!({"type": "listing", "rank": 9}), 200),
    ];
    for (method, path, body, ok) in calls {
        let events = env.scalar("select count(*) from event").await;
        let (status, answer) = env.send(method.clone(), &path, None, &body).await;
        assert_eq!((status, answer["code"].as_str()), (401, Some("UNAUTHENTICATED")), "{method} {path}");
        let (status, answer) = env.send(method.clone(), &path, Some(&member), &body).await;
        assert_eq!((status, answer["code"].as_str()), (403, Some("FORBIDDEN")), "{method} {path}");
        // Admin rights are per brand: vixen's admin may not touch tushy's deals.
        let (status, answer) = env.send(method.clone(), &path, Some(&vixen_admin), &body).await;
        assert_eq!((status, answer["code"].as_str()), (403, Some("FORBIDDEN")), "{method} {path}: {answer}");
        assert_eq!(env.scalar("select count(*) from event").await, events, "a refused call records nothing");
        let (status, answer) = env.send(method.clone(), &path, Some(&admin), &body).await;
        assert_eq!(status, ok, "{method} {path}: {answer}");
    }
    // Nor may tushy's admin move a tushy deal to vixen.
    let moved = deal_body("a", "vixen", (true, 5), (true, 1), (true, 1));
    let (status, answer) = env.send(Method::PUT, &format!("/internal/admin/deals/{id}"), Some(&admin), &moved).await;
    assert_eq!((status, answer["code"].as_str()), (403, Some("FORBIDDEN")), "{answer}");
    // Every change was an event by the admin: create a, create b, edit, disable, enable, rank.
    let actors: Vec<(String, String)> = sqlx::query_as("select event_type, actor from event order by global_position")
        .fetch_all(&env.pool)
        .await
        .unwrap();
    let types: Vec<&str> = actors.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(types, ["DealCreated", "DealCreated", "DealEdited", "DealDisabled", "DealEnabled", "DealReranked"]);
    assert!(actors.iter().all(|(_, a)| a.starts_with("admin:")));
    assert_eq!(env.scalar("select count(*) from outbox").await + env.scalar("select count(*) from event").await, 12);
    env.cleanup().await;
}

#[tokio::test]
async fn bad_deals_are_refused_with_the_field_and_what_is_wrong() {
    let env = TestEnv::new().await;
    let admin = env.admin();
    let good = deal_body("a", "tushy", (true, 1), (true, 1), (true, 1));
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body
    };
    for (body, field, message) in [
        (with("partnerName", Value::Null), "partnerName", "partnerName: is required"),
        (with("name", json!("   ")), "name", "name: is required"),
        (with("rankListing", json!(-2)), "rankListing", "rankListing: must not be negative"),
        (with("url", json!("not a url")), "url", "url: must be an absolute http or https address"),
        (
            with("initialPrice", json!("one dollar")),
            "initialPrice",
            "initialPrice: must be an amount with an optional currency sign and two decimals, such as $1.00 or 29.95",
        ),
        (with("site", json!("elsewhere")), "site", "site: \"elsewhere\" is not a brand of this platform"),
        (with("oneClickEnabled", json!(true)), "oneClickUrl", "oneClickUrl: is required when oneClickEnabled is true"),
    ] {
        let (status, answer) = env.post("/internal/admin/deals", Some(&admin), &body).await;
        assert_eq!(status, 422, "{answer}");
        assert_eq!(answer, json!({"code": "INVALID_DEAL", "field": field, "message": message}));
    }
    let (status, answer) = env.post("/internal/admin/deals", Some(&admin), &with("rank", json!("first"))).await;
    assert_eq!((status, answer["code"].as_str()), (422, Some("INVALID_REQUEST")));
    let id = env.create_deal(good.clone()).await["id"].as_str().unwrap().to_owned();
    let (status, answer) = env
        .post(&format!("/internal/admin/deals/{id}/rank"), Some(&admin), &json!({"type": "carousel", "rank": -1}))
        .await;
    assert_eq!(
        (status, answer["field"].as_str(), answer["message"].as_str()),
        (422, Some("rank"), Some("rank: must not be negative"))
    );
    let missing = Uuid::now_v7();
    let (status, answer) =
        env.post(&format!("/internal/admin/deals/{missing}/enable"), Some(&admin), &json!({"type": "carousel"})).await;
    assert_eq!((status, answer["code"].as_str()), (404, Some("NOT_FOUND")));
    let (status, answer) =
        env.send(Method::PUT, &format!("/internal/admin/deals/{missing}"), Some(&admin), &good).await;
    assert_eq!((status, answer["code"].as_str()), (404, Some("NOT_FOUND")));
    assert_eq!(env.scalar("select count(*) from event").await, 1, "only the good deal was recorded");
    env.cleanup().await;
}

#[tokio::test]
async fn bad_confirmation_payloads_are_answered_with_clear_errors() {
    use base64::{engine::general_purpose::STANDARD, Engine};
    let env = TestEnv::new().await;
    let encode = |v: &Value| STANDARD.encode(v.to_string());
    let check = |payload: String| {
        let env = &env;
        async move {
            let response = env
                .http
                .get(env.url("/internal/deals/confirmation"))
                .service_auth("deals")
                .query(&[("confirmation", payload)])
                .send()
                .await
                .unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }
    };
    let good = json!({"title": "Add Northwind?", "confirmationLink": "https://northwind.example.com/ok",
                      "component": "ConfirmOutgoingUpsell", "price": "$1.00", "description": "One click."});
    let (status, props) = check(encode(&good)).await;
    assert_eq!(status, 200);
    assert_eq!(
        props,
        json!({"component": "ConfirmOutgoingUpsell", "confirmationLink": "https://northwind.example.com/ok",
               "confirmationTitle": "Add Northwind?", "description": "One click.", "price": "$1.00"})
    );
    let mut empty = good.clone();
    empty["confirmationLink"] = json!("");
    for (payload, code, message) in [
        ("***".to_owned(), "CONFIRMATION_NOT_BASE64", "Outgoing upsell - Confirmation is not valid base64"),
        (STANDARD.encode("title=x"), "CONFIRMATION_NOT_JSON", "Outgoing upsell - Confirmation is not valid JSON"),
        (encode(&empty), "CONFIRMATION_LINK_MISSING", "Outgoing upsell - Confirmation link is missing"),
    ] {
        let (status, answer) = check(payload).await;
        assert_eq!(status, 422);
        assert_eq!(answer, json!({"code": code, "message": message}));
    }
    let (status, answer) = env.get("/internal/deals/confirmation", None).await;
    assert_eq!((status, answer["code"].as_str()), (400, Some("BAD_REQUEST")));
    env.cleanup().await;
}

#[tokio::test]
async fn deal_images_are_generated_svg_of_the_partner() {
    let env = TestEnv::new().await;
    let id = env.create_deal(deal_body("a", "tushy", (true, 1), (true, 1), (true, 1))).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = env.http.get(env.url(&format!("/media/deals/{id}/logo-200x60.svg"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    let svg = response.text().await.unwrap();
    assert!(svg.contains("width=\"200\"") && svg.contains("Northwind Stream"), "{svg}");
    for path in [format!("/media/deals/{id}/logo-0x60.svg"), format!("/media/deals/{}/logo-20x60.svg", Uuid::now_v7())]
    {
        let (status, body) = env.get(&path, None).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("NOT_FOUND")), "{path}");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn the_read_model_answers_what_the_pure_rule_says() {
    use deals::domain::{find_deals, max_limit, Viewer};
    use proto_events::deals::{Deal, DealType};
    let env = TestEnv::new().await;
    deals::seed::seed_state(&env.state).await.unwrap();
    // Shuffle ranks and flags a little so ties and gaps show.
    let admin = env.admin();
    for (n, site) in ["tushy", "vixen", "wifey"].iter().enumerate() {
        for k in 0..8usize {
            let id = deals::seed::demo_deal_id(site, k);
            let rank = ((k * 7 + n * 3) % 4) as i64;
            env.post(
                &format!("/internal/admin/deals/{id}/rank"),
                Some(&admin),
                &json!({"type": "carousel", "rank": rank}),
            )
            .await;
            if (k + n) % 3 == 0 {
                env.post(&format!("/internal/admin/deals/{id}/enable"), Some(&admin), &json!({"type": "listing"}))
                    .await;
            }
        }
    }
    let bodies: Vec<Value> = sqlx::query_scalar("select body from deal").fetch_all(&env.pool).await.unwrap();
    let all: Vec<Deal> = bodies.into_iter().map(|b| serde_json::from_value(b).unwrap()).collect();
    for site in ["tushy", "vixen", "wifey", "milfy"] {
        for deal_type in [DealType::Carousel, DealType::Listing, DealType::Interstitial] {
            for viewer in [Viewer::Everyone, Viewer::PornPortalSubscriber] {
                for limit in [1, 3, max_limit(deal_type)] {
                    let expected: Vec<Uuid> =
                        find_deals(&all, site, deal_type, viewer, limit).iter().map(|d| d.deal_id).collect();
                    let json =
                        deals::queries::find_deals_json(&env.pool, site, deal_type, viewer, limit).await.unwrap();
                    let views: Vec<deals::api::DealView> = serde_json::from_str(&json).unwrap();
                    let typed = deals::queries::find_deals(&env.pool, site, deal_type, viewer, limit).await.unwrap();
                    assert_eq!(
                        views.iter().map(|d| d.id).collect::<Vec<_>>(),
                        expected,
                        "{site} {deal_type:?} {viewer:?} {limit}"
                    );
                    assert_eq!(views, typed.iter().map(deals::api::DealView::from).collect::<Vec<_>>());
                }
            }
        }
    }
    env.cleanup().await;
}
