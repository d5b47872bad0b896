//! UnlockVideo: pay-per-video credits through the real wallet, and the free limited trial's
//! three full videos.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::{json, Value};
use unlocks::api::UnlockStateResponse;
use uuid::Uuid;

use support::{cancelled, free_trial_video, published, video, TestEnv};

async fn unlock(env: &TestEnv, token: &str, body: Value) -> (StatusCode, Value) {
    let r = env
        .http()
        .post(format!("{}/internal/unlocks/videos", env.base))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap())
}

fn input(v: &proto_events::catalog::Video) -> Value {
    json!({ "videoId": v.video_id, "videoSourcesUrl": format!("/api/videos/{}/sources", v.video_id), "videoNewId": v.new_id })
}

async fn state(env: &TestEnv, token: &str) -> UnlockStateResponse {
    env.http()
        .get(format!("{}/internal/unlocks/state", env.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn play(env: &TestEnv, token: &str, video: Uuid) -> StatusCode {
    env.http()
        .post(format!("{}/internal/videos/{video}/tokens", env.base))
        .bearer_auth(token)
        .json(&json!({ "device": "desktop" }))
        .send()
        .await
        .unwrap()
        .status()
}

/// Why the tokens of `video` are refused (`denied`), none when they are not.
async fn denied(env: &TestEnv, token: &str, video: Uuid) -> Option<String> {
    let body: Value = env
        .http()
        .post(format!("{}/internal/videos/{video}/tokens", env.base))
        .bearer_auth(token)
        .json(&json!({ "device": "desktop" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["denied"].as_str().map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn credits_unlock_videos_one_each_until_they_run_out() {
    let env = TestEnv::new().await;
    let videos: Vec<_> = (0..3).map(|_| video("vixen", None, None)).collect();
    env.catalog(&videos.iter().map(published).collect::<Vec<_>>()).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::PornPortal, &["vixen"], false).await;
    env.fund_credits(user, 2).await;
    let token = env.token(user);
    assert_eq!(play(&env, &token, videos[0].video_id).await, StatusCode::FORBIDDEN, "a portal user pays per video");

    let (status, body) = unlock(&env, &token, input(&videos[0])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["paidWith"].as_str(), body["payPerVideoCredits"].as_u64()), (Some("credits"), Some(1)));
    assert_eq!(body["videoSourcesUrl"], format!("/api/videos/{}/sources", videos[0].video_id));
    assert_eq!(unlock(&env, &token, input(&videos[0])).await.1["code"], "ALREADY_UNLOCKED");
    assert_eq!(unlock(&env, &token, input(&videos[1])).await.1["payPerVideoCredits"], 0);
    let (status, body) = unlock(&env, &token, input(&videos[2])).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("NOT_ENOUGH_CREDITS")));

    let mut wrong = input(&videos[2]);
    wrong["videoNewId"] = json!("not-its-new-id");
    assert_eq!(unlock(&env, &token, wrong).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    let mut unknown = input(&videos[2]);
    unknown["videoId"] = json!(Uuid::now_v7());
    assert_eq!(unlock(&env, &token, unknown).await.1["code"], "VIDEO_NOT_FOUND");

    let s = state(&env, &token).await;
    assert_eq!(s.unlocked_video_ids, vec![videos[0].video_id, videos[1].video_id]);
    assert_eq!(s.unlocked_videos[0].new_id, videos[0].new_id);
    assert_eq!(s.unlocked_videos[0].paid_with, "credits");
    assert_eq!((env.debits().await, env.credits(user).await), (2, 0));
    // Bought for good: playable, and still after the portal subscription is cancelled.
    assert_eq!(play(&env, &token, videos[0].video_id).await, StatusCode::OK);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_free_limited_trial_opens_three_full_videos_while_it_runs() {
    let env = TestEnv::new().await;
    let videos: Vec<_> = (0..4).map(|_| free_trial_video("vixen")).collect();
    let unflagged = video("vixen", None, None);
    let mut events: Vec<_> = videos.iter().map(published).collect();
    events.push(published(&unflagged));
    env.catalog(&events).await;
    let user = Uuid::now_v7();
    let trial = env.subscribe(user, MembershipKind::Trial, &["vixen"], true).await;
    let token = env.token(user);
    assert_eq!(play(&env, &token, videos[0].video_id).await, StatusCode::FORBIDDEN);
    // The refusal names the step: a flagged video is one of the free ones, another the upgrade.
    assert_eq!(denied(&env, &token, videos[0].video_id).await.as_deref(), Some("free_trial_video"));
    assert_eq!(denied(&env, &token, unflagged.video_id).await.as_deref(), Some("no_access"));
    // Only free-limited-trial content is taken as one of the three, and the trial spends no
    // credits: another video is refused as what it is, not for a shortage of credits.
    let (status, body) = unlock(&env, &token, input(&unflagged)).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("NOT_A_FREE_TRIAL_VIDEO")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("not one of your free trial's videos"), "{body}");
    for (n, left) in [(0, 2), (1, 1), (2, 0)] {
        let (status, body) = unlock(&env, &token, input(&videos[n])).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            (body["paidWith"].as_str(), body["freeVideosLeft"].as_u64()),
            (Some("free_limited_trial"), Some(left))
        );
    }
    // The fourth is refused with the trial's own reason: its three are taken.
    let (status, body) = unlock(&env, &token, input(&videos[3])).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("NO_FREE_TRIAL_VIDEOS_LEFT")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("full videos are taken"), "{body}");
    assert_eq!(unlock(&env, &token, input(&videos[0])).await.1["code"], "ALREADY_UNLOCKED");
    assert_eq!(state(&env, &token).await.free_limited_trial_videos_left, 0);
    // Its three taken, the trial has expired for every other video: 'limited trial expired', the upgrade.
    assert_eq!(denied(&env, &token, videos[3].video_id).await.as_deref(), Some("free_trial_expired"));
    assert_eq!(denied(&env, &token, unflagged.video_id).await.as_deref(), Some("free_trial_expired"));
    assert_eq!(denied(&env, &token, videos[0].video_id).await, None, "the three stay open");
    assert_eq!(env.debits().await, 0, "the trial's videos cost nothing");
    assert_eq!(play(&env, &token, videos[1].video_id).await, StatusCode::OK);
    env.subscription(&[cancelled(trial, user)]).await;
    assert_eq!(play(&env, &token, videos[1].video_id).await, StatusCode::OK, "a cancel keeps the paid period");
    env.subscription(&[proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: trial,
        user_id: user,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    assert_eq!(play(&env, &token, videos[1].video_id).await, StatusCode::FORBIDDEN, "no token once the trial ended");
    env.cleanup().await;
}

async fn marks(env: &TestEnv, token: &str, ids: &[Uuid]) -> Vec<bool> {
    let body: Value = env
        .http()
        .post(format!("{}/internal/videos/access", env.base))
        .bearer_auth(token)
        .json(&json!({ "videoIds": ids }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["videos"].as_array().unwrap().iter().map(|v| v["freeForYourTrial"].as_bool().unwrap()).collect()
}

/// The combined brand's lists carry every brand's flagged videos; a vixenplus trial's site is
/// vixenplus: its own flagged videos are the ones it takes and the ones marked for it, another
/// brand's are refused as another site's, and an ended trial is told it expired.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_trial_takes_only_its_own_sites_free_videos_and_says_why_not_the_others() {
    let env = TestEnv::new().await;
    let own: Vec<_> = (0..4).map(|_| free_trial_video("vixenplus")).collect();
    let other = free_trial_video("tushy");
    let unflagged = video("vixenplus", None, None);
    let mut events: Vec<_> = own.iter().map(published).collect();
    events.extend([published(&other), published(&unflagged)]);
    env.catalog(&events).await;
    let user = Uuid::now_v7();
    let trial = env.subscribe(user, MembershipKind::Trial, &["vixenplus"], true).await;
    let token = env.token(user);
    let ids = [own[0].video_id, other.video_id, unflagged.video_id];
    assert_eq!(marks(&env, &token, &ids).await, [true, false, false], "flagged is not enough: the trial's own site");
    let (status, body) = unlock(&env, &token, input(&other)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("FREE_TRIAL_VIDEO_OF_ANOTHER_SITE")),
        "{body}"
    );
    assert!(body["message"].as_str().unwrap().contains("another site"), "{body}");
    assert_eq!(unlock(&env, &token, input(&unflagged)).await.1["code"], "NOT_A_FREE_TRIAL_VIDEO");
    for video in &own[..3] {
        let (status, body) = unlock(&env, &token, input(video)).await;
        assert_eq!((status, body["paidWith"].as_str()), (StatusCode::OK, Some("free_limited_trial")), "{body}");
    }
    // Taken, or none left: no longer marked.
    assert_eq!(marks(&env, &token, &[own[0].video_id, own[3].video_id]).await, [false, false]);
    assert_eq!(unlock(&env, &token, input(&own[3])).await.1["code"], "NO_FREE_TRIAL_VIDEOS_LEFT");
    assert_eq!(env.debits().await, 0, "no refusal went to the wallet");
    env.subscription(&[proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: trial,
        user_id: user,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    let (status, body) = unlock(&env, &token, input(&own[3])).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("FREE_TRIAL_EXPIRED")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("limited trial expired"), "{body}");
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn copies_of_a_refused_credits_unlock_all_answer_not_enough_credits() {
    let env = TestEnv::new().await;
    let v = video("vixen", None, None);
    env.catalog(&[published(&v)]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::PornPortal, &["vixen"], false).await;
    let token = env.token(user);
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..30 {
        let (client, token, url, body) =
            (env.http(), token.clone(), format!("{}/internal/unlocks/videos", env.base), input(&v));
        requests.spawn(async move {
            let r = client.post(url).bearer_auth(token).json(&body).send().await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        });
    }
    while let Some(answer) = requests.join_next().await {
        let (status, body) = answer.unwrap();
        assert_eq!(
            (status, body["code"].as_str(), body["balance"].as_u64(), body["needed"].as_u64()),
            (StatusCode::CONFLICT, Some("NOT_ENOUGH_CREDITS"), Some(0), Some(1)),
            "{body}"
        );
    }
    let joined = env.scalar("select count(*) from event where event_type = 'UnlockRequested'").await;
    println!("30 requests, {joined} unlocks requested (the others joined one)");
    assert_eq!(env.debits().await, 0);
    env.cleanup().await;
}
