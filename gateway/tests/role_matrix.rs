//! The role × action matrix, through the real gateway and the real profile,
//! subscription, wallet, unlocks and catalog services: every kind of user of the spec (the
//! role table of product.md, "Roles and abilities") asks for the browser's abilities, a playback
//! token, a download, an UnlockVideo of a free-limited-trial video, a channel pack unlock and a
//! comment, and reads its profile. Each cell must be what the role table says, and what the
//! browser's rule list says must be what the server then does: one rule, one answer.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::{json, Value};
use support::{
    codes,
    content::{channel_published, free_trial_video, pack_published, published, video},
    short,
    stack::{Options, Stack},
};
use uuid::Uuid;

const HOST: &str = "vixen.localhost:8080";
const PREVIEW: &str = "@paysite/role-video-preview";

/// A kind of user, set up in the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Anonymous,
    Member,
    Multisite,
    CancelledNativeInPeriod,
    CancelledOtherBillerInPeriod,
    CancelledAfterPeriod,
    Expired,
    Trial,
    FreeLimitedTrial,
    PayPerVideo,
    TandemParent,
    TandemChild,
    Preview,
    Moderator,
    Admin,
}

const KINDS: [Kind; 15] = [
    Kind::Anonymous,
    Kind::Member,
    Kind::Multisite,
    Kind::CancelledNativeInPeriod,
    Kind::CancelledOtherBillerInPeriod,
    Kind::CancelledAfterPeriod,
    Kind::Expired,
    Kind::Trial,
    Kind::FreeLimitedTrial,
    Kind::PayPerVideo,
    Kind::TandemParent,
    Kind::TandemChild,
    Kind::Preview,
    Kind::Moderator,
    Kind::Admin,
];

/// What the role table says a kind may do: play and download a vixen video, take a flagged
/// video as a free-trial video, unlock a channel pack, comment on the vixen video.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    play: bool,
    download: bool,
    free_trial_unlock: bool,
    pack: bool,
    comment: bool,
}

fn role_table(kind: Kind) -> Row {
    let member = Row { play: true, download: true, free_trial_unlock: false, pack: true, comment: true };
    let none = Row { play: false, download: false, free_trial_unlock: false, pack: false, comment: false };
    match kind {
        // "Active subscriber" (a cancelled one keeps the paid period; a tandem child uses the
        // parent's membership, only Channels hidden).
        Kind::Member
        | Kind::Multisite
        | Kind::CancelledNativeInPeriod
        | Kind::CancelledOtherBillerInPeriod
        | Kind::TandemParent
        | Kind::TandemChild
        | Kind::Moderator => member,
        // "Free limited trial": its three videos come from flagged content.
        Kind::FreeLimitedTrial => Row { free_trial_unlock: true, ..none },
        Kind::Anonymous
        | Kind::CancelledAfterPeriod
        | Kind::Expired
        | Kind::Trial
        | Kind::PayPerVideo
        | Kind::Preview
        | Kind::Admin => none,
    }
}

async fn ask(stack: &Stack, token: Option<&str>, query: &str, variables: Value) -> Value {
    let (status, body) = stack.gw.post(HOST, json!({"query": query, "variables": variables}), token).await;
    assert_eq!(status, StatusCode::OK, "{}", short(&body));
    body
}

