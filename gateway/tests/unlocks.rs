//! Unlocks through the gateway, answered by the real unlocks service paying through the real
//! wallet service, beside the real catalog and profile services (each in its own scratch
//! schema): pack unlocks and their refusals, video
//! tokens and the media they open (through the gateway's /media/videos), downloads and
//! their quota, the unlock state and the access of a page of videos.

mod support;

use proto_events::{
    catalog::{CatalogEvent, Video},
    subscription::MembershipKind,
};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use support::{
    codes,
    content::{channel_published, pack_published, published, video, video_on},
    short,
    stack::{media_dir, Options, Stack},
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use uuid::Uuid;

const HOST: &str = "vixen.localhost:8080";

/// The catalog, profile, unlocks and wallet services, each on its own scratch schema, and a
/// gateway in front of them; the unlocks service's media answered relative to the brand host
/// (`/media/videos`), a site download quota of 2 per 7 days.
struct Env {
    stack: Stack,
}

impl std::ops::Deref for Env {
    type Target = Stack;
    fn deref(&self) -> &Stack {
        &self.stack
    }
}

async fn env() -> Env {
    Env { stack: Stack::start(Options { seed_catalog: false, with_deals: false, ..Default::default() }).await }
}

impl Env {
    /// Content published in the catalog and known to the unlocks service.
    async fn catalog(&self, events: &[CatalogEvent]) {
        self.stack.publish(events).await;
    }

    /// An account for `user` with an active subscription of `kind` on vixen.
    async fn subscribe(&self, user: Uuid, kind: MembershipKind) {
        self.stack.member(user, &["vixen"], kind, false).await;
    }

    fn token(&self, user: Uuid) -> String {
        self.stack.token(user, HOST, &[])
    }

    async fn ask(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let (status, body) = self.gw.post(HOST, json!({"query": query, "variables": variables}), token).await;
        assert_eq!(status, StatusCode::OK, "{}", short(&body));
        body
    }

    /// GETs a media URL (relative to the brand host) through the gateway.
    /// A media URL fetched by the browser whose session is `session`'s access token (none: signed out).
    async fn media(&self, url: &str, range: Option<&str>, session: Option<&str>) -> reqwest::Response {
        assert!(url.starts_with("/media/videos/"), "{url}");
        let mut request = self.gw.client.get(format!("{}{url}", self.gw.base)).header(header::HOST, HOST);
        if let Some(token) = session {
            request = request.header(header::COOKIE, format!("paysite_at={token}"));
        }
        if let Some(range) = range {
            request = request.header(header::RANGE, range);
        }
        request.send().await.unwrap()
    }

    /// The status line of a GET of `path` exactly as written, through the gateway.
    async fn raw_get(&self, path: &str) -> String {
        let addr = self.gw.base.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        String::from_utf8_lossy(&answer).lines().next().unwrap_or_default().to_owned()
    }

    async fn cleanup(self) {
        self.stack.cleanup().await;
    }
}

const UNLOCK_PACK: &str = "mutation($id: ID!) { unlockChannelPack(channelPackId: $id) { status unlockId channelPackId unlockedAt gemsBalance } }";
const STATE: &str = "{ unlockState { unlockedChannelPackIds percentageOfUnlockedChannelPacks lastChannelPackUnlockDate hasUnlockedChannelPackInLastTwoWeeks unlockedVideoIds unlockedVideos { videoId newId paidWith } freeLimitedTrialVideosLeft channelPackCostGems videoUnlockCostCredits freeLimitedTrialVideos } }";
const ACCESS: &str =
    "query($ids: [ID!]!) { videoAccess(videoIds: $ids) { videoId denied deniedReason access unlocked channelPackId } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn packs_unlock_with_gems_once_and_refusals_keep_their_codes_and_fields() {
    let env = env().await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let (in_pack, plain) = (video(Some((pack, channel))), video(None));
    env.catalog(&[
        channel_published(channel),
        published(&in_pack),
        published(&plain),
        pack_published(pack, channel, vec![in_pack.video_id]),
    ])
    .await;
    let (member, poor) = (Uuid::now_v7(), Uuid::now_v7());
    for user in [member, poor] {
        env.subscribe(user, MembershipKind::Member).await;
    }
    env.fund_gems(member, 10).await;
    let vars = json!({"id": pack});

    let body = env.ask(None, UNLOCK_PACK, vars.clone()).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    let body = env.ask(None, STATE, json!({})).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));

    // Before: the pack's video is locked for the member, the plain one open.
    let token = env.token(member);
    let ids = json!({"ids": [in_pack.video_id, Uuid::now_v7(), plain.video_id]});
    let body = env.ask(Some(&token), ACCESS, ids.clone()).await;
    let access = &body["data"]["videoAccess"];
    assert_eq!(access.as_array().map(Vec::len), Some(2), "unknown videos are left out: {}", short(&body));
    assert_eq!(access[0]["denied"], true, "{}", short(&body));
    assert_eq!(access[0]["deniedReason"], "channel_pack_locked");
    assert_eq!(access[0]["channelPackId"], pack.to_string());
    assert_eq!((&access[1]["denied"], &access[1]["access"]), (&json!(false), &json!("subscription")));

    let body = env.ask(Some(&token), UNLOCK_PACK, vars.clone()).await;
    let unlock = &body["data"]["unlockChannelPack"];
    assert_eq!(unlock["status"], "success", "{}", short(&body));
    assert_eq!(unlock["channelPackId"], pack.to_string());
    assert_eq!(unlock["gemsBalance"], 0);
    let body = env.ask(Some(&token), UNLOCK_PACK, vars.clone()).await;
    assert_eq!(codes(&body), ["ALREADY_UNLOCKED"], "{}", short(&body));

    let body = env.ask(Some(&token), STATE, json!({})).await;
    let state = &body["data"]["unlockState"];
    assert_eq!(state["unlockedChannelPackIds"], json!([pack.to_string()]), "{}", short(&body));
    assert_eq!(state["percentageOfUnlockedChannelPacks"], 100);
    // getGemsBalance answers the same share (spec: percentageOfUnlockedChannelPacks), from the same owner.
    let body = env.ask(Some(&token), "{ getGemsBalance { percentageOfUnlockedChannelPacks } }", json!({})).await;
    assert_eq!(body["data"]["getGemsBalance"]["percentageOfUnlockedChannelPacks"], 100, "{}", short(&body));
    assert_eq!(state["channelPackCostGems"], 10, "the price the unlock debited: 10 gems funded, none left");
    assert_eq!((&state["videoUnlockCostCredits"], &state["freeLimitedTrialVideos"]), (&json!(1), &json!(3)));
    assert_eq!(state["hasUnlockedChannelPackInLastTwoWeeks"], true);
    assert!(state["lastChannelPackUnlockDate"].is_string());
    let body = env.ask(Some(&token), ACCESS, ids).await;
    assert_eq!(body["data"]["videoAccess"][0]["denied"], false, "{}", short(&body));
    assert_eq!(body["data"]["videoAccess"][0]["access"], "channel_pack");

    // Without gems: NOT_ENOUGH_GEMS with the days until new gems.
    let body = env.ask(Some(&env.token(poor)), UNLOCK_PACK, vars).await;
    assert_eq!(codes(&body), ["NOT_ENOUGH_GEMS"], "{}", short(&body));
    let days = body["errors"][0]["extensions"]["daysUntilRefreshGems"].as_u64();
    assert!(days.is_some_and(|d| (1..=31).contains(&d)), "{}", short(&body));
    // A malformed id never reaches the service.
    let body = env.ask(Some(&token), UNLOCK_PACK, json!({"id": "nope"})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"], "{}", short(&body));
    env.cleanup().await;
}

