//! Channel pack unlocks against the real wallet: debit once, record once, whatever the
//! concurrency; the reconciler finishes what a failed request left; a cancel forfeits.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::Value;
use unlocks::api::{PackUnlockResponse, UnlockStateResponse};
use uuid::Uuid;

use support::{cancelled, channel_event, channel_on, pack_event, TestEnv};

async fn unlock(env: &TestEnv, client: &reqwest::Client, token: &str, pack: Uuid) -> (StatusCode, Value) {
    let response = client
        .post(format!("{}/internal/unlocks/channel-packs/{pack}", env.base))
        .bearer_auth(token)
        .header("x-paysite-tenant", "vixen")
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

async fn state(env: &TestEnv, token: &str) -> UnlockStateResponse {
    state_at(env, token, "/internal/unlocks/state").await
}

/// The unlock state answered at `path` (the user's own, or `/internal/users/{id}/unlocks`).
async fn state_at(env: &TestEnv, token: &str, path: &str) -> UnlockStateResponse {
    env.http().get(format!("{}{path}", env.base)).bearer_auth(token).send().await.unwrap().json().await.unwrap()
}

/// Publishes `n` packs of one channel; returns their ids.
async fn packs(env: &TestEnv, n: usize) -> Vec<Uuid> {
    let channel = Uuid::now_v7();
    let ids: Vec<Uuid> = (0..n).map(|_| Uuid::now_v7()).collect();
    let mut events = vec![channel_event(channel)];
    events.extend(ids.iter().map(|id| pack_event(*id, channel, vec![Uuid::now_v7()])));
    env.catalog(&events).await;
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pack_unlock_debits_ten_gems_records_the_unlock_and_answers_every_outcome() {
    let env = TestEnv::new().await;
    let ids = packs(&env, 4).await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    let client = env.http();

    // Not a member: no tenant access.
    let (status, body) = unlock(&env, &client, &token, ids[0]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("NO_TENANT_ACCESS")));

    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 15).await;
    let (status, body) = unlock(&env, &client, &token, ids[0]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let first: PackUnlockResponse = serde_json::from_value(body).unwrap();
    assert_eq!((first.status.as_str(), first.channel_pack_id, first.gems_balance), ("success", ids[0], 5));

    let (status, body) = unlock(&env, &client, &token, ids[0]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("ALREADY_UNLOCKED")));

    let (status, body) = unlock(&env, &client, &token, ids[1]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("NOT_ENOUGH_GEMS")), "{body}");
    let days = body["daysUntilRefreshGems"].as_u64().unwrap();
    assert!((1..=7).contains(&days), "{body}");
    assert_eq!((body["balance"].as_u64(), body["needed"].as_u64()), (Some(5), Some(10)));

    let (status, body) = unlock(&env, &client, &token, Uuid::now_v7()).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("CHANNEL_PACK_NOT_FOUND")));

    let s = state(&env, &token).await;
    assert_eq!(s.unlocked_channel_pack_ids, vec![ids[0]]);
    assert_eq!(s.percentage_of_unlocked_channel_packs, 25, "1 of 4 packs");
    assert_eq!(
        (s.channel_pack_cost_gems, s.video_unlock_cost_credits, s.free_limited_trial_videos),
        (10, 1, 3),
        "the default prices and trial (product.md, 'Business constants and limits', docs/decisions/)"
    );
    assert_eq!(s.last_channel_pack_unlock_date, Some(first.unlocked_at));
    assert!(s.has_unlocked_channel_pack_in_last_two_weeks);
    // Fifteen days on, the unlock is no longer recent.
    env.set_now(Some(first.unlocked_at + chrono::Duration::days(15)));
    assert!(!state(&env, &token).await.has_unlocked_channel_pack_in_last_two_weeks);
    env.set_now(None);

    assert_eq!(env.debits().await, 1);
    assert_eq!(env.gems(user).await, 5);
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0, "the refused unlock is not pending");
    let refused = env.scalar("select count(*) from event where event_type = 'UnlockRefused'").await;
    assert_eq!(refused, 1);

    // A pack of a channel only another brand carries is not this brand's: not found, no debit.
    let (tushy_channel, tushy_pack) = (Uuid::now_v7(), Uuid::now_v7());
    env.catalog(&[channel_on(tushy_channel, "tushy"), pack_event(tushy_pack, tushy_channel, vec![])]).await;
    env.fund_gems(user, 10).await;
    let (status, body) = unlock(&env, &client, &token, tushy_pack).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("CHANNEL_PACK_NOT_FOUND")), "{body}");
    assert_eq!((env.debits().await, env.gems(user).await), (1, 15));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_configured_pack_price_is_the_one_the_state_answers_and_the_unlock_debits() {
    let env = TestEnv::with(|mut c| {
        c.pack_gems = 12;
        c.video_credits = 2;
        c.free_trial_videos = 4;
        c
    })
    .await;
    let ids = packs(&env, 2).await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    let client = env.http();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 20).await;

    // The prices the front end shows, before any unlock, on both the user's and another service's read.
    let mine = state(&env, &token).await;
    assert_eq!(
        (mine.channel_pack_cost_gems, mine.video_unlock_cost_credits, mine.free_limited_trial_videos),
        (12, 2, 4)
    );
    let other = state_at(&env, &token, &format!("/internal/users/{user}/unlocks")).await;
    assert_eq!(other.channel_pack_cost_gems, 12);

    let (status, body) = unlock(&env, &client, &token, ids[0]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["gemsBalance"], 8, "20 less the configured 12");
    let (status, body) = unlock(&env, &client, &token, ids[1]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("NOT_ENOUGH_GEMS")), "{body}");
    assert_eq!((body["balance"].as_u64(), body["needed"].as_u64()), (Some(8), Some(12)));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_concurrent_unlocks_of_one_pack_debit_once_and_unlock_once() {
    let env = TestEnv::new().await;
    let ids = packs(&env, 1).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 50).await;
    let token = env.token(user);
    let client = env.http();
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..200 {
        let (client, token, url) =
            (client.clone(), token.clone(), format!("{}/internal/unlocks/channel-packs/{}", env.base, ids[0]));
        requests.spawn(async move {
            let r = client.post(url).bearer_auth(token).send().await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        });
    }
    let (mut succeeded, mut already, mut unlock_ids) = (0, 0, std::collections::HashSet::new());
    while let Some(answer) = requests.join_next().await {
        let (status, body) = answer.unwrap();
        match status {
            StatusCode::OK => {
                succeeded += 1;
                unlock_ids.insert(body["unlockId"].as_str().unwrap().to_owned());
                assert_eq!(body["gemsBalance"], 40);
            }
            StatusCode::CONFLICT if body["code"] == "ALREADY_UNLOCKED" => already += 1,
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(succeeded + already, 200);
    assert!(succeeded >= 1);
    assert_eq!(unlock_ids.len(), 1, "every success names the one unlock");
    assert_eq!(env.debits().await, 1, "one debit");
    assert_eq!(env.gems(user).await, 40);
    assert_eq!(
        env.scalar("select count(*) from event where event_type = 'ChannelPackUnlocked'").await,
        1,
        "one unlock"
    );
    assert_eq!(env.scalar("select count(*) from event where event_type = 'UnlockRequested'").await, 1);
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 1);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_a_thousand_concurrent_unlocks_of_different_packs_with_fifty_gems_exactly_five_succeed() {
    // The burst is heavy on a shared machine: give the wallet's debit calls room, so a slow
    // answer is not taken for an unanswered one (the assertions stay exact).
    let env = TestEnv::with(|mut c| {
        c.wallet_timeout = std::time::Duration::from_secs(60);
        c
    })
    .await;
    let ids = packs(&env, 1000).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 50).await;
    let token = env.token(user);
    let client = runtime::tls::client_builder()
        .timeout(std::time::Duration::from_secs(120))
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();
    let limit = std::sync::Arc::new(tokio::sync::Semaphore::new(200));
    let mut requests = tokio::task::JoinSet::new();
    for id in &ids {
        let (client, token, url) =
            (client.clone(), token.clone(), format!("{}/internal/unlocks/channel-packs/{id}", env.base));
        let limit = limit.clone();
        requests.spawn(async move {
            let _permit = limit.acquire_owned().await.unwrap();
            let r = client.post(url).bearer_auth(token).send().await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        });
    }
    let (mut succeeded, mut refused) = (0, 0);
    while let Some(answer) = requests.join_next().await {
        let (status, body) = answer.unwrap();
        match (status, body["code"].as_str()) {
            (StatusCode::OK, _) => succeeded += 1,
            (StatusCode::CONFLICT, Some("NOT_ENOUGH_GEMS")) => refused += 1,
            other => panic!("{other:?}: {body}"),
        }
    }
    assert_eq!((succeeded, refused), (5, 995));
    assert_eq!(env.debits().await, 5);
    assert_eq!(env.gems(user).await, 0);
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 5);
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_unlock_the_wallet_did_not_answer_is_finished_by_the_reconciler_exactly_once() {
    // The request's service talks to a wallet that is not there.
    let env = TestEnv::with(|mut c| {
        c.wallet_url = "http://127.0.0.1:9".into();
        c
    })
    .await;
    let ids = packs(&env, 1).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 30).await;
    let token = env.token(user);
    let (status, body) = unlock(&env, &env.http(), &token, ids[0]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("UNLOCK_FAILED")));
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 1);
    assert_eq!(env.debits().await, 0);

    // The reconciler, with the wallet reachable, finishes it; a second pass changes nothing.
    let config = support::test_config(&env.schema, &env.wallet_url, &env.subscription_url);
    let reconciling = unlocks::State::new(env.pool.clone(), env.store.clone(), config, env.signer.verifier());
    let reconciler = unlocks::domain::process::Reconciler::new(reconciling);
    assert_eq!(reconciler.pass().await.unwrap().finished, 1);
    assert_eq!(reconciler.pass().await.unwrap(), unlocks::domain::process::Pass::default());
    assert_eq!((env.debits().await, env.gems(user).await), (1, 20));
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 1);
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancel_forfeits_the_unlocked_packs_and_a_later_expiry_takes_nothing_more() {
    let env = TestEnv::new().await;
    let ids = packs(&env, 3).await;
    let user = Uuid::now_v7();
    let subscription = env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 30).await;
    let token = env.token(user);
    for id in &ids[..2] {
        assert_eq!(unlock(&env, &env.http(), &token, *id).await.0, StatusCode::OK);
    }
    assert_eq!(state(&env, &token).await.unlocked_channel_pack_ids.len(), 2);
    env.subscription(&[cancelled(subscription, user)]).await;
    let s = state(&env, &token).await;
    assert!(s.unlocked_channel_pack_ids.is_empty(), "packs are lost on cancel");
    assert!(s.last_channel_pack_unlock_date.is_some());
    assert_eq!(s.percentage_of_unlocked_channel_packs, 0);
    let forfeits = env.scalar("select count(*) from event where event_type = 'ChannelPacksForfeited'").await;
    assert_eq!(forfeits, 1);
    env.subscription(&[proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: user,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    assert_eq!(env.scalar("select count(*) from event where event_type = 'ChannelPacksForfeited'").await, 1);
    // The period over, no access any more: a new unlock is refused before any debit.
    let (status, body) = unlock(&env, &env.http(), &token, ids[2]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("NO_TENANT_ACCESS")));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_subscription_that_runs_again_after_an_expiry_forfeits_on_its_next_cancel() {
    use proto_events::subscription::SubscriptionEvent;
    let env = TestEnv::new().await;
    let ids = packs(&env, 2).await;
    let user = Uuid::now_v7();
    let subscription = env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 20).await;
    let token = env.token(user);
    assert_eq!(unlock(&env, &env.http(), &token, ids[0]).await.0, StatusCode::OK);
    let forfeits = || env.scalar("select count(*) from event where event_type = 'ChannelPacksForfeited'");
    env.subscription(&[SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: user,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    assert_eq!(forfeits().await, 1, "an expiry without a cancel forfeits");
    // Spec: "rebill: another paid period; an expired subscription is active again". The
    // subscription service tells the rebill, then the reactivation that revives it.
    env.subscription(&[
        SubscriptionEvent::SubscriptionRenewed {
            subscription_id: subscription,
            user_id: user,
            transaction_id: "REBILL-2".into(),
            renewed_at: chrono::Utc::now(),
        },
        SubscriptionEvent::SubscriptionReactivated {
            subscription_id: subscription,
            user_id: user,
            transaction_id: "INITIAL".into(),
            reactivated_at: chrono::Utc::now(),
            retention_offer_name: None,
            offered_gems: 0,
        },
    ])
    .await;
    let standing: (String, bool) =
        sqlx::query_as("select standing, cancelled from member_subscription where subscription_id = $1")
            .bind(subscription)
            .fetch_one(&env.pool)
            .await
            .unwrap();
    assert_eq!(standing, ("active".to_owned(), false));
    assert_eq!(unlock(&env, &env.http(), &token, ids[1]).await.0, StatusCode::OK);
    assert_eq!(state(&env, &token).await.unlocked_channel_pack_ids.len(), 1);
    // Its next cancel takes what was unlocked since, as a cancel of a running subscription does.
    env.subscription(&[cancelled(subscription, user)]).await;
    assert_eq!(forfeits().await, 2);
    assert!(state(&env, &token).await.unlocked_channel_pack_ids.is_empty(), "packs are lost on cancel");
    env.cleanup().await;
}
