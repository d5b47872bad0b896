//! One-click purchases, retention and card update over real HTTP and the real database.

mod support;

use proto_events::subscription::{MembershipKind, SubscriptionEvent as E};
use serde_json::json;
use subscription::billers::Outgoing;
use subscription::domain::Step;
use support::{out, TestEnv};
use uuid::Uuid;

#[tokio::test]
async fn fifty_identical_one_click_purchases_charge_once_and_answer_the_same() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "vixen");
    let body = json!({ "optionId": 3045, "ref": "2", "elm": "hdr", "multisiteNatsCode": "NATS-MS", "consent": true,
                       "idempotencyKey": "k-multi-1", "tracking": { "marketing": { "src": "bar" } } });
    let answers =
        futures::future::join_all((0..50).map(|_| env.post("/internal/purchases/multisite", Some(&token), &body)))
            .await;
    let first = answers[0].clone();
    assert_eq!(first.0, 200, "{first:?}");
    assert!(answers.iter().all(|a| *a == first), "{answers:?}");
    assert_eq!(first.1["success"], true);
    assert!(first.1["memberId"].as_str().unwrap().starts_with("RGN-"));
    let events = env.events().await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        matches!(&events[0], E::SubscriptionStarted { site, nats_code: Some(n), .. } if site == "multisite2025" && n == "NATS-MS")
    );
    assert_eq!(env.scalar("select count(*) from postback").await, 1);
    let read = env.read(user, "vixen").await;
    assert_eq!(read["siteType"], "multi-site");
    assert_eq!(read["multisiteType"], "multisite2025");
    // The welcome data of the new member checks out.
    let (status, welcome) = env
        .get(
            &format!(
                "/internal/welcome-check?site=vixen&memberId={}&hashedMemberId={}",
                first.1["memberId"].as_str().unwrap(),
                first.1["hashedMemberId"].as_str().unwrap()
            ),
            None,
        )
        .await;
    // No profile service here: approved, but the autologin token cannot be issued.
    assert_eq!(status, 503, "{welcome}");
    env.cleanup().await;
}

#[tokio::test]
async fn a_key_reused_with_another_body_or_without_consent_is_refused() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "vixen");
    let body = json!({ "optionId": 2901, "consent": true, "idempotencyKey": "k-1" });
    assert_eq!(env.post("/internal/purchases/multisite", Some(&token), &body).await.0, 200);
    let other = json!({ "optionId": 2903, "consent": true, "idempotencyKey": "k-1" });
    let (status, refused) = env.post("/internal/purchases/multisite", Some(&token), &other).await;
    assert_eq!((status, refused["code"].as_str()), (409, Some("IDEMPOTENCY_KEY_REUSED")));
    let (status, refused) = env
        .post("/internal/purchases/multisite", Some(&token), &json!({ "optionId": 2901, "idempotencyKey": "k-2" }))
        .await;
    assert_eq!((status, refused["code"].as_str()), (422, Some("CONSENT_REQUIRED")));
    let (status, refused) = env
        .post(
            "/internal/purchases/multisite",
            Some(&token),
            &json!({ "optionId": 10301, "consent": true, "idempotencyKey": "k-3" }),
        )
        .await;
    assert_eq!((status, refused["code"].as_str()), (422, Some("INVALID_JOIN_OPTION")));
    // The same refusal again under the same key, without a second look.
    let (again, _) = env
        .post(
            "/internal/purchases/multisite",
            Some(&token),
            &json!({ "optionId": 10301, "consent": true, "idempotencyKey": "k-3" }),
        )
        .await;
    assert_eq!(again, 422);
    // A visitor (the gateway's service token, no user) may not buy.
    assert_eq!(env.post("/internal/purchases/multisite", None, &body).await.0, 401);
    assert_eq!(env.events().await.len(), 1);
    env.cleanup().await;
}

#[tokio::test]
async fn a_trial_is_upgraded_once_at_the_fixed_price() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let mut trial = out("TR-1", "TR-I", Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true }, user);
    trial.join_option_id = Some(10303);
    assert_eq!(env.postback("EPOCH", &trial).await.0, 200);
    assert_eq!(env.read(user, "vixen").await["isFreeLimitedTrial"], true);
    let token = env.token(user, "vixen");
    let body = json!({ "consent": true, "idempotencyKey": "up-1", "ref": "2" });
    let answers =
        futures::future::join_all((0..10).map(|_| env.post("/internal/purchases/trial-upgrade", Some(&token), &body)))
            .await;
    assert!(answers.iter().all(|a| a.0 == 200 && a.1["success"] == true), "{answers:?}");
    let read = env.read(user, "vixen").await;
    assert_eq!(
        (read["subscription"]["type"].as_str(), read["siteType"].as_str()),
        (Some("member"), Some("single-site"))
    );
    assert_eq!(read["isFreeLimitedTrial"], false);
    let upgrades = env.events().await.iter().filter(|e| matches!(e, E::SubscriptionUpgraded { .. })).count();
    assert_eq!(upgrades, 1);
    let raw: String = sqlx::query_scalar("select raw_body from postback where biller = 'RGNATIVE'")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert!(raw.contains("\"price\":\"29.95\""), "{raw}");
    // Nothing left to upgrade.
    let (status, refused) = env
        .post("/internal/purchases/trial-upgrade", Some(&token), &json!({ "consent": true, "idempotencyKey": "up-2" }))
        .await;
    assert_eq!((status, refused["code"].as_str()), (422, Some("NO_TRIAL_TO_UPGRADE")));
    env.cleanup().await;
}