/// A channel carried by `site` alone, with a slug of its own.
fn channel_on(channel: Uuid, n: usize, site: &str) -> CatalogEvent {
    match channel_published(channel) {
        CatalogEvent::ChannelPublished { channel_id, kind, category, published_at, .. } => {
            CatalogEvent::ChannelPublished {
                channel_id,
                slug: format!("channel-{n:03}"),
                name: format!("Channel {n:03}"),
                kind,
                category,
                sites: vec![site.into()],
                published_at,
            }
        }
        other => unreachable!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn any_pack_of_a_brand_with_many_channels_unlocks_and_another_brands_pack_is_not_found() {
    let env = env().await;
    // More channels than any one page of the catalog's listing holds.
    let channels: Vec<(Uuid, Uuid)> = (0..130).map(|_| (Uuid::now_v7(), Uuid::now_v7())).collect();
    let mut events = Vec::new();
    let (tushy_channel, tushy_pack) = (Uuid::now_v7(), Uuid::now_v7());
    let all = channels.iter().map(|c| (*c, "vixen")).chain([((tushy_channel, tushy_pack), "tushy")]);
    for (n, ((channel, pack), site)) in all.enumerate() {
        let mut in_pack = video(Some((pack, channel)));
        if let Some(c) = in_pack.channel.as_mut() {
            c.slug = format!("channel-{n:03}");
        }
        events.push(channel_on(channel, n, site));
        events.push(published(&in_pack));
        events.push(pack_published(pack, channel, vec![in_pack.video_id]));
    }
    env.catalog(&events).await;
    let member = Uuid::now_v7();
    env.subscribe(member, MembershipKind::Member).await;
    env.fund_gems(member, 30).await;
    let token = env.token(member);

    for (_, pack) in [channels[0], channels[129]] {
        let body = env.ask(Some(&token), UNLOCK_PACK, json!({"id": pack})).await;
        assert_eq!(body["data"]["unlockChannelPack"]["status"], "success", "{}", short(&body));
    }
    // Another brand's pack and an unknown one: NOT_FOUND, as any item of another brand is, and
    // nothing is debited.
    for pack in [tushy_pack, Uuid::now_v7()] {
        let body = env.ask(Some(&token), UNLOCK_PACK, json!({"id": pack})).await;
        assert_eq!(codes(&body), ["NOT_FOUND"], "{}", short(&body));
    }
    let body = env.ask(Some(&token), "{ getGemsBalance { wallet { balance { amount } } } }", json!({})).await;
    assert_eq!(body["data"]["getGemsBalance"]["wallet"]["balance"]["amount"], 10, "{}", short(&body));
    env.cleanup().await;
}

const TOKENS: &str = "query($id: ID!, $device: String) { getToken(videoId: $id, device: $device) { p270 { token cdn url } p360 { token cdn url } p480 { token cdn url } p480l { token cdn url } p720 { token cdn url } p1080 { token cdn url } p2160 { token cdn url } hls { token cdn url } downloadQuotas { downloadsNumber quotaLeft } } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn get_token_opens_the_media_through_the_gateway_with_ranges_and_nothing_else() {
    let env = env().await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let (open, locked) = (video(None), video(Some((pack, channel))));
    env.catalog(&[
        channel_published(channel),
        published(&open),
        published(&locked),
        pack_published(pack, channel, vec![locked.video_id]),
    ])
    .await;
    let (member, stranger) = (Uuid::now_v7(), Uuid::now_v7());
    env.subscribe(member, MembershipKind::Member).await;
    env.account(stranger, "vixen").await;
    let token = env.token(member);

    let body = env.ask(None, TOKENS, json!({"id": open.video_id})).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    let body = env.ask(Some(&token), TOKENS, json!({"id": open.video_id})).await;
    let tokens = &body["data"]["getToken"];
    for quality in ["p270", "p360", "p480", "p480l", "p720", "p1080", "p2160", "hls"] {
        assert_eq!(tokens[quality]["cdn"], "/media/videos", "{quality}: {}", short(&body));
        assert!(tokens[quality]["token"].as_str().is_some_and(|t| !t.is_empty()), "{quality}");
    }
    assert!(tokens["downloadQuotas"].is_null(), "a playback token counts no download");

    let url = tokens["p270"]["url"].as_str().unwrap().to_owned();
    let file = std::fs::read(media_dir().join("demo/p270.mp4")).unwrap();
    let full = env.media(&url, None, Some(&token)).await;
    assert_eq!(full.status(), StatusCode::OK);
    assert_eq!(full.headers()[header::CONTENT_TYPE], "video/mp4");
    assert_eq!(full.bytes().await.unwrap().as_ref(), file.as_slice());
    let part = env.media(&url, Some("bytes=100-199"), Some(&token)).await;
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.headers()[header::CONTENT_RANGE], format!("bytes 100-199/{}", file.len()));
    assert_eq!(part.bytes().await.unwrap().as_ref(), &file[100..200]);
    // A tampered token, another quality's token, a path that tries to leave /media/videos.
    let (head, mac) = url.rsplit_once('.').unwrap();
    let flipped = match mac.strip_prefix('A') {
        Some(rest) => format!("{head}.B{rest}"),
        None => format!("{head}.A{}", &mac[1..]),
    };
    assert_eq!(env.media(&flipped, None, Some(&token)).await.status(), StatusCode::FORBIDDEN);
    let other = url.replace("/p270?", "/p360?");
    assert_eq!(env.media(&other, None, Some(&token)).await.status(), StatusCode::FORBIDDEN);
    // The URL copied into a signed-out browser, or into another user's session.
    assert_eq!(env.media(&url, Some("bytes=0-9"), None).await.status(), StatusCode::FORBIDDEN);
    let strangers = env.token(stranger);
    assert_eq!(env.media(&url, Some("bytes=0-9"), Some(&strangers)).await.status(), StatusCode::FORBIDDEN);
    // Sent raw: an HTTP client would resolve the dots itself.
    for dots in ["..", "%2e%2e", ".%2E"] {
        let escape = format!("/media/videos/{dots}/{dots}/internal/users/{member}/unlocks");
        assert_eq!(env.raw_get(&escape).await, "HTTP/1.1 404 Not Found", "{escape}");
    }

    // The locked pack's video: FORBIDDEN with where to send the user; nobody's: the same.
    let body = env.ask(Some(&token), TOKENS, json!({"id": locked.video_id})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    assert_eq!(body["errors"][0]["extensions"]["denied"], "channel_pack_locked");
    let body = env.ask(Some(&env.token(stranger)), TOKENS, json!({"id": open.video_id})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    assert_eq!(body["errors"][0]["extensions"]["denied"], "no_access");
    env.cleanup().await;
}

const RESOLUTIONS: &str = "query($id: ID!) { downloadResolutions(videoId: $id) { resolutions { label size width res } downloadQuotas { downloadsNumber downloadQuotaMax quotaLeft site } } }";
const DOWNLOAD: &str = "mutation($id: ID!, $size: String!) { downloadVideo(videoId: $id, size: $size) { downloadId resolution { size label } token { cdn url } downloadQuotas { downloadsNumber quotaLeft thresholdReached } } }";
const QUOTAS: &str = "{ downloadQuotas { thresholdReached downloadsNumber downloadQuotaMax downloadDaysPeriod quotaLeft remainingDays zeroQuota site } channels: downloadQuotas(channels: true) { downloadQuotaMax site } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn downloads_count_against_the_quota_and_the_quota_error_keeps_its_message_and_fields() {
    let env = env().await;
    let v = video(None);
    env.catalog(&[published(&v)]).await;
    let member = Uuid::now_v7();
    env.subscribe(member, MembershipKind::Member).await;
    let token = env.token(member);

    let body = env.ask(Some(&token), RESOLUTIONS, json!({"id": v.video_id})).await;
    let r = &body["data"]["downloadResolutions"];
    let sizes: Vec<&str> = r["resolutions"].as_array().unwrap().iter().map(|r| r["size"].as_str().unwrap()).collect();
    assert!(sizes.contains(&"p1080") && sizes.contains(&"p2160"), "{}", short(&body));
    assert_eq!(
        r["downloadQuotas"],
        json!({"downloadsNumber": 0, "downloadQuotaMax": 2, "quotaLeft": 2, "site": "vixen"})
    );

    let vars = json!({"id": v.video_id, "size": "p1080"});
    let body = env.ask(Some(&token), DOWNLOAD, vars.clone()).await;
    let d = &body["data"]["downloadVideo"];
    assert_eq!(d["resolution"]["size"], "p1080", "{}", short(&body));
    assert_eq!(d["downloadQuotas"]["downloadsNumber"], 1);
    let url = d["token"]["url"].as_str().unwrap().to_owned();
    let file = env.media(&url, Some("bytes=0-9"), Some(&token)).await;
    assert_eq!(file.status(), StatusCode::PARTIAL_CONTENT);
    assert!(file.headers()[header::CONTENT_DISPOSITION].to_str().unwrap().starts_with("attachment"));

    // getToken with device download counts the second.
    let body = env.ask(Some(&token), TOKENS, json!({"id": v.video_id, "device": "download"})).await;
    assert_eq!(
        body["data"]["getToken"]["downloadQuotas"],
        json!({"downloadsNumber": 2, "quotaLeft": 0}),
        "{}",
        short(&body)
    );

    let body = env.ask(Some(&token), DOWNLOAD, vars).await;
    assert_eq!(codes(&body), ["REACHED_DOWNLOAD_QUOTA"], "{}", short(&body));
    let error = &body["errors"][0];
    assert_eq!(error["message"], "limit exceeded, try again in 7 days");
    assert_eq!(error["extensions"]["downloadQuotaMax"], 2);
    assert_eq!(error["extensions"]["remainingDays"], 7);

    let body = env.ask(Some(&token), QUOTAS, json!({})).await;
    assert_eq!(
        body["data"]["downloadQuotas"],
        json!({"thresholdReached": true, "downloadsNumber": 2, "downloadQuotaMax": 2, "downloadDaysPeriod": 7,
               "quotaLeft": 0, "remainingDays": 7, "zeroQuota": false, "site": "vixen"}),
        "{}",
        short(&body)
    );
    assert_eq!(body["data"]["channels"], json!({"downloadQuotaMax": 5, "site": "channels"}));
    env.cleanup().await;
}

const UNLOCK_VIDEO: &str = "mutation($input: UnlockVideoInput!) { UnlockVideo(input: $input) { status videoId videoNewId videoSourcesUrl paidWith payPerVideoCredits } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unlock_video_spends_a_credit_and_without_credits_is_refused() {
    let env = env().await;
    let (a, b) = (video(None), video(None));
    env.catalog(&[published(&a), published(&b)]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::PornPortal).await;
    env.fund_credits(user, 1).await;
    let token = env.token(user);
    let input = |v: &Video| json!({"input": {"videoId": v.video_id, "videoSourcesUrl": format!("/api/videos/{}/sources", v.video_id), "videoNewId": v.new_id}});

    let body = env.ask(None, UNLOCK_VIDEO, input(&a)).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    let body = env.ask(Some(&token), UNLOCK_VIDEO, input(&a)).await;
    let u = &body["data"]["UnlockVideo"];
    assert_eq!(
        (&u["status"], &u["paidWith"], &u["payPerVideoCredits"]),
        (&json!("success"), &json!("credits"), &json!(0)),
        "{}",
        short(&body)
    );
    assert_eq!(u["videoNewId"], a.new_id);
    let body = env.ask(Some(&token), UNLOCK_VIDEO, input(&b)).await;
    assert_eq!(codes(&body), ["NOT_ENOUGH_CREDITS"], "{}", short(&body));

    let body = env.ask(Some(&token), STATE, json!({})).await;
    let state = &body["data"]["unlockState"];
    assert_eq!(state["unlockedVideoIds"], json!([a.video_id.to_string()]), "{}", short(&body));
    assert_eq!(state["unlockedVideos"][0]["paidWith"], "credits");
    let body = env.ask(Some(&token), TOKENS, json!({"id": a.video_id})).await;
    assert!(body["data"]["getToken"]["p720"]["url"].is_string(), "{}", short(&body));
    env.cleanup().await;
}

