//! The offers interstitial (snooze for a month, or continue), the offers page and the deal
//! carousel's tracking, over real HTTP with a hand-set clock.

mod support;

use serde_json::{json, Value};
use uuid::Uuid;

use support::{deal_body, utc, TestEnv};

async fn state(env: &TestEnv, token: &str) -> (u16, Value) {
    env.get("/internal/interstitial?site=tushy", Some(token)).await
}

#[tokio::test]
async fn a_snooze_hides_the_interstitial_until_the_same_day_next_month() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "tushy", &[]);
    assert_eq!(state(&env, &token).await, (200, json!({"site": "tushy", "snoozed": false, "snoozedUntil": null})));

    // Snoozed on 31 January: hidden until 28 February (a calendar month, clamped).
    env.clock.set(utc(2026, 1, 31, 9, 30));
    let (status, answer) = env.post("/internal/interstitial/snooze", Some(&token), &json!({"site": "tushy"})).await;
    assert_eq!(status, 200);
    assert_eq!(answer, json!({"site": "tushy", "snoozed": true, "snoozedUntil": "2026-02-28T09:30:00Z"}));
    // Only on that brand.
    let (_, vixen) = env.get("/internal/interstitial?site=vixen", Some(&env.token(user, "vixen", &[]))).await;
    assert_eq!(vixen["snoozed"], false);

    env.clock.set(utc(2026, 2, 28, 9, 29));
    assert_eq!(state(&env, &token).await.1["snoozed"], true, "a minute before the month is up");
    // Snoozing again while hidden keeps the first month.
    let (_, again) = env.post("/internal/interstitial/snooze", Some(&token), &json!({"site": "tushy"})).await;
    assert_eq!(again["snoozedUntil"], "2026-02-28T09:30:00Z");
    env.clock.set(utc(2026, 2, 28, 9, 30));
    assert_eq!(
        state(&env, &token).await.1,
        json!({"site": "tushy", "snoozed": false, "snoozedUntil": null}),
        "the month is up"
    );

    let deal = Uuid::now_v7();
    let (status, answer) =
        env.post("/internal/interstitial/continue", Some(&token), &json!({"site": "tushy", "dealId": deal})).await;
    assert_eq!((status, answer["snoozed"].as_bool()), (200, Some(false)));

    // Tracked as interstitial_snooze and interstitial_continue, by the user, on the brand.
    let events: Vec<(String, String, Option<String>, Value)> =
        sqlx::query_as("select event_type, actor, tenant, payload from event order by global_position")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    let types: Vec<&str> = events.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(types, ["InterstitialSnoozed", "InterstitialContinued"]);
    assert!(events.iter().all(|e| e.1 == format!("user:{user}") && e.2.as_deref() == Some("tushy")));
    assert_eq!(events[1].3["deal_id"], json!(deal));

    // A visitor's answers are refused (the gateway's service token is no user); an unknown
    // brand is named.
    let (status, _) = env.post("/internal/interstitial/snooze", None, &json!({"site": "tushy"})).await;
    assert_eq!(status, 401);
    let (status, body) = env.post("/internal/interstitial/snooze", Some(&token), &json!({"site": "nowhere"})).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("UNKNOWN_SITE")));
    env.cleanup().await;
}

#[tokio::test]
async fn the_offers_page_carries_the_brands_offer_page_id_its_grid_and_the_interstitial() {
    let env = TestEnv::new().await;
    for (n, name) in ["x", "y", "z"].iter().enumerate() {
        env.create_deal(deal_body(name, "vixen", (false, 0), (false, 0), (true, 3 - n as i64))).await;
    }
    let (status, offers) = env.get("/internal/offers?site=vixen", None).await;
    assert_eq!(status, 200);
    assert_eq!((offers["site"].as_str(), offers["offerPageId"].as_u64()), (Some("vixen"), Some(3)));
    let names: Vec<&str> = offers["deals"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["z", "y", "x"]);
    assert_eq!(offers["interstitial"], Value::Null, "a visitor has no interstitial");

    let user = Uuid::now_v7();
    let token = env.token(user, "vixen", &[]);
    env.post("/internal/interstitial/snooze", Some(&token), &json!({"site": "vixen"})).await;
    let (_, offers) = env.get("/internal/offers?site=vixen", Some(&token)).await;
    assert_eq!(offers["interstitial"]["snoozed"], true);
    for (site, id) in [
        ("blacked", 1),
        ("tushy", 2),
        ("blackedraw", 4),
        ("tushyraw", 5),
        ("deeper", 6),
        ("slayed", 7),
        ("milfy", 9),
        ("vixenplus", 10),
        ("wifey", 11),
    ] {
        let (_, offers) = env.get(&format!("/internal/offers?site={site}"), None).await;
        assert_eq!(offers["offerPageId"], id, "{site}");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn deal_carousel_steps_are_tracked_as_events() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "tushy", &[]);
    let deals = [Uuid::now_v7(), Uuid::now_v7()];
    for (token, body) in [
        (None, json!({"site": "tushy", "step": "requested"})),
        (Some(&token), json!({"site": "tushy", "step": "success", "dealIds": deals})),
        (Some(&token), json!({"site": "tushy", "step": "failed", "reason": "network error"})),
    ] {
        let (status, answer) = env.post("/internal/deals/carousel-events", token.map(String::as_str), &body).await;
        assert_eq!(status, 202, "{answer}");
        assert!(answer["trackingId"].as_str().is_some());
    }
    let rows: Vec<(String, String, Value)> =
        sqlx::query_as("select event_type, actor, payload from event order by global_position")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert!(rows.iter().all(|r| r.0 == "DealCarouselTracked"));
    assert_eq!(rows[0].1, "system:deals.visitor");
    assert_eq!(rows[0].2["step"], "requested");
    assert_eq!(rows[1].2["deal_ids"], json!(deals));
    assert_eq!(rows[1].2["user_id"], json!(user));
    assert_eq!(rows[2].2["reason"], "network error");
    for body in [
        json!({"site": "tushy", "step": "requested", "dealIds": deals}),
        json!({"site": "tushy", "step": "success", "reason": "why"}),
        json!({"site": "tushy", "step": "loading"}),
        json!({"site": "nowhere", "step": "requested"}),
    ] {
        let (status, _) = env.post("/internal/deals/carousel-events", None, &body).await;
        assert_eq!(status, 422, "{body}");
    }
    assert_eq!(env.scalar("select count(*) from event").await, 3);
    env.cleanup().await;
}
