//! The catalog and subscription consumers over the real broker.

mod support;

use std::time::Duration;

use proto_events::catalog::{CatalogEvent, ChannelCategory, ChannelKind};
use proto_events::subscription::MembershipKind;
use uuid::Uuid;

use support::{cancelled, pack_event, published, started, video, TestEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn catalog_facts_and_subscriptions_arrive_and_a_cancel_forfeits_once() {
    let env = TestEnv::new().await;
    let cancel = support::cancel_token();
    let consumers = env.consumers(&cancel).await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let mut v = video("vixen", Some((pack, channel)), None);
    let channel_event = CatalogEvent::ChannelPublished {
        channel_id: channel,
        slug: "behind".into(),
        name: "Behind".into(),
        kind: ChannelKind::Internal,
        category: Some(ChannelCategory::BehindTheScenes),
        sites: vec!["vixen".into()],
        published_at: chrono::Utc::now(),
    };
    let first = env.envelope(&published(&v), format!("video-{}", v.video_id));
    v.site = "tushy".into();
    let updated = CatalogEvent::VideoUpdated { video: v.clone(), updated_at: chrono::Utc::now() };
    let category = CatalogEvent::CategoryDefined {
        category_id: Uuid::now_v7(),
        slug: "outdoors".into(),
        name: "Outdoors".into(),
        sites: vec!["vixen".into()],
        defined_at: chrono::Utc::now(),
    };
    env.publish(
        "catalog",
        &[
            env.envelope(&channel_event, format!("channel-{channel}")),
            first.clone(),
            first,
            env.envelope(&updated, format!("video-{}", v.video_id)),
            env.envelope(&pack_event(pack, channel, vec![v.video_id]), format!("channel-pack-{pack}")),
            env.envelope(&category, format!("category-{}", Uuid::now_v7())),
        ],
    )
    .await;
    env.wait_for("select count(*) from catalog_channel_pack_video", 1, Duration::from_secs(20)).await;
    let (site, category): (String, Option<String>) =
        sqlx::query_as("select site, channel_category from catalog_video").fetch_one(&env.pool).await.unwrap();
    assert_eq!(site, "tushy", "the update replaced the video");
    assert_eq!(category, None, "the video carries no category of its own");
    let found = unlocks::queries::video(&env.pool, v.video_id).await.unwrap().unwrap();
    assert_eq!(found.channel_category, Some(ChannelCategory::BehindTheScenes), "the channel's category applies");
    assert_eq!(found.channel_pack_id, Some(pack));
    assert_eq!(env.scalar("select count(*) from inbox").await, 4, "the redelivered video once, the category not bound");

    // A member unlocks the pack; the cancel arrives through the broker and forfeits it.
    let (subscription, user) = (Uuid::now_v7(), Uuid::now_v7());
    let start = env.envelope(
        &started(subscription, user, MembershipKind::Member, &["vixen"], false),
        format!("subscription-{subscription}"),
    );
    env.owner_records(&[started(subscription, user, MembershipKind::Member, &["vixen"], false)]).await;
    env.publish("subscription", &[start]).await;
    env.wait_for("select count(*) from member_subscription", 1, Duration::from_secs(20)).await;
    env.fund_gems(user, 10).await;
    let r = env
        .http()
        .post(format!("{}/internal/unlocks/channel-packs/{pack}", env.base))
        .bearer_auth(env.token(user))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::OK);
    let cancel_event = env.envelope(&cancelled(subscription, user), format!("subscription-{subscription}"));
    env.publish("subscription", &[cancel_event.clone(), cancel_event]).await;
    env.wait_for("select count(*) from event where event_type = 'ChannelPacksForfeited'", 1, Duration::from_secs(20))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(env.scalar("select count(*) from event where event_type = 'ChannelPacksForfeited'").await, 1);
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock where forfeited_at is null").await, 0);
    assert_eq!(
        env.scalar(
            "select count(*) from event where event_type = 'ChannelPacksForfeited' and causation_id is not null"
        )
        .await,
        1
    );
    let standing: String =
        sqlx::query_scalar("select standing from member_subscription").fetch_one(&env.pool).await.unwrap();
    assert_eq!(standing, "cancelled");
    cancel.cancel();
    for c in consumers {
        c.await.unwrap();
    }
    env.cleanup().await;
}