/// The user of `kind`, with a token for the vixen host (none for the visitor).
async fn user_of(stack: &Stack, kind: Kind) -> Option<String> {
    let user = Uuid::now_v7();
    let vixen = &["vixen"][..];
    let mut groups: Vec<&str> = vec![];
    match kind {
        Kind::Anonymous => return None,
        Kind::Member => {
            stack.subscribe_with(user, vixen, MembershipKind::Member, false, "EPOCH").await;
        }
        Kind::Multisite => {
            stack.subscribe_with(user, &["vixen", "tushy", "blacked"], MembershipKind::Member, false, "EPOCH").await;
        }
        Kind::CancelledNativeInPeriod | Kind::CancelledOtherBillerInPeriod => {
            let biller = if kind == Kind::CancelledNativeInPeriod { "RGNATIVE" } else { "SEGPAY" };
            let s = stack.subscribe_with(user, vixen, MembershipKind::Member, false, biller).await;
            stack.cancel(s, user).await;
        }
        Kind::CancelledAfterPeriod => {
            let s = stack.subscribe_with(user, vixen, MembershipKind::Member, false, "RGNATIVE").await;
            stack.cancel(s, user).await;
            stack.expire(s, user).await;
        }
        Kind::Expired => {
            let s = stack.subscribe_with(user, vixen, MembershipKind::Member, false, "EPOCH").await;
            stack.expire(s, user).await;
        }
        Kind::Trial => {
            stack.subscribe_with(user, vixen, MembershipKind::Trial, false, "EPOCH").await;
        }
        Kind::FreeLimitedTrial => {
            stack.subscribe_with(user, vixen, MembershipKind::Trial, true, "EPOCH").await;
        }
        Kind::PayPerVideo => {
            stack.subscribe_with(user, vixen, MembershipKind::PornPortal, false, "EPOCH").await;
        }
        Kind::TandemParent | Kind::TandemChild => {
            stack.subscribe_with(user, vixen, MembershipKind::Member, false, "VXNBILL").await;
            if kind == Kind::TandemChild {
                let child = stack.tandem_child(user, HOST).await;
                stack.fund_gems(child, 10).await;
                return Some(stack.token(child, HOST, &[]));
            }
        }
        Kind::Preview | Kind::Admin => {
            stack.subscribe_with(user, vixen, MembershipKind::PornPortal, false, "EPOCH").await;
            let group = if kind == Kind::Preview { PREVIEW } else { "admin" };
            stack.grant_group(user, group).await;
            groups.push(group);
        }
        Kind::Moderator => {
            stack.subscribe_with(user, vixen, MembershipKind::Member, false, "EPOCH").await;
            stack.grant_group(user, "commenteditor").await;
            groups.push("commenteditor");
        }
    }
    // Gems for a pack, credits for nothing: a refused unlock is the rules' doing, not the wallet's.
    stack.fund_gems(user, 10).await;
    Some(stack.token(user, HOST, &groups))
}

const ABILITIES: &str = "{ user { abilities { action subject conditions inverted reason } } }";
const TOKEN: &str = "query($id: ID!, $device: String) { getToken(videoId: $id, device: $device) { p270 { url } } }";
const UNLOCK_VIDEO: &str = "mutation($input: UnlockVideoInput!) { UnlockVideo(input: $input) { paidWith } }";
const UNLOCK_PACK: &str = "mutation($id: ID!) { unlockChannelPack(channelPackId: $id) { status } }";
const COMMENT: &str = "mutation($id: ID!, $text: String!) { addComment(videoId: $id, text: $text) { id } }";
const PROFILE: &str = "{ findOneUserProfile { subscription { type active cancelled } tandemSubscription { isTandemChildAccount } siteAccessArray downloadQuotas { downloadQuotaMax } } }";

