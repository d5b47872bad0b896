//! The authorization matrix: every operation that takes the id of something on one
//! brand (vixen), asked through the gateway by each kind of caller, against the answer
//! expected of it. The deals, catalog, profile, unlocks and wallet services behind the gateway
//! are the real ones, each on its own scratch schema; each caller's token is signed for the
//! host it calls.
//!
//! Callers:
//! - anonymous: no session;
//! - owner: whoever the operation is for on vixen (vixen's admin for deal management, vixen's
//!   comment editor for moderation, a vixen member for content and unlocks, a vixen
//!   pay-per-video user with credits for UnlockVideo);
//! - another user: a signed-in vixen user without that right (no subscription, no group);
//! - the owner on another brand: the owner's own session on tushy, calling tushy's host;
//! - another brand's admin: tushy's admin (and comment editor, and member), calling tushy's host;
//! - a replayed token: the owner's tushy token sent to vixen's host.

mod support;

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::{json, Value};
use support::{codes, short, stack::Options, stack::Stack};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const TUSHY: &str = "tushy.localhost:8080";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Anonymous,
    Owner,
    AnotherUser,
    OwnerOnAnotherBrand,
    AnotherBrandsAdmin,
    ReplayedToken,
}

const CALLERS: [Caller; 6] = [
    Caller::Anonymous,
    Caller::Owner,
    Caller::AnotherUser,
    Caller::OwnerOnAnotherBrand,
    Caller::AnotherBrandsAdmin,
    Caller::ReplayedToken,
];

/// What an operation answers a caller: its data, or the first error's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Ok,
    Refused(&'static str),
}

use Answer::{Ok as Allowed, Refused};

/// The people of the matrix: owners (a vixen member, a vixen pay-per-video user with credits),
/// each with one identity and a session per brand; another signed-in vixen user with no
/// subscription; and tushy's operator (a tushy member, admin and comment editor).
struct People {
    member: Uuid,
    ppv: Uuid,
    another: Uuid,
    tushy_operator: Uuid,
}

struct Env {
    stack: Stack,
}

impl Env {
    /// The host a caller calls and the token it sends; `owner` and `groups` are the row's.
    fn caller(&self, people: &People, owner: Uuid, caller: Caller, groups: &[&str]) -> (&'static str, Option<String>) {
        let s = &self.stack;
        match caller {
            Caller::Anonymous => (VIXEN, None),
            Caller::Owner => (VIXEN, Some(s.token(owner, VIXEN, groups))),
            Caller::AnotherUser => (VIXEN, Some(s.token(people.another, VIXEN, &[]))),
            Caller::OwnerOnAnotherBrand => (TUSHY, Some(s.token(owner, TUSHY, groups))),
            Caller::AnotherBrandsAdmin => {
                (TUSHY, Some(s.token(people.tushy_operator, TUSHY, &["admin", "commenteditor"])))
            }
            Caller::ReplayedToken => (VIXEN, Some(s.token(owner, TUSHY, groups))),
        }
    }

    async fn ask(&self, host: &str, token: Option<&str>, query: &str, variables: &Value) -> Value {
        let (status, body) = self.stack.gw.post(host, json!({"query": query, "variables": variables}), token).await;
        assert_eq!(status, StatusCode::OK, "{}", short(&body));
        body
    }
}

fn answer_of(body: &Value) -> Answer {
    match codes(body).first() {
        None => Allowed,
        // Leaked: a handful of short codes per run, compared as the expected answers are.
        Some(code) => Refused(Box::leak(code.clone().into_boxed_str())),
    }
}

/// The expected answers of an operation owned by a right (admin, moderator) of vixen: only
/// the owner on vixen's own host gets through.
fn vixen_right_only(caller: Caller) -> Answer {
    match caller {
        Caller::Owner => Allowed,
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        Caller::AnotherUser | Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("FORBIDDEN"),
    }
}

/// What a vixen member's entitlement opens (a full video, a download, a comment): the owner on
/// vixen's host; a signed-in user without it is refused; vixen's content is not served through
/// another brand's host, whoever asks.
fn vixen_entitlement(caller: Caller) -> Answer {
    match caller {
        Caller::Owner => Allowed,
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        Caller::AnotherUser => Refused("FORBIDDEN"),
        Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("NOT_FOUND"),
    }
}

/// What any signed-in user does to a vixen item for themselves (favourites, votes, ratings):
/// everyone signed in on vixen's host; nobody reaches vixen's items through another host.
fn signed_in_on_vixen(caller: Caller) -> Answer {
    match caller {
        Caller::Owner | Caller::AnotherUser => Allowed,
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("NOT_FOUND"),
    }
}

