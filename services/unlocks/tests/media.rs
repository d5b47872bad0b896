//! Tokens and the media endpoint: only a valid, unexpired token of the right user, video
//! and quality, asked for by that user, gets the bytes (with Range), and only while what
//! opened the video holds; downloads never pass their quota.

mod support;

use proto_events::catalog::{ChannelCategory, VideoQuality};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use reqwest::StatusCode;
use serde_json::{json, Value};
use unlocks::api::{DownloadQuotasResponse, DownloadResolutionsResponse, DownloadResponse, TokenResponse};
use unlocks::token::{Ground, MediaGrant, Purpose};
use uuid::Uuid;

use support::{cancelled, channel_event, pack_event, published, video, TestEnv};

async fn tokens(env: &TestEnv, token: &str, video: Uuid, device: &str) -> (StatusCode, Value) {
    let r = env
        .http()
        .post(format!("{}/internal/videos/{video}/tokens", env.base))
        .bearer_auth(token)
        .json(&json!({ "device": device }))
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap())
}

/// The media URL of a token, on the test's service.
fn url(env: &TestEnv, video: Uuid, quality: &str, token: &str) -> String {
    format!("{}/media/videos/{video}/{quality}?token={token}", env.base)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_valid_token_gets_the_bytes_with_ranges_and_any_other_gets_403() {
    let env = TestEnv::new().await;
    let (a, b) = (video("vixen", None, None), video("vixen", None, None));
    env.catalog(&[published(&a), published(&b)]).await;
    let (user, other) = (Uuid::now_v7(), Uuid::now_v7());
    env.subscribe(user, MembershipKind::Member, &["vixen", "tushy"], false).await;
    let token = env.token(user);

    let (status, body) = tokens(&env, &token, a.video_id, "desktop").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer: TokenResponse = serde_json::from_value(body).unwrap();
    let t = &answer.tokens;
    for view in [&t.p270, &t.p360, &t.p480, &t.p480l, &t.p720, &t.p1080, &t.p2160, &t.hls] {
        assert!(view.as_ref().is_some_and(|v| v.cdn == env.state.config.media_base_url), "a token per quality");
    }
    let p270 = t.p270.clone().unwrap();
    let client = env.http();
    let file = std::fs::read(support::media_dir().join("demo/p270.mp4")).unwrap();
    let full = client.get(url(&env, a.video_id, "p270", &p270.token)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(full.status(), StatusCode::OK);
    assert_eq!(full.headers()["content-type"], "video/mp4");
    assert_eq!(full.bytes().await.unwrap().as_ref(), file.as_slice());
    // The player's Range requests.
    let part = client
        .get(url(&env, a.video_id, "p270", &p270.token))
        .bearer_auth(&token)
        .header("range", "bytes=100-199")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.headers()["content-range"], format!("bytes 100-199/{}", file.len()));
    assert_eq!(part.bytes().await.unwrap().as_ref(), &file[100..200]);
    // HLS: a playlist whose segments carry the token, and the segment itself.
    let hls = t.hls.clone().unwrap();
    let playlist = client.get(&hls.url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(playlist.headers()["content-type"], "application/vnd.apple.mpegurl");
    let playlist = playlist.text().await.unwrap();
    let segment = playlist.lines().find(|l| l.starts_with("hls/")).unwrap().to_owned();
    assert!(segment.ends_with(&format!("?token={}", hls.token)), "{playlist}");
    let ts = client
        .get(format!("{}/media/videos/{}/{segment}", env.base, a.video_id))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!((ts.status(), ts.headers()["content-type"].to_str().unwrap()), (StatusCode::OK, "video/mp2t"));
    assert_eq!(ts.bytes().await.unwrap()[0], 0x47);
    let wrong = client
        .get(format!("{}/media/videos/{}/hls/segment0.ts?token={}", env.base, a.video_id, p270.token))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN, "a segment needs the hls token");
    let now = chrono::Utc::now().timestamp();
    let sign = |user_id, video_id, quality, expires| {
        env.state.signer.sign(&MediaGrant {
            user_id,
            video_id,
            quality,
            purpose: Purpose::Play,
            issued: now - 60,
            expires,
            ground: Ground::Credits,
        })
    };
    let expired = sign(user, a.video_id, VideoQuality::P270, now - 1);
    let mut tampered = p270.token.clone().into_bytes();
    let i = tampered.len() - 3;
    tampered[i] = if tampered[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let foreign_secret = unlocks::token::TokenSigner::new(b"not the secret").sign(&MediaGrant {
        user_id: user,
        video_id: a.video_id,
        quality: VideoQuality::P270,
        purpose: Purpose::Play,
        issued: now,
        expires: now + 600,
        ground: Ground::Credits,
    });
    let mine = Some(token.clone());
    let refused = [
        ("expired", url(&env, a.video_id, "p270", &expired), mine.clone()),
        ("tampered", url(&env, a.video_id, "p270", &tampered), mine.clone()),
        ("another secret", url(&env, a.video_id, "p270", &foreign_secret), mine.clone()),
        ("another video's", url(&env, b.video_id, "p270", &p270.token), mine.clone()),
        ("another quality's", url(&env, a.video_id, "p1080", &p270.token), mine.clone()),
        ("no token", format!("{}/media/videos/{}/p270", env.base, a.video_id), mine.clone()),
        // A media URL copied elsewhere: another user's session, or none at all.
        ("another user's", url(&env, a.video_id, "p270", &p270.token), Some(env.token(other))),
        ("anonymous", url(&env, a.video_id, "p270", &p270.token), None),
    ];
    for (what, u, bearer) in refused {
        let mut request = client.get(u);
        if let Some(b) = bearer {
            request = request.bearer_auth(b);
        }
        assert_eq!(request.send().await.unwrap().status(), StatusCode::FORBIDDEN, "{what}");
    }
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tokens_follow_entitlement_through_a_cancel_an_expiry_and_a_chargeback() {
    let env = TestEnv::new().await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let (vixen, tushy, in_pack) =
        (video("vixen", None, None), video("tushy", None, None), video("vixen", Some((pack, channel)), None));
    env.catalog(&[
        published(&vixen),
        published(&tushy),
        published(&in_pack),
        channel_event(channel),
        pack_event(pack, channel, vec![in_pack.video_id]),
    ])
    .await;
    let (member, stranger, other) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let subscription = env.subscribe(member, MembershipKind::Member, &["vixen"], false).await;
    let other_subscription = env.subscribe(other, MembershipKind::Member, &["vixen"], false).await;
    let token = env.token(member);
    assert_eq!(tokens(&env, &token, vixen.video_id, "desktop").await.0, StatusCode::OK);
    let (status, body) = tokens(&env, &token, tushy.video_id, "desktop").await;
    assert_eq!(
        (status, body["code"].as_str(), body["denied"].as_str()),
        (StatusCode::FORBIDDEN, Some("FORBIDDEN"), Some("no_access"))
    );
    let (status, body) = tokens(&env, &env.token(stranger), vixen.video_id, "desktop").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // A pack's video opens with the pack.
    let (status, body) = tokens(&env, &token, in_pack.video_id, "desktop").await;
    assert_eq!((status, body["denied"].as_str()), (StatusCode::FORBIDDEN, Some("channel_pack_locked")));
    env.fund_gems(member, 10).await;
    let r = env
        .http()
        .post(format!("{}/internal/unlocks/channel-packs/{pack}", env.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(tokens(&env, &token, in_pack.video_id, "desktop").await.0, StatusCode::OK);

    // The batch read for a page of videos.
    let access: Value = env
        .http()
        .post(format!("{}/internal/videos/access", env.base))
        .bearer_auth(&token)
        .json(&json!({ "videoIds": [vixen.video_id, tushy.video_id, in_pack.video_id, Uuid::now_v7()] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let denied: Vec<bool> =
        access["videos"].as_array().unwrap().iter().map(|v| v["denied"].as_bool().unwrap()).collect();
    assert_eq!(denied, [false, true, false]);
    assert_eq!(access["videos"][2]["access"], "channel_pack");

    // A cancel keeps the paid period (product.md, "Subscriptions and their states": only gems and unlocked channels are lost): the
    // site's videos still play, the pack's do not, and a token issued for the pack dies now.
    let (_, pack_tokens) = tokens(&env, &token, in_pack.video_id, "desktop").await;
    let pack_url = pack_tokens["tokens"]["p270"]["url"].as_str().unwrap().to_owned();
    let (_, vixen_tokens) = tokens(&env, &token, vixen.video_id, "desktop").await;
    let vixen_url = vixen_tokens["tokens"]["p270"]["url"].as_str().unwrap().to_owned();
    let play = |u: String, bearer: String| {
        let client = env.http();
        async move { client.get(u).bearer_auth(bearer).header("range", "bytes=0-99").send().await.unwrap().status() }
    };
    assert_eq!(play(pack_url.clone(), token.clone()).await, StatusCode::PARTIAL_CONTENT);
    env.subscription(&[cancelled(subscription, member)]).await;
    assert_eq!(
        tokens(&env, &token, vixen.video_id, "desktop").await.0,
        StatusCode::OK,
        "a cancelled member plays until the period ends"
    );
    assert_eq!(
        tokens(&env, &token, in_pack.video_id, "desktop").await.0,
        StatusCode::FORBIDDEN,
        "the pack went with the cancel"
    );
    // A revocation takes effect once the endpoint's one-second memory of the last answer lapses.
    tokio::time::sleep(unlocks::media_checks::REVOCATION_TTL).await;
    assert_eq!(play(pack_url, token.clone()).await, StatusCode::FORBIDDEN, "the pack's token died with it");
    assert_eq!(play(vixen_url.clone(), token.clone()).await, StatusCode::PARTIAL_CONTENT, "the site's did not");
    // The period's end: no new token, and the one issued before stops.
    env.subscription(&[SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: member,
        expired_at: chrono::Utc::now(),
    }])
    .await;
    assert_eq!(tokens(&env, &token, vixen.video_id, "desktop").await.0, StatusCode::FORBIDDEN, "expired");
    tokio::time::sleep(unlocks::media_checks::REVOCATION_TTL).await;
    assert_eq!(play(vixen_url, token.clone()).await, StatusCode::FORBIDDEN, "the token issued before stops");
    let other_token = env.token(other);
    let (_, other_tokens) = tokens(&env, &other_token, vixen.video_id, "desktop").await;
    let other_url = other_tokens["tokens"]["p270"]["url"].as_str().unwrap().to_owned();
    env.subscription(&[SubscriptionEvent::SubscriptionChargedBack {
        subscription_id: other_subscription,
        user_id: other,
        transaction_id: "EPOCH-CB".into(),
        charged_back_at: chrono::Utc::now(),
    }])
    .await;
    assert_eq!(
        tokens(&env, &other_token, vixen.video_id, "desktop").await.0,
        StatusCode::FORBIDDEN,
        "nor after a chargeback"
    );
    tokio::time::sleep(unlocks::media_checks::REVOCATION_TTL).await;
    assert_eq!(
        play(other_url, other_token).await,
        StatusCode::FORBIDDEN,
        "a chargeback stops the token within a second"
    );
    env.cleanup().await;
}

async fn download(
    env: &TestEnv,
    client: &reqwest::Client,
    token: &str,
    video: Uuid,
    size: &str,
) -> (StatusCode, Value) {
    let r = client
        .post(format!("{}/internal/videos/{video}/downloads", env.base))
        .bearer_auth(token)
        .json(&json!({ "size": size }))
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_concurrent_downloads_against_a_quota_of_twenty_get_exactly_twenty_tokens() {
    let env = TestEnv::new().await;
    let v = video("vixen", None, None);
    env.catalog(&[published(&v)]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    let token = env.token(user);
    let client = env.http();
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..100 {
        let (env_base, client, token, id) = (env.base.clone(), client.clone(), token.clone(), v.video_id);
        requests.spawn(async move {
            let r = client
                .post(format!("{env_base}/internal/videos/{id}/downloads"))
                .bearer_auth(token)
                .json(&json!({ "size": "p1080" }))
                .send()
                .await
                .unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        });
    }
    let (mut granted, mut reached) = (vec![], vec![]);
    while let Some(answer) = requests.join_next().await {
        let (status, body) = answer.unwrap();
        match status {
            StatusCode::OK => granted.push(serde_json::from_value::<DownloadResponse>(body).unwrap()),
            StatusCode::TOO_MANY_REQUESTS => reached.push(body),
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!((granted.len(), reached.len()), (20, 80));
    assert_eq!(env.scalar("select count(*) from download").await, 20);
    let r = &reached[0];
    assert_eq!(r["code"], "REACHED_DOWNLOAD_QUOTA");
    assert_eq!(r["message"], "limit exceeded, try again in 7 days");
    assert_eq!((r["downloadQuotaMax"].as_u64(), r["remainingDays"].as_u64()), (Some(20), Some(7)));
    assert_eq!(r["downloadQuotas"]["thresholdReached"], true);
    let mut counts: Vec<u32> = granted.iter().map(|g| g.download_quotas.downloads_number).collect();
    counts.sort();
    assert_eq!(counts, (1..=20).collect::<Vec<_>>(), "each grant saw the ones before it");
    let g = &granted[0];
    assert_eq!(
        (g.resolution.label.as_str(), g.resolution.res.as_str(), g.resolution.width),
        ("HD MP4 1080P", "1080", 1920)
    );
    let file = client.get(&g.token.url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(file.status(), StatusCode::OK);
    assert!(file.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));

    let quotas: DownloadQuotasResponse = client
        .get(format!("{}/internal/download-quotas?site=vixen", env.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!((quotas.site.downloads_number, quotas.site.quota_left, quotas.site.threshold_reached), (20, 0, true));
    assert_eq!((quotas.site.site.as_str(), quotas.site.download_days_period), ("vixen", 7));
    assert_eq!((quotas.channels.downloads_number, quotas.channels.download_quota_max), (0, 5));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_three_channel_categories_share_their_own_quota_and_a_tenant_may_override_it() {
    let env = TestEnv::with(|mut c| {
        c.quotas.tenants.insert(
            "vixen".into(),
            (unlocks::quota::QuotaRule { max: 20, days: 7 }, unlocks::quota::QuotaRule { max: 2, days: 3 }),
        );
        c
    })
    .await;
    let (bts, intimates, plain) = (
        video("vixen", None, Some(ChannelCategory::BehindTheScenes)),
        video("vixen", None, Some(ChannelCategory::Intimates)),
        video("vixen", None, None),
    );
    env.catalog(&[published(&bts), published(&intimates), published(&plain)]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    let token = env.token(user);
    let client = env.http();
    let resolutions: DownloadResolutionsResponse = client
        .get(format!("{}/internal/videos/{}/download-resolutions", env.base, bts.video_id))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(resolutions.resolutions[0].label, "4K MP4 UHD");
    assert_eq!(resolutions.resolutions.len(), 7);
    assert_eq!(
        (resolutions.download_quotas.download_quota_max, resolutions.download_quotas.site.as_str()),
        (2, "channels")
    );

    assert_eq!(download(&env, &client, &token, bts.video_id, "p720").await.0, StatusCode::OK);
    assert_eq!(download(&env, &client, &token, intimates.video_id, "p2160").await.0, StatusCode::OK);
    let (status, body) = download(&env, &client, &token, bts.video_id, "p270").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("limit exceeded, try again in 3 days"))
    );
    // The site's own quota is untouched by them.
    assert_eq!(download(&env, &client, &token, plain.video_id, "p480l").await.0, StatusCode::OK);
    let (status, body) = download(&env, &client, &token, plain.video_id, "hls").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("INVALID_REQUEST")));
    // getToken for the download device counts one download and signs every size.
    let (status, body) = tokens(&env, &token, plain.video_id, "download").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer: TokenResponse = serde_json::from_value(body).unwrap();
    assert!(answer.tokens.hls.is_none() && answer.tokens.p2160.is_some());
    assert_eq!(answer.download_quotas.unwrap().downloads_number, 2);
    // The clock moves past the window: the channel quota frees up.
    env.set_now(Some(chrono::Utc::now() + chrono::Duration::days(3) + chrono::Duration::minutes(1)));
    assert_eq!(download(&env, &client, &token, bts.video_id, "p270").await.0, StatusCode::OK);
    env.cleanup().await;
}
