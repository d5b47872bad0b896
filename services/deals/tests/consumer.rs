//! Porn-portal subscribers' special offers, learnt from subscription events over the real broker.

mod support;

use std::time::Duration;

use proto_events::subscription::MembershipKind;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use support::{deal_body, expired, started, TestEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn porn_portal_subscribers_see_the_special_offers_until_their_subscription_ends() {
    let env = TestEnv::new().await;
    env.declare_queue().await;
    let cancel = CancellationToken::new();
    let consumer = env.consumer_task(&cancel);

    env.create_deal(deal_body("everyone", "tushy", (true, 2), (true, 2), (true, 2))).await;
    let mut special = deal_body("special", "tushy", (true, 1), (true, 1), (true, 1));
    special["specialOffer"] = json!(true);
    env.create_deal(special).await;

    let (portal, member) = (Uuid::now_v7(), Uuid::now_v7());
    let portal_subscription = Uuid::now_v7();
    let first = env.envelope(&started(portal_subscription, portal, MembershipKind::PornPortal));
    // Delivered twice (a redelivery keeps its event id): applied once.
    env.publish(&[first.clone(), first, env.envelope(&started(Uuid::now_v7(), member, MembershipKind::Member))]).await;
    env.wait_for("select count(*) from portal_subscription", 2, Duration::from_secs(20)).await;

    let (portal_token, member_token) = (env.token(portal, "tushy", &[]), env.token(member, "tushy", &[]));
    for deal_type in ["carousel", "listing", "interstitial"] {
        assert_eq!(env.find(deal_type, "tushy", None, Some(&portal_token)).await, ["special", "everyone"]);
        assert_eq!(env.find(deal_type, "tushy", None, Some(&member_token)).await, ["everyone"]);
        assert_eq!(env.find(deal_type, "tushy", None, None).await, ["everyone"]);
    }
    let (_, offers) = env.get("/internal/offers?site=tushy", Some(&portal_token)).await;
    assert_eq!(offers["deals"][0]["specialOffer"], true);

    env.publish(&[env.envelope(&expired(portal_subscription, portal))]).await;
    env.wait_for("select count(*) from portal_subscription where status = 'ended'", 1, Duration::from_secs(20)).await;
    assert_eq!(env.find("carousel", "tushy", None, Some(&portal_token)).await, ["everyone"], "the subscription ended");
    assert_eq!(env.scalar("select count(*) from inbox").await, 3, "the redelivered start was applied once");
    cancel.cancel();
    consumer.await.unwrap();
    env.cleanup().await;
}