/// Moderation of a comment on a vixen video: vixen's moderator on vixen's host; a vixen user
/// without the group is refused; through tushy's host the comment is unknown (tushy's own
/// moderators included).
fn vixen_moderator(caller: Caller) -> Answer {
    match caller {
        Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("NOT_FOUND"),
        other => vixen_right_only(other),
    }
}

/// A video bought with pay-per-video credits: the owner (with credits) on vixen; a signed-in
/// user without credits has nothing to pay with; not through tushy's host.
fn unlock_video(caller: Caller) -> Answer {
    match caller {
        Caller::AnotherUser => Refused("NOT_ENOUGH_CREDITS"),
        other => vixen_entitlement(other),
    }
}

/// A pack of a channel vixen and tushy both carry, unlocked with gems by an active member with
/// access to the host's brand: the owner (with gems) on vixen; not without a subscription, nor
/// the vixen member on tushy (no access there); tushy's member may, but has no gems. The
/// unlocks service decides with the access rules and answers its own code.
fn unlock_pack(caller: Caller) -> Answer {
    match caller {
        Caller::Owner => Allowed,
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        Caller::AnotherUser | Caller::OwnerOnAnotherBrand => Refused("NO_TENANT_ACCESS"),
        Caller::AnotherBrandsAdmin => Refused("NOT_ENOUGH_GEMS"),
    }
}

/// A signed-in user's question about themselves: anyone with a session on the host.
fn signed_in(caller: Caller) -> Answer {
    match caller {
        Caller::Anonymous | Caller::ReplayedToken => Refused("UNAUTHENTICATED"),
        _ => Allowed,
    }
}

/// Open reads of a vixen item: everyone on vixen's host (a replayed token is no session, so
/// it reads as a visitor); not through another brand's host.
fn open_on_vixen(caller: Caller) -> Answer {
    match caller {
        Caller::OwnerOnAnotherBrand | Caller::AnotherBrandsAdmin => Refused("NOT_FOUND"),
        _ => Allowed,
    }
}

fn deal_input(site: &str, name: &str) -> Value {
    json!({
        "name": name, "site": site, "partnerName": "Northwind Stream", "dealText": "A year at a member price",
        "url": "https://northwind.example.com/join", "initialPrice": "$1.00",
        "enabled": true, "rank": 1, "enabledList": true, "rankListing": 1,
    })
}