#[tokio::test]
async fn a_single_site_purchase_reactivates_an_expired_membership() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    assert_eq!(
        env.postback(
            "SEGPAY",
            &out("SP-1", "SP-I", Step::Initial { kind: MembershipKind::Member, free_limited_trial: false }, user)
        )
        .await
        .0,
        200
    );
    assert_eq!(env.postback("SEGPAY", &out("SP-1", "SP-X", Step::Expire, user)).await.0, 200);
    assert_eq!(env.read(user, "vixen").await["subscription"]["type"], "expired");
    let token = env.token(user, "vixen");
    let body = json!({ "joinOptionId": 10301, "siteName": "vixen", "consent": true, "idempotencyKey": "re-1" });
    let (status, answer) = env.post("/internal/purchases/singlesite", Some(&token), &body).await;
    assert_eq!((status, &answer["success"]), (200, &json!(true)), "{answer}");
    let read = env.read(user, "vixen").await;
    assert_eq!(read["subscription"]["type"], "member");
    assert_eq!(read["subscriptions"].as_array().unwrap().len(), 1, "reactivated, not a second subscription");
    assert!(matches!(env.events().await.last(), Some(E::SubscriptionReactivated { .. })));
    // A site the user never had: a new subscription.
    let body = json!({ "joinOptionId": 10201, "siteName": "tushy", "consent": true, "idempotencyKey": "re-2" });
    assert_eq!(env.post("/internal/purchases/singlesite", Some(&token), &body).await.0, 200);
    assert_eq!(env.read(user, "tushy").await["subscriptions"].as_array().unwrap().len(), 2);
    // An option of another site is not sold here.
    let body = json!({ "joinOptionId": 10201, "siteName": "vixen", "consent": true, "idempotencyKey": "re-3" });
    assert_eq!(
        env.post("/internal/purchases/singlesite", Some(&token), &body).await.1["code"],
        "MEMBERSHIP_UNAVAILABLE"
    );
    env.cleanup().await;
}

#[tokio::test]
async fn a_cancelled_native_rebill_gets_its_retention_offer_and_is_reactivated_once() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "vixen");
    let member = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
    assert_eq!(env.postback("RGNATIVE", &out("RG-1", "RG-I", member, user)).await.0, 200);
    // No offer while it rebills.
    assert_eq!(env.get("/internal/retention-offer", Some(&token)).await.1["retentionOffer"], serde_json::Value::Null);
    let (status, cancelled) = env.post("/internal/subscription/cancel", Some(&token), &json!({})).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["subscription"]["cancelled"], true);
    assert_eq!(cancelled["subscription"]["isActive"], true);
    let (status, offer) = env.get(&format!("/internal/retention-offer?userUuid={user}"), Some(&token)).await;
    assert_eq!(status, 200);
    let offer = &offer["retentionOffer"];
    assert_eq!(offer["name"], "stay-half-price");
    assert_eq!(
        (offer["currentRebillAmount"].as_str(), offer["currentRebillCurrency"].as_str()),
        (Some("29.95"), Some("USD"))
    );
    assert_eq!(offer["deal"]["newPrice"], "14.95");
    assert_eq!(offer["displayRules"]["rebillPeriod"], 30);
    // The wrong deal is refused; the offer's deal reactivates, twice asked, once done.
    let wrong = json!({ "userUuid": user, "retentionOfferName": "stay-half-price", "deal": { "newPrice": "1.00" } });
    assert_eq!(
        env.post("/internal/reactivate-cancelled-rebill", Some(&token), &wrong).await.1["code"],
        "DEAL_MISMATCH"
    );
    let right = json!({ "userUuid": user, "retentionOfferName": "stay-half-price", "deal": { "newPrice": "14.95" } });
    let (status, answer) = env.post("/internal/reactivate-cancelled-rebill", Some(&token), &right).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["subscription"]["cancelled"], false);
    let (status, again) = env.post("/internal/reactivate-cancelled-rebill", Some(&token), &right).await;
    assert_eq!((status, again["code"].as_str()), (422, Some("NOTHING_TO_REACTIVATE")));
    assert_eq!(again["flash"], "reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed");
    let reactivations: Vec<_> =
        env.events().await.into_iter().filter(|e| matches!(e, E::SubscriptionReactivated { .. })).collect();
    assert!(
        matches!(&reactivations[..], [E::SubscriptionReactivated { retention_offer_name: Some(n), .. }] if n == "stay-half-price")
    );
    // Someone else's uuid is refused.
    let theirs =
        json!({ "userUuid": Uuid::now_v7(), "retentionOfferName": "stay-half-price", "deal": { "newPrice": "14.95" } });
    assert_eq!(env.post("/internal/reactivate-cancelled-rebill", Some(&token), &theirs).await.0, 403);
    env.cleanup().await;
}