#[tokio::test]
async fn spends_are_rate_limited_alias_by_alias() {
    // The service is nowhere: the limit answers before any call.
    let gw = support::spawn(support::nowhere()).await;
    let token = gw.token(Uuid::now_v7(), "vixen.localhost", "vixen");
    let aliases: String = (0..31)
        .map(|i| format!("a{i}: unlockChannelPack(channelPackId: \"{}\") {{ status }} ", Uuid::now_v7()))
        .collect();
    let (_, body) = gw.post(HOST, json!({"query": format!("mutation {{ {aliases} }}")}), Some(&token)).await;
    let codes = codes(&body);
    assert_eq!(codes.len(), 31, "{}", short(&body));
    assert_eq!(codes.iter().filter(|c| *c == "RATE_LIMITED").count(), 1, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| *c == "SERVICE_UNAVAILABLE").count(), 30, "{codes:?}");
}

const PLUS: &str = "vixenplus.localhost:8080";
const FREE_TRIAL: &str =
    "{ freeTrialVideos(page: 1, size: 12) { totalCount videos { uuid site isFreeLimitedTrial freeForYourTrial } } \
                          videos(page: 1, size: 50) { videos { uuid isFreeLimitedTrial freeForYourTrial } } }";
const MARKS: &str =
    "query($ids: [ID!]!) { videoAccess(videoIds: $ids) { videoId isFreeLimitedTrial freeForYourTrial } }";
