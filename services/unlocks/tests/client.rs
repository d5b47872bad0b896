//! The typed client against the real service.

mod support;

use proto_events::subscription::MembershipKind;
use runtime::client::{CallContext, UpstreamError};
use unlocks::api::UnlockVideoInput;
use unlocks::client::UnlocksClient;
use uuid::Uuid;

use support::{channel_event, pack_event, published, video, TestEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_client_method_reaches_its_endpoint_and_refusals_keep_their_code() {
    let env = TestEnv::new().await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let (plain, portal_video) = (video("vixen", None, None), video("vixen", None, None));
    env.catalog(&[
        published(&plain),
        published(&portal_video),
        channel_event(channel),
        pack_event(pack, channel, vec![]),
    ])
    .await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 10).await;
    env.fund_credits(user, 1).await;
    let client = UnlocksClient::new(&env.base);
    let caller = CallContext::user(env.token(user), "vixen");

    let unlocked = client.unlock_channel_pack(&caller, pack).await.unwrap();
    assert_eq!((unlocked.channel_pack_id, unlocked.gems_balance), (pack, 0));
    let again = client.unlock_channel_pack(&caller, pack).await.unwrap_err();
    assert_eq!(again.service_code(), Some("ALREADY_UNLOCKED"));

    let input = UnlockVideoInput {
        video_id: portal_video.video_id,
        video_sources_url: None,
        video_new_id: portal_video.new_id.clone(),
    };
    assert_eq!(client.unlock_video(&caller, &input).await.unwrap().pay_per_video_credits, Some(0));

    let state = client.unlock_state(&caller).await.unwrap();
    assert_eq!(
        (state.unlocked_channel_pack_ids, state.unlocked_video_ids.clone()),
        (vec![pack], vec![portal_video.video_id])
    );
    assert_eq!(client.user_unlock_state(user).await.unwrap().unlocked_video_ids, state.unlocked_video_ids);

    let access = client.video_access(&caller, &[plain.video_id]).await.unwrap();
    assert!(!access.videos[0].denied);
    let tokens = client.video_tokens(&caller, plain.video_id, "mobile").await.unwrap();
    assert!(tokens.tokens.p480l.is_some());
    assert_eq!(client.download_resolutions(&caller, plain.video_id).await.unwrap().resolutions.len(), 7);
    let download = client.download(&caller, plain.video_id, "p720").await.unwrap();
    assert_eq!(download.download_quotas.downloads_number, 1);
    assert_eq!(client.download_quotas(&caller, Some("vixen")).await.unwrap().site.quota_left, 19);
    assert_eq!(client.download_quotas(&caller, None).await.unwrap().site.site, "vixen");

    let err = client.unlock_state(&CallContext::default()).await.unwrap_err();
    assert!(matches!(&err, UpstreamError::Refused { status, .. } if *status == 401), "{err}");
    let nobody = UnlocksClient::new("http://127.0.0.1:9");
    assert!(matches!(nobody.unlock_state(&caller).await.unwrap_err(), UpstreamError::Unavailable { .. }));
    env.cleanup().await;
}