#[tokio::test]
async fn a_card_update_url_only_for_the_vxnbill_path() {
    let env = TestEnv::new().await;
    let member = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
    let (vxn, epoch) = (Uuid::now_v7(), Uuid::now_v7());
    assert_eq!(env.postback("VXNBILL", &out("V-1", "V-I", member.clone(), vxn)).await.0, 200);
    assert_eq!(env.postback("EPOCH", &out("E-1", "E-I", member, epoch)).await.0, 200);
    let (status, body) = env.get("/internal/credit-card-update", Some(&env.token(vxn, "vixen"))).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["url"].as_str().unwrap().contains("/card-update/VXNBILL?member=V-1"));
    let (status, body) = env.get("/internal/credit-card-update", Some(&env.token(epoch, "vixen"))).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("UPDATE_CREDIT_CARD_ERROR")));
    assert_eq!(body["flash"], "account.update_credit_card_error");
    // An external biller's rebill is cancelled at the biller.
    let (status, body) = env.post("/internal/subscription/cancel", Some(&env.token(epoch, "vixen")), &json!({})).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("CANCEL_AT_BILLER")));
    env.cleanup().await;
}

#[tokio::test]
async fn a_credit_pack_is_granted_once_per_key() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "vixen");
    let body = json!({ "packId": "ppv-5", "consent": true, "idempotencyKey": "ppv-k1" });
    for _ in 0..3 {
        assert_eq!(env.post("/internal/purchases/credits", Some(&token), &body).await.0, 200);
    }
    let body = json!({ "packId": "ppv-12", "consent": true, "idempotencyKey": "ppv-k2" });
    assert_eq!(env.post("/internal/purchases/credits", Some(&token), &body).await.0, 200);
    let credits: u32 = env
        .events()
        .await
        .iter()
        .map(|e| match e {
            E::PayPerVideoCreditsPurchased { credits, .. } => *credits,
            _ => 0,
        })
        .sum();
    assert_eq!(credits, 17);
    assert_eq!(env.read(user, "vixen").await["subscription"]["type"], "porn-portal");
    env.cleanup().await;
}

#[tokio::test]
async fn a_retention_offers_gems_are_given_once_however_often_the_member_cancels_and_takes_it() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let token = env.token(user, "vixen");
    let yearly = Outgoing {
        join_option_id: Some(10312),
        ..out("RG-Y", "RG-Y-I", Step::Initial { kind: MembershipKind::Member, free_limited_trial: false }, user)
    };
    assert_eq!(env.postback("RGNATIVE", &yearly).await.0, 200);
    let mut gems = Vec::new();
    for round in 0..3 {
        let (status, cancelled) = env.post("/internal/subscription/cancel", Some(&token), &json!({})).await;
        assert_eq!(status, 200, "round {round}: {cancelled}");
        let (_, offer) = env.get(&format!("/internal/retention-offer?userUuid={user}"), Some(&token)).await;
        let offer = &offer["retentionOffer"];
        assert_eq!(offer["name"], "stay-with-gems", "round {round}: {offer}");
        let take = json!({ "userUuid": user, "retentionOfferName": "stay-with-gems", "deal": offer["deal"] });
        let (status, answer) = env.post("/internal/reactivate-cancelled-rebill", Some(&token), &take).await;
        assert_eq!(status, 200, "round {round}: {answer}");
        let offered: Vec<u32> = env
            .events()
            .await
            .into_iter()
            .filter_map(|e| match e {
                E::SubscriptionReactivated { offered_gems, .. } => Some(offered_gems),
                _ => None,
            })
            .collect();
        gems = offered;
    }
    // Three reactivations, the offer's gems in the first only.
    assert_eq!(gems.len(), 3, "{gems:?}");
    assert!(gems[0] > 0, "{gems:?}");
    assert_eq!(&gems[1..], &[0, 0]);
    env.cleanup().await;
}
