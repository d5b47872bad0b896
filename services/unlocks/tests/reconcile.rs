//! The reconciler and the request path never debit an unlock that was given up, leave a
//! pending unlock alone while its debit is in flight, back off on failures, and give up
//! pending pack unlocks when the subscription ends.

mod support;

use proto_events::subscription::MembershipKind;
use proto_events::{Actor, EventMeta};
use unlocks::domain::process::{self as unlock, NotFinished, Pass, Reconciler};
use unlocks::error::ApiError;
use uuid::Uuid;

use support::{cancelled, channel_event, pack_event, TestEnv};

/// The env's own state talks to no wallet; this one to the real wallet.
fn reachable(env: &TestEnv) -> unlocks::State {
    let config = support::test_config(&env.schema, &env.wallet_url, &env.subscription_url);
    unlocks::State::new(env.pool.clone(), env.store.clone(), config, env.signer.verifier())
}

fn unreachable_wallet() -> impl FnOnce(unlocks::config::UnlocksConfig) -> unlocks::config::UnlocksConfig {
    |mut c| {
        c.wallet_url = "http://127.0.0.1:9".into();
        c.wallet_timeout = std::time::Duration::from_millis(500);
        // Backoff long enough that "not due again yet" holds on a slow machine.
        c.reconcile_interval = std::time::Duration::from_secs(60);
        c
    }
}

async fn one_pack(env: &TestEnv) -> Uuid {
    let pack = Uuid::now_v7();
    let channel = Uuid::now_v7();
    env.catalog(&[channel_event(channel), pack_event(pack, channel, vec![Uuid::now_v7()])]).await;
    pack
}

fn meta(user: Uuid) -> EventMeta {
    EventMeta::new(Actor::User(user)).with_tenant("vixen")
}

