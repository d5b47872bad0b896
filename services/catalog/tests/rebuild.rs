//! Every catalog read model rebuilt from the event store equals the live one, whether the
//! live one was written event by event (demo seed, community actions) or in bulk (the
//! large seed).

mod support;

use catalog::api::ExpertReviewRequest;
use catalog::client::{Paging, VideoListParams};
use support::{dump_all, TestEnv};
use uuid::Uuid;

async fn rebuild_and_compare(env: &TestEnv) {
    let live = dump_all(&env.pool).await;
    for projection in catalog::projections() {
        let replayed = runtime::projection::rebuild(&env.pool, projection.as_ref()).await.unwrap();
        assert!(replayed > 0);
    }
    let rebuilt = dump_all(&env.pool).await;
    for ((table, live), (_, rebuilt)) in live.iter().zip(&rebuilt) {
        assert_eq!(live.len(), rebuilt.len(), "{table}: row count");
        assert_eq!(live, rebuilt, "{table}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuilt_read_models_equal_the_live_ones() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let videos = c.videos(&vixen, &VideoListParams::default()).await.unwrap().videos;
    let (a, b, ed) = (
        env.member("vixen", Uuid::now_v7(), &[]),
        env.member("vixen", Uuid::now_v7(), &[]),
        env.member("vixen", Uuid::now_v7(), &["commenteditor"]),
    );
    let first = c.add_comment(&a, videos[0].uuid, "Lovely light.").await.unwrap();
    let reply = c.reply(&b, first.id, "Agreed.").await.unwrap();
    c.vote(&b, first.id, "like").await.unwrap();
    c.vote(&a, reply.id, "dislike").await.unwrap();
    c.pin(&ed, first.id).await.unwrap();
    c.remove_comment(&ed, reply.id).await.unwrap();
    c.rate(&a, videos[0].uuid, 9, None).await.unwrap();
    c.rate(&b, videos[0].uuid, 3, None).await.unwrap();
    let global =
        ExpertReviewRequest { video_id: videos[1].uuid, slug: None, kind: "global".into(), rating: 7, recomm_id: None };
    c.update_expert_review(&a, &global).await.unwrap();
    c.update_expert_review(&a, &ExpertReviewRequest { rating: 2, ..global.clone() }).await.unwrap();
    let lighting = ExpertReviewRequest { slug: Some("lighting".into()), kind: "property".into(), rating: 4, ..global };
    c.update_expert_review(&a, &lighting).await.unwrap();
    c.add_favourite(&a, "video", videos[2].uuid).await.unwrap();
    c.add_favourite(&a, "video", videos[3].uuid).await.unwrap();
    c.remove_favourite(&a, "video", videos[2].uuid).await.unwrap();
    c.add_favourite(&b, "performer", videos[0].performers[0].id).await.unwrap();
    let reel = c.reels(&vixen, &Paging::default()).await.unwrap().reels[0].uuid;
    for action in ["view", "add-bookmark", "purchase"] {
        let body = catalog::api::ReelTrackingRequest {
            email: None,
            user_id: None,
            timestamp: None,
            item_id: reel,
            recomm_id: None,
            rating: None,
        };
        c.track_reel(&a, action, &body).await.unwrap();
    }
    // A performer renamed after publication: their videos' search words follow.
    let performer = videos[0].performers[0].id;
    let renamed = proto_events::catalog::CatalogEvent::PerformerPublished {
        performer_id: performer,
        slug: videos[0].performers[0].slug.clone(),
        name: "Renamed Performer".into(),
        sex: "F".into(),
        sites: vec!["vixen".into(), "vixenplus".into()],
        published_at: chrono::Utc::now(),
    };
    let meta = proto_events::EventMeta::new(proto_events::Actor::System("test".into()));
    catalog::commands::publish_all(&env.store, &meta, &[renamed], 10, false).await.unwrap();
    let found = c.search(&vixen, "renamed", &Paging::default()).await.unwrap();
    assert!(found.videos.iter().any(|v| v.uuid == videos[0].uuid));
    rebuild_and_compare(&env).await;
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bulk_seed_writes_what_a_replay_writes() {
    let env = TestEnv::new().await;
    let ctx = runtime::service::ServiceContext {
        pool: env.pool.clone(),
        store: env.store.clone(),
        settings: env.settings.clone(),
    };
    catalog::seed_scale(ctx.clone(), 1_500).await.unwrap();
    let videos: i64 = env.scalar("select count(*) from video").await;
    assert!(videos >= 1_500, "{videos}");
    assert_eq!(env.scalar("select count(*) from event where event_type = 'VideoPublished'").await, videos);
    rebuild_and_compare(&env).await;
    // Running it again writes nothing.
    let events = env.scalar("select count(*) from event").await;
    catalog::seed_scale(ctx, 1_500).await.unwrap();
    assert_eq!(env.scalar("select count(*) from event").await, events);
    env.cleanup().await;
}