struct Row {
    operation: &'static str,
    owner: Uuid,
    /// The owner's groups.
    right: &'static [&'static str],
    document: &'static str,
    variables: Value,
    expect: fn(Caller) -> Answer,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_on_a_brands_resource_answers_each_caller_as_expected() {
    let stack = Stack::start(Options { seed_catalog: true, with_deals: true, ..Default::default() }).await;
    stack.sync_catalog_to_unlocks().await;
    let people =
        People { member: Uuid::now_v7(), ppv: Uuid::now_v7(), another: Uuid::now_v7(), tushy_operator: Uuid::now_v7() };
    stack.member(people.member, &["vixen"], MembershipKind::Member, false).await;
    stack.member(people.ppv, &["vixen"], MembershipKind::PornPortal, false).await;
    stack.account(people.another, "vixen").await;
    stack.member(people.tushy_operator, &["tushy"], MembershipKind::Member, false).await;
    stack.fund_gems(people.member, 30).await;
    stack.fund_credits(people.ppv, 5).await;
    let env = Env { stack };
    let s = &env.stack;

    // A vixen deal, made by vixen's admin.
    let vixen_admin = s.token(people.member, VIXEN, &["admin"]);
    let create = "mutation($input: DealInput!) { createDeal(input: $input) { id } }";
    let created = env.ask(VIXEN, Some(&vixen_admin), create, &json!({"input": deal_input("vixen", "Matrix")})).await;
    let deal_id = created["data"]["createDeal"]["id"].as_str().unwrap_or_else(|| panic!("{}", short(&created)));
    let deal_id = deal_id.to_owned();

    // Vixen content: a video outside any pack (with a performer), a pack, a channel.
    let video: String = sqlx::query_scalar(
        "select v.video_id::text from video v where v.site = 'vixen' and v.published and v.channel_id is null \
         order by v.slug limit 1",
    )
    .fetch_one(&s.catalog.pool)
    .await
    .unwrap();
    let performer: String = sqlx::query_scalar(
        "select performer_id::text from performer where 'vixen' = any(sites) and not 'tushy' = any(sites) \
         order by slug limit 1",
    )
    .fetch_one(&s.catalog.pool)
    .await
    .unwrap();
    let (channel, pack): (String, String) = sqlx::query_as(
        "select c.channel_id::text, p.channel_pack_id::text from channel c join channel_pack p using (channel_id) \
         where 'vixen' = any(c.sites) order by c.slug, p.slug limit 1",
    )
    .fetch_one(&s.catalog.pool)
    .await
    .unwrap();

    // A comment on it by another vixen member.
    let author = Uuid::now_v7();
    s.member(author, &["vixen"], MembershipKind::Member, false).await;
    let add = "mutation($v: ID!) { addComment(videoId: $v, text: \"Lovely light in this scene.\") { id } }";
    let comment = env.ask(VIXEN, Some(&s.token(author, VIXEN, &[])), add, &json!({"v": video})).await;
    let comment_id = comment["data"]["addComment"]["id"].as_str().unwrap_or_else(|| panic!("{}", short(&comment)));
    let comment_id = comment_id.to_owned();

    let owner = people.member;
    let new_id: String = sqlx::query_scalar("select new_id from video where video_id::text = $1")
        .bind(&video)
        .fetch_one(&s.catalog.pool)
        .await
        .unwrap();
    let reel: String =
        sqlx::query_scalar("select reel_id::text from reel where site = 'vixen' order by reel_id limit 1")
            .fetch_one(&s.catalog.pool)
            .await
            .unwrap();
    let mut matrix: Vec<Row> = vec![
        Row {
            operation: "adminDeals",
            owner,
            right: &["admin"],
            document: "query($s: String) { adminDeals(site: $s) { id } }",
            variables: json!({"s": "vixen"}),
            expect: vixen_right_only,
        },
        Row {
            operation: "editDeal",
            owner,
            right: &["admin"],
            document: "mutation($id: ID!, $input: DealInput!) { editDeal(id: $id, input: $input) { id } }",
            variables: json!({"id": deal_id, "input": deal_input("vixen", "Matrix edited")}),
            expect: vixen_right_only,
        },
        Row {
            operation: "setDealEnabled",
            owner,
            right: &["admin"],
            document: "mutation($id: ID!) { setDealEnabled(id: $id, type: listing, enabled: true) { id } }",
            variables: json!({"id": deal_id}),
            expect: vixen_right_only,
        },
        Row {
            operation: "rankDeal",
            owner,
            right: &["admin"],
            document: "mutation($id: ID!) { rankDeal(id: $id, type: listing, rank: 3) { id } }",
            variables: json!({"id": deal_id}),
            expect: vixen_right_only,
        },
        Row {
            operation: "pinComment",
            owner,
            right: &["commenteditor"],
            document: "mutation($c: ID!) { pinComment(commentId: $c) { id } }",
            variables: json!({"c": comment_id}),
            expect: vixen_moderator,
        },
        Row {
            operation: "unpinComment",
            owner,
            right: &["commenteditor"],
            document: "mutation($c: ID!) { unpinComment(commentId: $c) { id } }",
            variables: json!({"c": comment_id}),
            expect: vixen_moderator,
        },
        Row {
            operation: "comments",
            owner,
            right: &[],
            document: "query($v: ID!) { comments(videoId: $v) { totalCount } }",
            variables: json!({"v": video}),
            expect: open_on_vixen,
        },
        Row {
            operation: "commentReplies",
            owner,
            right: &[],
            document: "query($c: ID!) { commentReplies(commentId: $c) { totalCount } }",
            variables: json!({"c": comment_id}),
            expect: open_on_vixen,
        },
        Row {
            operation: "addComment",
            owner,
            right: &[],
            document: "mutation($v: ID!) { addComment(videoId: $v, text: \"The colours are wonderful.\") { id } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "replyToComment",
            owner,
            right: &[],
            document: "mutation($c: ID!) { replyToComment(commentId: $c, text: \"Agreed, a fine scene.\") { id } }",
            variables: json!({"c": comment_id}),
            expect: vixen_entitlement,
        },
        Row {
            // Any signed-in user votes, once per person: the owner voted as `another` could.
            operation: "voteComment",
            owner,
            right: &[],
            document: "mutation($c: ID!) { voteComment(commentId: $c, vote: like) { id } }",
            variables: json!({"c": comment_id}),
            expect: signed_in_on_vixen,
        },
        Row {
            operation: "rateVideo",
            owner,
            right: &[],
            document: "mutation($v: ID!) { rateVideo(videoId: $v, rating: 8) { videoRating } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "expertReview",
            owner,
            right: &[],
            document: "query($v: ID!) { expertReview(videoId: $v) { videoRating } }",
            variables: json!({"v": video}),
            expect: signed_in_on_vixen,
        },
        Row {
            operation: "updateExpertReview",
            owner,
            right: &[],
            document: "mutation($v: ID!) { updateExpertReview(videoId: $v, type: global, rating: 9) { videoRating } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "reel",
            owner,
            right: &[],
            document: "query($r: ID!) { reel(uuid: $r) { uuid } }",
            variables: json!({"r": reel}),
            expect: open_on_vixen,
        },
        Row {
            operation: "getToken",
            owner,
            right: &[],
            document: "query($v: ID!) { getToken(videoId: $v) { p720 { url } } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "getToken (download)",
            owner,
            right: &[],
            document: "query($v: ID!) { getToken(videoId: $v, device: \"download\") { downloadQuotas { quotaLeft } } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "downloadResolutions",
            owner,
            right: &[],
            document: "query($v: ID!) { downloadResolutions(videoId: $v) { resolutions { size } } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "downloadVideo",
            owner,
            right: &[],
            document: "mutation($v: ID!) { downloadVideo(videoId: $v, size: \"p720\") { downloadId } }",
            variables: json!({"v": video}),
            expect: vixen_entitlement,
        },
        Row {
            operation: "videoAccess",
            owner,
            right: &[],
            document: "query($v: ID!) { videoAccess(videoIds: [$v]) { videoId } }",
            variables: json!({"v": video}),
            // Another brand's videos are left out like unknown ones (checked below).
            expect: signed_in,
        },
        Row {
            operation: "UnlockVideo",
            owner: people.ppv,
            right: &[],
            document: "mutation($v: ID!, $n: String!) { UnlockVideo(input: {videoId: $v, videoNewId: $n}) { status } }",
            variables: json!({"v": video, "n": new_id}),
            expect: unlock_video,
        },
        Row {
            operation: "unlockChannelPack",
            owner,
            right: &[],
            document: "mutation($p: ID!) { unlockChannelPack(channelPackId: $p) { status } }",
            variables: json!({"p": pack}),
            expect: unlock_pack,
        },
    ];
    for (kind, id, expect) in [
        ("video", &video, signed_in_on_vixen as fn(Caller) -> Answer),
        ("performer", &performer, signed_in_on_vixen),
        // Every demo channel is carried by tushy as well.
        ("channel", &channel, signed_in),
    ] {
        matrix.push(Row {
            operation: "addFavorite",
            owner,
            right: &[],
            document: "mutation($k: FavoriteKind!, $id: ID!) { addFavorite(kind: $k, id: $id) { favorite } }",
            variables: json!({"k": kind, "id": id}),
            expect,
        });
        matrix.push(Row {
            operation: "removeFavorite",
            owner,
            right: &[],
            document: "mutation($k: FavoriteKind!, $id: ID!) { removeFavorite(kind: $k, id: $id) { favorite } }",
            variables: json!({"k": kind, "id": id}),
            expect,
        });
    }
    // Last: removal ends the comment for the rows after it.
    matrix.push(Row {
        operation: "removeComment",
        owner,
        right: &["commenteditor"],
        document: "mutation($c: ID!) { removeComment(commentId: $c) { id } }",
        variables: json!({"c": comment_id}),
        expect: vixen_moderator,
    });

    let mut failures = Vec::new();
    for row in &matrix {
        // The owner last, so that a refusal is checked while the resource is as created.
        let order = CALLERS.iter().filter(|c| **c != Caller::Owner).chain([&Caller::Owner]);
        for caller in order {
            let (host, token) = env.caller(&people, row.owner, *caller, row.right);
            let body = env.ask(host, token.as_deref(), row.document, &row.variables).await;
            let (got, want) = (answer_of(&body), (row.expect)(*caller));
            if got != want {
                failures.push(format!("{} × {caller:?}: {got:?}, expected {want:?}: {}", row.operation, short(&body)));
            }
        }
    }
    assert!(failures.is_empty(), "{} holes:\n{}", failures.len(), failures.join("\n"));

    // Through tushy's host, vixen's video is unknown.
    let access = "query($v: ID!) { videoAccess(videoIds: [$v]) { videoId } }";
    let tushy = env.stack.token(people.member, TUSHY, &[]);
    let body = env.ask(TUSHY, Some(&tushy), access, &json!({"v": video})).await;
    assert_eq!(body["data"]["videoAccess"], json!([]), "{}", short(&body));

    // Refused calls recorded nothing: the deal has the owner's edit only, once; one pin; one
    // pack unlock; one video unlock.
    let deals = env.stack.deals.as_ref().unwrap();
    assert_eq!(deals.scalar("select count(*) from event where event_type = 'DealEdited'").await, 1);
    assert_eq!(env.stack.catalog.scalar("select count(*) from event where event_type = 'CommentPinned'").await, 1);
    env.stack.cleanup().await;
}
