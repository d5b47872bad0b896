//! The catalog and unlocks resolvers enforce the abilities of product.md, "Roles and abilities"
//! themselves (whatever the browser renders): full-video qualities and tokens for who may
//! play, picture sets as their video, channel trailers, internal channels and the expert review
//! by flag or preview role, the recommended-videos shelf. The real catalog (demo content),
//! profile, unlocks and wallet services answer, each on its own scratch schema.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::{json, Value};
use support::{
    codes, short,
    stack::{Options, Stack},
};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const PREVIEW: &str = "@paysite/role-video-preview";

async fn ask(stack: &Stack, host: &str, token: Option<&str>, query: &str, variables: Value) -> Value {
    let (status, body) = stack.gw.post(host, json!({"query": query, "variables": variables}), token).await;
    assert_eq!(status, StatusCode::OK, "{}", short(&body));
    body
}

async fn one(stack: &Stack, sql: &str) -> String {
    sqlx::query_scalar(sql).fetch_one(&stack.catalog.pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

const VIDEO: &str =
    "query($slug: String!) { getVideo(videoSlug: $slug) { video { uuid qualities trailer { src poster } } } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_videos_picture_sets_and_trailers_follow_the_abilities() {
    let stack = Stack::start(Options { seed_catalog: true, with_deals: false, ..Default::default() }).await;
    stack.sync_catalog_to_unlocks().await;
    let (member, trial, stranger) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    stack.member(member, &["vixen"], MembershipKind::Member, false).await;
    stack.member(trial, &["vixen"], MembershipKind::Trial, false).await;
    stack.account(stranger, "vixen").await;
    let token = |user| stack.token(user, VIXEN, &[]);

    // A vixen video outside any channel, with a picture set.
    let slug = one(
        &stack,
        "select v.slug from video v where v.site = 'vixen' and v.published and v.channel_id is null \
         and exists (select 1 from picture_set p where p.video_id = v.video_id) order by v.slug limit 1",
    )
    .await;
    let vars = json!({"slug": slug});
    let anonymous = ask(&stack, VIXEN, None, VIDEO, vars.clone()).await;
    let video = &anonymous["data"]["getVideo"]["video"];
    assert_eq!(video["qualities"], json!([]), "a visitor plays the trailer only: {}", short(&anonymous));
    assert!(video["trailer"]["src"].as_str().is_some_and(|s| !s.is_empty()), "{}", short(&anonymous));
    let uuid = video["uuid"].as_str().unwrap().to_owned();
    let body = ask(&stack, VIXEN, Some(&token(member)), VIDEO, vars.clone()).await;
    let qualities = body["data"]["getVideo"]["video"]["qualities"].as_array().cloned().unwrap_or_default();
    assert!(!qualities.is_empty(), "a member of the site: {}", short(&body));
    for user in [trial, stranger] {
        let body = ask(&stack, VIXEN, Some(&token(user)), VIDEO, vars.clone()).await;
        assert_eq!(body["data"]["getVideo"]["video"]["qualities"], json!([]), "{}", short(&body));
    }

    // Tokens: the member; not a trial user (who plays what they unlocked only), whatever the
    // unlocks service's own rule would allow, nor a user without a subscription.
    let tokens = "query($id: ID!) { getToken(videoId: $id) { p720 { url } } }";
    let body = ask(&stack, VIXEN, Some(&token(member)), tokens, json!({"id": uuid})).await;
    assert!(body["data"]["getToken"]["p720"]["url"].is_string(), "{}", short(&body));
    for user in [trial, stranger] {
        let body = ask(&stack, VIXEN, Some(&token(user)), tokens, json!({"id": uuid})).await;
        assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
        assert_eq!(body["errors"][0]["extensions"]["denied"], "no_access");
    }
    let download = "mutation($id: ID!) { downloadVideo(videoId: $id, size: \"p720\") { downloadId } }";
    let body = ask(&stack, VIXEN, Some(&token(trial)), download, json!({"id": uuid})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));

    // Picture sets: as their video.
    let set = "query($slug: String!) { getPictureSet(videoSlug: $slug) { videoSlug } }";
    let body = ask(&stack, VIXEN, Some(&token(member)), set, vars.clone()).await;
    assert_eq!(body["data"]["getPictureSet"]["videoSlug"], slug.as_str(), "{}", short(&body));
    for user in [trial, stranger] {
        let body = ask(&stack, VIXEN, Some(&token(user)), set, vars.clone()).await;
        assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    }

    // Comments: where the user may play the video.
    let add = "mutation($v: ID!) { addComment(videoId: $v, text: \"A calm, well lit scene.\") { id } }";
    let body = ask(&stack, VIXEN, Some(&token(stranger)), add, json!({"v": uuid})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    let body = ask(&stack, VIXEN, Some(&token(member)), add, json!({"v": uuid})).await;
    assert!(body.get("errors").is_none(), "{}", short(&body));

    // A channel video's trailer: vixen shows channel trailers, to signed-in users.
    let channel_slug = one(
        &stack,
        "select v.slug from video v join channel c on c.channel_id = v.channel_id where 'vixen' = any(c.sites) \
         and v.published order by v.slug limit 1",
    )
    .await;
    let cvars = json!({"slug": channel_slug});
    let body = ask(&stack, VIXEN, None, VIDEO, cvars.clone()).await;
    assert_eq!(body["data"]["getVideo"]["video"]["trailer"]["src"], "", "{}", short(&body));
    assert!(body["data"]["getVideo"]["video"]["trailer"]["poster"].as_str().is_some_and(|p| !p.is_empty()));
    let body = ask(&stack, VIXEN, Some(&token(member)), VIDEO, cvars).await;
    assert!(body["data"]["getVideo"]["video"]["trailer"]["src"].as_str().is_some_and(|s| !s.is_empty()));
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_channels_the_expert_review_and_channel_trailers_show_by_flag_or_preview_role() {
    let stack = Stack::start(Options { seed_catalog: true, with_deals: false, ..Default::default() }).await;
    // A brand that carries an internal channel but has the internal channels, channel trailers
    // and expert review flags off.
    let brands = ["blackedraw", "milfy", "tushyraw", "deeper", "wifey"];
    let (brand, internal): (String, String) = sqlx::query_as(
        "select s, c.slug from channel c, unnest(c.sites) s where c.kind = 'internal' and s = any($1) \
         order by s, c.slug limit 1",
    )
    .bind(&brands[..])
    .fetch_one(&stack.catalog.pool)
    .await
    .expect("a brand without internal channels carrying one");
    let host = format!("{brand}.localhost:8080");
    let (user, previewer) = (Uuid::now_v7(), Uuid::now_v7());
    stack.member(user, &[&brand], MembershipKind::Member, false).await;
    stack.member(previewer, &[&brand], MembershipKind::Member, false).await;
    let plain = stack.token(user, &host, &[]);
    let preview = stack.token(previewer, &host, &[PREVIEW]);

    let channel =
        "query($c: String!) { channel(channelSlug: $c) { slug } channelVideos(channelSlug: $c) { totalCount } }";
    for token in [None, Some(plain.as_str())] {
        let body = ask(&stack, &host, token, channel, json!({"c": internal})).await;
        assert_eq!(codes(&body), ["NOT_FOUND", "NOT_FOUND"], "{}", short(&body));
    }
    let body = ask(&stack, &host, Some(&preview), channel, json!({"c": internal})).await;
    assert!(body.get("errors").is_none(), "the preview role sees internal channels: {}", short(&body));
    let list = "{ channels(size: 50) { totalCount channels { slug isThirdParty } } }";
    let body = ask(&stack, &host, Some(&plain), list, json!({})).await;
    let shown = body["data"]["channels"]["channels"].as_array().unwrap().clone();
    assert!(shown.iter().all(|c| c["isThirdParty"] == true), "{}", short(&body));
    assert_eq!(body["data"]["channels"]["totalCount"].as_u64(), Some(shown.len() as u64));
    let body = ask(&stack, &host, Some(&preview), list, json!({})).await;
    assert!(body["data"]["channels"]["channels"].as_array().unwrap().iter().any(|c| c["slug"] == internal.as_str()));

    // The expert review: the flag is off here, so the preview role only.
    let video =
        one(&stack, &format!("select video_id::text from video where site = '{brand}' and published limit 1")).await;
    let review = "query($v: ID!) { expertReview(videoId: $v) { expertReview { global } } }";
    let body = ask(&stack, &host, Some(&plain), review, json!({"v": video})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    let body = ask(&stack, &host, Some(&preview), review, json!({"v": video})).await;
    assert!(body.get("errors").is_none(), "{}", short(&body));
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_recommended_videos_shelf_is_for_who_may_see_it() {
    let stack = Stack::start(Options { seed_catalog: true, with_deals: false, ..Default::default() }).await;
    let (member, trial) = (Uuid::now_v7(), Uuid::now_v7());
    stack.member(member, &["vixen"], MembershipKind::Member, false).await;
    stack.member(trial, &["vixen"], MembershipKind::Trial, false).await;
    let shelf = "{ recommendations(shelf: RECOMMENDED_VIDEOS, limit: 3) { recommId } }";
    for token in [None, Some(stack.token(trial, VIXEN, &[]))] {
        let body = ask(&stack, VIXEN, token.as_deref(), shelf, json!({})).await;
        assert_eq!(codes(&body), ["NOT_FOUND"], "{}", short(&body));
    }
    let body = ask(&stack, VIXEN, Some(&stack.token(member, VIXEN, &[])), shelf, json!({})).await;
    assert!(body.get("errors").is_none(), "{}", short(&body));
    // The home shelf stays everyone's.
    let home = "{ recommendations(limit: 3) { recommId } }";
    assert!(ask(&stack, VIXEN, None, home, json!({})).await.get("errors").is_none());
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_who_sees_the_hide_month_button_may_snooze_the_offers_interstitial() {
    let stack = Stack::start(Options { seed_catalog: false, with_deals: true, ..Default::default() }).await;
    let (member, trial) = (Uuid::now_v7(), Uuid::now_v7());
    stack.member(member, &["vixen"], MembershipKind::Member, false).await;
    stack.member(trial, &["vixen"], MembershipKind::Trial, false).await;
    let snooze = "mutation { snoozeInterstitial(input: {}) { snoozed } }";
    let go_on = "mutation { continueInterstitial(input: {}) { snoozed } }";

    let body = ask(&stack, VIXEN, None, snooze, json!({})).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"], "{}", short(&body));
    // A trial has no HideMonthInterstitialButton: it may go on past the interstitial, not hide it.
    let trial = stack.token(trial, VIXEN, &[]);
    let body = ask(&stack, VIXEN, Some(&trial), snooze, json!({})).await;
    assert_eq!(codes(&body), ["FORBIDDEN"], "{}", short(&body));
    let body = ask(&stack, VIXEN, Some(&trial), go_on, json!({})).await;
    assert_eq!(body["data"]["continueInterstitial"]["snoozed"], false, "{}", short(&body));
    // An active member of the brand does.
    let body = ask(&stack, VIXEN, Some(&stack.token(member, VIXEN, &[])), snooze, json!({})).await;
    assert_eq!(body["data"]["snoozeInterstitial"]["snoozed"], true, "{}", short(&body));
    stack.cleanup().await;
}