async fn pending_id(env: &TestEnv, user: Uuid) -> Uuid {
    sqlx::query_scalar("select unlock_id from pending_unlock where user_id = $1")
        .bind(user)
        .fetch_one(&env.pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_refused_unlock_is_never_debited_later_by_a_stale_reconciler() {
    let env = TestEnv::with(unreachable_wallet()).await;
    let pack = one_pack(&env).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    // The wallet is slow (here: unreachable): U1 stays pending.
    let first = unlock::unlock_channel_pack(&env.state, &env.asker(user), pack, &meta(user)).await;
    assert!(matches!(first, Err(ApiError::UnlockFailed { .. })));
    let u1 = pending_id(&env, user).await;
    // The user retries with no gems: joins U1, is refused, U1 is given up.
    let wallet = reachable(&env);
    let retry = unlock::unlock_channel_pack(&wallet, &env.asker(user), pack, &meta(user)).await;
    assert!(matches!(retry, Err(ApiError::NotEnoughGems { .. })), "{retry:?}");
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0);
    // Buys gems and unlocks as U2.
    env.fund_gems(user, 30).await;
    let u2 = unlock::unlock_channel_pack(&wallet, &env.asker(user), pack, &meta(user)).await.unwrap();
    assert_ne!(u2.unlock_id, u1);
    assert_eq!(env.debits().await, 1);
    // The reconciler, working through a list read before the refusal, reaches U1: it
    // re-reads U1 under the user's lock, sees it given up, and does not debit it.
    let stale = unlock::finish(&wallet, &env.asker(user), u1, &meta(user)).await;
    assert!(matches!(stale, Err(NotFinished::GivenUp)));
    assert_eq!((env.debits().await, env.gems(user).await), (1, 20));
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 1);
    assert_eq!(env.scalar("select count(*) from orphaned_debit").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancel_gives_up_a_pending_pack_unlock_and_the_reconciler_does_not_debit_it() {
    let env = TestEnv::with(unreachable_wallet()).await;
    let pack = one_pack(&env).await;
    let user = Uuid::now_v7();
    let subscription = env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 30).await;
    let first = unlock::unlock_channel_pack(&env.state, &env.asker(user), pack, &meta(user)).await;
    assert!(matches!(first, Err(ApiError::UnlockFailed { .. })));
    env.subscription(&[cancelled(subscription, user)]).await;
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0, "the cancel gives it up");
    let refused = env
        .scalar(
            "select count(*) from event where event_type = 'UnlockRefused' and payload->>'reason' = 'no_tenant_access'",
        )
        .await;
    assert_eq!(refused, 1);
    let pass = Reconciler::new(reachable(&env)).pass().await.unwrap();
    assert_eq!(pass, Pass::default());
    assert_eq!((env.debits().await, env.gems(user).await), (0, 30));
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pending_pack_unlock_of_a_user_who_lost_access_is_refused_before_any_debit() {
    let env = TestEnv::with(unreachable_wallet()).await;
    let pack = one_pack(&env).await;
    let user = Uuid::now_v7();
    let subscription = env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 30).await;
    let _ = unlock::unlock_channel_pack(&env.state, &env.asker(user), pack, &meta(user)).await;
    let u1 = pending_id(&env, user).await;
    // Its owner recorded the end of the subscription; this service has not heard of it yet.
    env.owner_records(&[proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: user,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    let late = unlock::finish(&reachable(&env), &env.asker(user), u1, &meta(user)).await;
    assert!(matches!(late, Err(NotFinished::NoAccess)));
    assert_eq!((env.debits().await, env.scalar("select count(*) from pending_unlock").await), (0, 0));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pending_unlock_the_wallet_never_answers_backs_off_and_does_not_block_newer_ones() {
    let env = TestEnv::with(unreachable_wallet()).await;
    let pack = one_pack(&env).await;
    let stuck = Uuid::now_v7();
    env.subscribe(stuck, MembershipKind::Member, &["vixen"], false).await;
    let _ = unlock::unlock_channel_pack(&env.state, &env.asker(stuck), pack, &meta(stuck)).await;
    // The reconciler of the env also cannot reach the wallet: one try, then a wait.
    let reconciler = Reconciler::new(env.state.clone());
    assert_eq!(reconciler.pass().await.unwrap().left, 1);
    let attempts: i32 =
        sqlx::query_scalar("select attempts from reconcile_attempt").fetch_one(&env.pool).await.unwrap();
    assert_eq!(attempts, 1);
    assert_eq!(reconciler.pass().await.unwrap(), Pass::default(), "not due again yet");
    // A newer unlock of another user is still taken.
    let other = Uuid::now_v7();
    env.subscribe(other, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(other, 10).await;
    let _ = unlock::unlock_channel_pack(&env.state, &env.asker(other), pack, &meta(other)).await;
    let pass = Reconciler::new(reachable(&env)).pass().await.unwrap();
    assert_eq!(pass.finished, 1);
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 1);
    assert_eq!(unlock::backoff(std::time::Duration::from_secs(5), 3), std::time::Duration::from_secs(40));
    assert_eq!(unlock::backoff(std::time::Duration::from_secs(5), 30), std::time::Duration::from_secs(3600));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_free_trial_joins_a_pending_credits_unlock_of_the_video_instead_of_opening_it_twice() {
    let env = TestEnv::with(unreachable_wallet()).await;
    let v = support::video("vixen", None, None);
    env.catalog(&[support::published(&v)]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::PornPortal, &["vixen"], false).await;
    env.fund_credits(user, 1).await;
    let input = || unlocks::api::UnlockVideoInput {
        video_id: v.video_id,
        video_sources_url: None,
        video_new_id: v.new_id.clone(),
    };
    // A credits unlock whose debit was not answered: pending.
    let first = unlock::unlock_video(&env.state, &env.asker(user), input(), &meta(user)).await;
    assert!(matches!(first, Err(ApiError::UnlockFailed { .. })));
    let pending = pending_id(&env, user).await;
    // Then a free limited trial starts; unlocking again joins the pending credits unlock.
    env.subscribe(user, MembershipKind::Trial, &["vixen"], true).await;
    let again = unlock::unlock_video(&reachable(&env), &env.asker(user), input(), &meta(user)).await.unwrap();
    assert_eq!((again.unlock_id, again.paid_with.as_str()), (pending, "credits"));
    // The reconciler has nothing left, and nothing failed: one unlock, one debit.
    assert_eq!(Reconciler::new(reachable(&env)).pass().await.unwrap(), Pass::default());
    assert_eq!(env.scalar("select count(*) from video_unlock").await, 1);
    assert_eq!((env.debits().await, env.credits(user).await), (1, 0));
    assert_eq!(env.scalar("select count(*) from orphaned_debit").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_operator_lists_orphaned_debits_and_a_user_may_not() {
    let env = TestEnv::new().await;
    let pack = one_pack(&env).await;
    let user = Uuid::now_v7();
    let channel: Uuid = sqlx::query_scalar("select channel_id from catalog_channel_pack where channel_pack_id = $1")
        .bind(pack)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    // A debit reported for an unlock this service gave up (never pending here), without access.
    let unlock_id = Uuid::now_v7();
    let paid = unlocks::domain::PendingUnlock {
        target: proto_events::unlocks::UnlockTarget::ChannelPack { channel_pack_id: pack, channel_id: channel },
        asset: proto_events::wallet::Asset::Gems,
        amount: 10,
        requested_at: chrono::Utc::now(),
    };
    let late = unlocks::domain::Command::CompleteUnlock { unlock_id, paid, may_unlock: false, now: chrono::Utc::now() };
    env.state.book.submit(user, late, &meta(user)).await.unwrap().unwrap();
    let admin = runtime::auth::Claims::new(
        Uuid::now_v7(),
        "vixen.localhost:8080",
        "vixen",
        Uuid::now_v7(),
        vec![runtime::auth::ADMIN_GROUP.to_owned()],
        std::time::Duration::from_secs(3600),
    );
    let url = format!("{}/internal/admin/orphaned-debits", env.base);
    let listed: Vec<unlocks::queries::OrphanedDebit> =
        env.http().get(&url).bearer_auth(env.signer.sign(&admin)).send().await.unwrap().json().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].unlock_id, listed[0].user_id, listed[0].amount), (unlock_id, user, 10));
    assert_eq!((listed[0].asset.as_str(), listed[0].reason.as_str()), ("gems", "given_up"));
    let denied = env.http().get(&url).bearer_auth(env.token(user)).send().await.unwrap();
    assert_eq!(denied.status(), reqwest::StatusCode::FORBIDDEN);
    env.cleanup().await;
}