const UNLOCK_FREE: &str =
    "mutation($input: UnlockVideoInput!) { UnlockVideo(input: $input) { status paidWith freeVideosLeft } }";

/// The first error's message.
fn message(body: &Value) -> String {
    body["errors"][0]["message"].as_str().unwrap_or_default().to_owned()
}

/// On the combined brand, whose lists carry every brand's flagged videos, a vixenplus free
/// trial's videos are vixenplus's: "free for your trial" lists them, the mark (a per-video
/// field and videoAccess's answer) is on them alone, and UnlockVideo refuses the others with
/// the trial's own codes and messages, never NOT_ENOUGH_CREDITS.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_free_trial_is_offered_its_own_videos_and_refused_the_others_with_its_own_reasons() {
    let env = env().await;
    let own: Vec<Video> =
        (0..4).map(|_| Video { is_free_limited_trial: true, ..video_on("vixenplus", None) }).collect();
    let other = Video { is_free_limited_trial: true, ..video_on("tushy", None) };
    let unflagged = video_on("vixenplus", None);
    let mut events: Vec<_> = own.iter().map(published).collect();
    events.extend([published(&other), published(&unflagged)]);
    env.catalog(&events).await;
    let user = Uuid::now_v7();
    env.stack.member(user, &["vixenplus"], MembershipKind::Trial, true).await;
    let token = env.stack.token(user, PLUS, &[]);
    let ask = |query: &'static str, variables: Value| {
        let token = token.clone();
        let env = &env;
        async move {
            let (status, body) = env.gw.post(PLUS, json!({"query": query, "variables": variables}), Some(&token)).await;
            assert_eq!(status, StatusCode::OK, "{}", short(&body));
            body
        }
    };
    let input = |v: &Video| json!({"input": {"videoId": v.video_id, "videoNewId": v.new_id}});
    let marked = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|v| v["freeForYourTrial"] == json!(true))
            .map(|v| v["uuid"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut own_ids: Vec<String> = own.iter().map(|v| v.video_id.to_string()).collect();
    own_ids.sort();

    let body = ask(FREE_TRIAL, json!({})).await;
    let list = &body["data"]["freeTrialVideos"];
    assert_eq!(list["totalCount"], 4, "{}", short(&body));
    let mut listed = marked(&list["videos"]);
    listed.sort();
    assert_eq!(listed, own_ids, "the trial's own four, each marked");
    let mut on_listing = marked(&body["data"]["videos"]["videos"]);
    on_listing.sort();
    assert_eq!(on_listing, own_ids, "the listing marks the trial's own, not tushy's flagged video");
    let body = ask(MARKS, json!({"ids": [own[0].video_id, other.video_id, unflagged.video_id]})).await;
    let access: Vec<(bool, bool)> = body["data"]["videoAccess"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["isFreeLimitedTrial"].as_bool().unwrap(), v["freeForYourTrial"].as_bool().unwrap()))
        .collect();
    assert_eq!(access, [(true, true), (true, false), (false, false)], "{}", short(&body));

    let body = ask(UNLOCK_FREE, input(&other)).await;
    assert_eq!(codes(&body), ["FREE_TRIAL_VIDEO_OF_ANOTHER_SITE"], "{}", short(&body));
    assert!(message(&body).contains("another site"), "{}", short(&body));
    let body = ask(UNLOCK_FREE, input(&unflagged)).await;
    assert_eq!(codes(&body), ["NOT_A_FREE_TRIAL_VIDEO"], "{}", short(&body));
    assert!(message(&body).contains("not one of your free trial's videos"), "{}", short(&body));
    for (n, left) in [(0, 2), (1, 1), (2, 0)] {
        let body = ask(UNLOCK_FREE, input(&own[n])).await;
        let u = &body["data"]["UnlockVideo"];
        assert_eq!(
            (&u["paidWith"], &u["freeVideosLeft"]),
            (&json!("free_limited_trial"), &json!(left)),
            "{}",
            short(&body)
        );
    }
    let body = ask(UNLOCK_FREE, input(&own[3])).await;
    assert_eq!(codes(&body), ["NO_FREE_TRIAL_VIDEOS_LEFT"], "{}", short(&body));
    assert!(message(&body).contains("full videos are taken"), "{}", short(&body));
    // None left: the trial's videos are still listed (the three stay open), none is marked.
    let body = ask(FREE_TRIAL, json!({})).await;
    assert_eq!(body["data"]["freeTrialVideos"]["totalCount"], 4);
    assert!(marked(&body["data"]["freeTrialVideos"]["videos"]).is_empty(), "{}", short(&body));

    // Nobody else has a trial's list: a visitor is asked to sign in, a member gets none.
    let (_, body) = env.gw.post(PLUS, json!({"query": FREE_TRIAL}), None).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    let member = Uuid::now_v7();
    env.stack.member(member, &["vixenplus"], MembershipKind::Member, false).await;
    let (_, body) = env.gw.post(PLUS, json!({"query": FREE_TRIAL}), Some(&env.stack.token(member, PLUS, &[]))).await;
    assert_eq!(body["data"]["freeTrialVideos"]["totalCount"], 0, "{}", short(&body));
    assert!(marked(&body["data"]["videos"]["videos"]).is_empty());
    env.cleanup().await;
}