/// A video as the browser wraps it for the rules (`subject('Video', video)`).
fn subject(v: &proto_events::catalog::Video) -> Value {
    json!({
        "id": v.video_id.to_string(),
        "site": v.site,
        "channelPackId": v.channel.as_ref().and_then(|c| c.channel_pack_id).map(|p| p.to_string()),
        "isThirdPartyChannel": v.is_third_party_channel,
        "isFreeLimitedTrial": v.is_free_limited_trial,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_kind_of_user_gets_the_role_tables_answer_and_the_browser_sees_the_same() {
    let stack = Stack::start(Options::default()).await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    let (plain, flagged, in_pack) = (video(None), free_trial_video(), video(Some((pack, channel))));
    stack
        .publish(&[
            channel_published(channel),
            published(&plain),
            published(&flagged),
            published(&in_pack),
            pack_published(pack, channel, vec![in_pack.video_id]),
        ])
        .await;
    let pack_subject = json!({ "channelPackId": pack.to_string() });
    // "Shown when their feature flag is on or the user has the preview role" (product.md, "Roles and abilities").
    let tenant: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../config/tenants/vixen.json")).unwrap(),
    )
    .unwrap();
    let flag = |name: &str| tenant["features"][name].as_bool().unwrap_or(false);

    let mut failures = Vec::new();
    for kind in KINDS {
        let token = user_of(&stack, kind).await;
        let token = token.as_deref();
        let rules = ask(&stack, token, ABILITIES, json!({})).await["data"]["user"]["abilities"].clone();
        let browser = Row {
            play: access::casl::can(&rules, "play", "Video", Some(&subject(&plain))),
            download: access::casl::can(&rules, "download", "Video", Some(&subject(&plain))),
            free_trial_unlock: access::casl::can(&rules, "unlock", "Video", Some(&subject(&flagged))),
            pack: access::casl::can(&rules, "unlock", "ChannelPack", Some(&pack_subject)),
            comment: access::casl::can(&rules, "comment", "Video", Some(&subject(&plain))),
        };

        let played = ask(&stack, token, TOKEN, json!({"id": plain.video_id})).await;
        let downloaded = ask(&stack, token, TOKEN, json!({"id": plain.video_id, "device": "download"})).await;
        let input = json!({"input": {"videoId": flagged.video_id, "videoNewId": flagged.new_id}});
        let unlocked = ask(&stack, token, UNLOCK_VIDEO, input).await;
        let pack_unlock = ask(&stack, token, UNLOCK_PACK, json!({"id": pack})).await;
        let text = format!("A neutral comment {}", Uuid::now_v7().simple());
        let commented = ask(&stack, token, COMMENT, json!({"id": plain.video_id, "text": text})).await;
        let server = Row {
            play: played["data"]["getToken"]["p270"]["url"].is_string(),
            download: downloaded["data"]["getToken"]["p270"]["url"].is_string(),
            free_trial_unlock: unlocked["data"]["UnlockVideo"]["paidWith"] == "free_limited_trial",
            pack: pack_unlock["data"]["unlockChannelPack"]["status"] == "success",
            comment: commented["data"]["addComment"]["id"].is_string(),
        };

        let expected = role_table(kind);
        if browser != expected {
            failures.push(format!("{kind:?}: the browser's rules say {browser:?}, the role table {expected:?}"));
        }
        if server != expected {
            failures.push(format!(
                "{kind:?}: the server did {server:?}, the role table says {expected:?}: {} {} {} {} {}",
                short(&played),
                short(&downloaded),
                short(&unlocked),
                short(&pack_unlock),
                short(&commented)
            ));
        }
        // A refusal says why, the same way for the page and the player.
        if !server.play {
            let want = if token.is_none() { "UNAUTHENTICATED" } else { "FORBIDDEN" };
            if codes(&played) != [want] {
                failures.push(format!("{kind:?}: getToken refused with {:?}, not {want}", codes(&played)));
            }
            // The step that fits (product.md, "Access-denied routing"): a lapsed member reactivates; the others have nothing
            // that opens a plain vixen video.
            let denied = match kind {
                Kind::Expired | Kind::CancelledAfterPeriod => "reactivate",
                _ => "no_access",
            };
            if token.is_some() && played["errors"][0]["extensions"]["denied"] != denied {
                failures.push(format!("{kind:?}: getToken's denied: {}", short(&played)));
            }
        }

        // The profile's derived fields, as the subscription and unlocks services answer them.
        if let Some(token) = token {
            let body = ask(&stack, Some(token), PROFILE, json!({})).await;
            let p = &body["data"]["findOneUserProfile"];
            let (active, cancelled) = (p["subscription"]["active"].as_bool(), p["subscription"]["cancelled"].as_bool());
            let want = match kind {
                Kind::CancelledNativeInPeriod | Kind::CancelledOtherBillerInPeriod => (Some(true), Some(true)),
                Kind::CancelledAfterPeriod | Kind::Expired => (Some(false), p["subscription"]["cancelled"].as_bool()),
                Kind::PayPerVideo | Kind::Preview | Kind::Admin => (Some(true), Some(false)),
                _ => (Some(true), Some(false)),
            };
            if (active, cancelled) != want {
                failures.push(format!("{kind:?}: profile subscription {}", short(p)));
            }
            if matches!(kind, Kind::CancelledAfterPeriod | Kind::Expired) && p["subscription"]["type"] != "expired" {
                failures.push(format!("{kind:?}: an ended membership reads as expired: {}", short(p)));
            }
            let child = p["tandemSubscription"]["isTandemChildAccount"].as_bool();
            if child != Some(kind == Kind::TandemChild) {
                failures.push(format!("{kind:?}: tandem {}", short(p)));
            }
            if kind == Kind::TandemChild && p["siteAccessArray"] != json!(["vixen"]) {
                failures.push(format!("the tandem child reads the parent's access: {}", short(p)));
            }
            // The role table's other cells for these kinds.
            let sees = |s: &str| access::casl::can(&rules, "see", s, None);
            let checks = [
                (kind == Kind::CancelledNativeInPeriod, sees("ReactivateCancelledRebillModal"), "reactivate modal"),
                (kind != Kind::TandemChild, sees("Channels"), "see Channels"),
                (kind == Kind::Preview || flag("channelTrailers"), sees("ChannelTrailers"), "see ChannelTrailers"),
                (kind == Kind::Preview || flag("internalChannels"), sees("InternalChannels"), "see InternalChannels"),
                (
                    kind == Kind::Moderator || kind == Kind::Admin,
                    access::casl::can(&rules, "remove", "Comment", None),
                    "remove Comment",
                ),
            ];
            for (want, got, what) in checks {
                if want != got {
                    failures.push(format!("{kind:?}: {what}: {got}, the role table says {want}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} cells disagree:\n{}", failures.len(), failures.join("\n"));
    stack.cleanup().await;
}
