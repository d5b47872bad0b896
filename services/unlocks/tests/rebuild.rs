//! Every read model rebuilt from its source equals the live one, and the snapshots the
//! decisions are made on agree with the streams folded whole.

mod support;

use proto_events::catalog::{CatalogEvent, ChannelCategory, ChannelKind};
use proto_events::subscription::MembershipKind;
use proto_events::unlocks::stream_id;
use runtime::testing;
use serde_json::json;
use unlocks::domain::UnlocksStream;
use uuid::Uuid;

use support::{cancelled, pack_event, published, video, TestEnv};

/// The read models' tables, each with the columns its rows are compared in the order of.
const TABLES: [(&str, &str); 11] = [
    ("unlocker", "user_id"),
    ("pending_unlock", "unlock_id"),
    ("channel_pack_unlock", "unlock_id"),
    ("video_unlock", "unlock_id"),
    ("download", "download_id"),
    ("orphaned_debit", "unlock_id"),
    ("catalog_video", "video_id"),
    ("catalog_channel", "channel_id"),
    ("catalog_channel_pack", "channel_pack_id"),
    ("catalog_channel_pack_video", "video_id, channel_pack_id"),
    ("member_subscription", "subscription_id"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rebuilt_read_models_equal_the_live_ones() {
    let env = TestEnv::with(|mut c| {
        c.wallet_url = "http://127.0.0.1:9".into(); // leaves one unlock pending
        c
    })
    .await;
    let (pack_a, pack_b, channel) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let videos: Vec<_> = (0..3).map(|_| support::free_trial_video("vixen")).collect();
    let bts = video("vixen", Some((pack_a, channel)), Some(ChannelCategory::BehindTheScenes));
    let mut events: Vec<_> = videos.iter().map(published).collect();
    events.push(CatalogEvent::ChannelPublished {
        channel_id: channel,
        slug: "behind".into(),
        name: "Behind".into(),
        kind: ChannelKind::Internal,
        category: Some(ChannelCategory::BehindTheScenes),
        sites: vec!["vixen".into()],
        published_at: chrono::Utc::now(),
    });
    events.extend([
        published(&bts),
        pack_event(pack_a, channel, vec![bts.video_id]),
        pack_event(pack_b, channel, vec![]),
    ]);
    env.catalog(&events).await;
    let (member, trial_user) = (Uuid::now_v7(), Uuid::now_v7());
    let subscription = env.subscribe(member, MembershipKind::Member, &["vixen"], false).await;
    env.subscribe(trial_user, MembershipKind::Trial, &["vixen"], true).await;
    env.fund_gems(member, 30).await;

    // Through a service whose wallet answers: unlocks, trial videos, downloads.
    let config = support::test_config(&env.schema, &env.wallet_url, &env.subscription_url);
    let live = unlocks::State::new(env.pool.clone(), env.store.clone(), config, env.signer.verifier());
    let meta = proto_events::EventMeta::new(proto_events::Actor::User(member));
    unlocks::domain::process::unlock_channel_pack(&live, &env.asker(member), pack_a, &meta).await.unwrap();
    for v in &videos[..2] {
        let input = serde_json::from_value(json!({ "videoId": v.video_id, "videoNewId": v.new_id })).unwrap();
        unlocks::domain::process::unlock_video(&live, &env.asker(trial_user), input, &meta).await.unwrap();
    }
    for size in ["p270", "p1080"] {
        unlocks::media::download(&live, &env.asker(member), videos[0].video_id, size, &meta).await.unwrap();
        unlocks::media::download(&live, &env.asker(member), bts.video_id, size, &meta).await.unwrap();
    }
    // Through the one whose wallet does not: a pending unlock stays.
    let r = env
        .http()
        .post(format!("{}/internal/unlocks/channel-packs/{pack_b}", env.base))
        .bearer_auth(env.token(member))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    // A credits unlock left pending too (a cancel gives up pending pack unlocks, not these).
    let r = env
        .http()
        .post(format!("{}/internal/unlocks/videos", env.base))
        .bearer_auth(env.token(member))
        .json(&json!({ "videoId": videos[2].video_id, "videoNewId": videos[2].new_id }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    env.subscription(&[cancelled(subscription, member)]).await;
    // The given-up pack unlock's debit lands after all: recorded as orphaned.
    let given_up: Uuid =
        sqlx::query_scalar("select (payload->>'unlock_id')::uuid from event where event_type = 'UnlockRefused'")
            .fetch_one(&env.pool)
            .await
            .unwrap();
    let paid = unlocks::domain::PendingUnlock {
        target: proto_events::unlocks::UnlockTarget::ChannelPack { channel_pack_id: pack_b, channel_id: channel },
        asset: proto_events::wallet::Asset::Gems,
        amount: 10,
        requested_at: chrono::Utc::now(),
    };
    let late = unlocks::domain::Command::CompleteUnlock {
        unlock_id: given_up,
        paid,
        may_unlock: false,
        now: chrono::Utc::now(),
    };
    live.book.submit(member, late, &meta).await.unwrap().unwrap();

    let before = testing::rows(&env.pool, &TABLES).await;
    for (i, (table, _)) in TABLES.iter().enumerate() {
        assert!(!before[i].is_empty() || *table == "channel_pack_unlock", "{table} is empty");
    }
    testing::assert_rebuild_restores(&env.pool, unlocks::projections(&env.state), &TABLES, &before).await;

    // The read models agree with each stream folded whole.
    for user in [member, trial_user] {
        let mut conn = env.pool.acquire().await.unwrap();
        let (folded, version) = env.store.state_of::<UnlocksStream>(&mut conn, &stream_id(user)).await.unwrap();
        let row: (i64, i32) = sqlx::query_as("select version, free_trial_videos_used from unlocker where user_id = $1")
            .bind(user)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!((version, folded.free_trial_videos_used as i32), row);
        let packs: i64 =
            sqlx::query_scalar("select count(*) from channel_pack_unlock where user_id = $1 and forfeited_at is null")
                .bind(user)
                .fetch_one(&env.pool)
                .await
                .unwrap();
        let pending: i64 = sqlx::query_scalar("select count(*) from pending_unlock where user_id = $1")
            .bind(user)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        let videos_held: i64 = sqlx::query_scalar("select count(*) from video_unlock where user_id = $1")
            .bind(user)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!(
            (folded.packs.len() as i64, folded.pending.len() as i64, folded.videos.len() as i64),
            (packs, pending, videos_held)
        );
    }
    env.cleanup().await;
}
