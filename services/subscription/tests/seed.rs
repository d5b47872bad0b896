//! The demo memberships come through the decider, read as the demo users' kinds say, and
//! seeding again changes nothing; the read model rebuilt from the events equals the live one.

mod support;

use runtime::projection::rebuild;
use subscription::projections::MEMBERS;
use support::TestEnv;

async fn read(env: &TestEnv, username: &str) -> serde_json::Value {
    env.read(profile::demo_user_id(username), "vixen").await
}

#[tokio::test]
async fn demo_users_get_the_memberships_their_kinds_say() {
    let env = TestEnv::new().await;
    subscription::seed::seed_demo_memberships(&env.state).await.unwrap();
    let events = env.scalar("select count(*) from event").await;
    subscription::seed::seed_demo_memberships(&env.state).await.unwrap();
    assert_eq!(env.scalar("select count(*) from event").await, events, "seeding again changes nothing");

    let member = read(&env, "member").await;
    assert_eq!(
        (member["subscription"]["type"].as_str(), member["siteType"].as_str()),
        (Some("member"), Some("single-site"))
    );
    assert_eq!(member["subscription"]["seniority"], 14);
    let multisite = read(&env, "multisite").await;
    assert_eq!(
        (multisite["siteType"].as_str(), multisite["multisiteType"].as_str()),
        (Some("multi-site"), Some("multisite2025"))
    );
    assert_eq!(multisite["tenantsSubscriptionState"]["blacked"], "full");
    let trial = read(&env, "trial").await;
    assert_eq!(
        (trial["subscription"]["type"].as_str(), trial["isFreeLimitedTrial"].as_bool()),
        (Some("trial"), Some(false))
    );
    let free = read(&env, "freetrial").await;
    assert_eq!(
        (free["subscription"]["type"].as_str(), free["isFreeLimitedTrial"].as_bool()),
        (Some("trial"), Some(true))
    );
    let ppv = read(&env, "ppv").await;
    assert_eq!(
        (ppv["subscription"]["type"].as_str(), ppv["subscription"]["pornPortal"].as_bool()),
        (Some("porn-portal"), Some(true))
    );
    let expired = read(&env, "expired").await;
    assert_eq!(
        (expired["subscription"]["type"].as_str(), expired["siteType"].as_str()),
        (Some("expired"), Some("expired"))
    );
    let cancelled = read(&env, "cancelled").await;
    assert_eq!(
        (
            cancelled["subscription"]["cancelled"].as_bool(),
            cancelled["subscription"]["isActive"].as_bool(),
            cancelled["billerName"].as_str()
        ),
        (Some(true), Some(true), Some("RGNATIVE"))
    );
    assert_eq!(read(&env, "tandemparent").await["biller"]["url"], "/vxnbill");
    assert_eq!(read(&env, "admin").await["subscription"]["type"], "porn-portal");
    // The tandem child reads its parent's membership once the profile tells the link.
    sqlx::query(
        "insert into account (user_id, email, tandem_parent_user_id) values ($1, 'tandemchild@paysite.test', $2)",
    )
    .bind(profile::demo_user_id("tandemchild"))
    .bind(profile::demo_user_id("tandemparent"))
    .execute(&env.pool)
    .await
    .unwrap();
    let child = read(&env, "tandemchild").await;
    assert_eq!(
        (child["subscription"]["type"].as_str(), child["tenantsSubscriptionState"]["channels"].as_str()),
        (Some("member"), Some("none"))
    );
    assert_eq!(child["tandemSubscription"]["isTandemChildAccount"], true);
    // The light read is the four fields of product.md, "Subscriptions and their states".
    let (status, light) =
        env.get("/internal/subscription/light", Some(&env.token(profile::demo_user_id("member"), "vixen"))).await;
    assert_eq!(status, 200);
    let mut keys: Vec<_> = light.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["billerName", "siteAccessArray", "subscription", "tenantsSubscriptionState"]);
    env.cleanup().await;
}

#[tokio::test]
async fn the_rebuilt_read_model_equals_the_live_one() {
    let env = TestEnv::new().await;
    subscription::seed::seed_demo_memberships(&env.state).await.unwrap();
    let snapshot = "select coalesce(jsonb_agg(to_jsonb(m) order by subscription_id), '[]') from member_subscription m";
    let live: serde_json::Value = sqlx::query_scalar(snapshot).fetch_one(&env.pool).await.unwrap();
    let replayed = rebuild(&env.pool, &MEMBERS).await.unwrap();
    assert!(replayed > 20);
    let rebuilt: serde_json::Value = sqlx::query_scalar(snapshot).fetch_one(&env.pool).await.unwrap();
    assert_eq!(live, rebuilt);
    env.cleanup().await;
}
