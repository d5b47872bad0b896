//! Visitors' answers over real HTTP, with the real catalog, its relay and RabbitMQ: a GET of a
//! persisted query is kept, public and revalidated by its ETag; a member's never is; and a
//! comment posted through one gateway replica changes the other replica's kept answer within
//! a second.

mod support;

use std::time::{Duration, Instant};

use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use serde_json::{json, Value};
use support::{
    codes, persisted_get, registered,
    stack::{Options, Stack},
    Gateway,
};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const PRIVATE: &str = "private, no-store";

async fn stack() -> Stack {
    Stack::start(Options { seed_catalog: true, follow_answers: true, ..Default::default() }).await
}

async fn some_video(stack: &Stack) -> (String, String) {
    sqlx::query_as(
        "select video_id::text, slug from video where site = 'vixen' and published and channel_id is null \
         order by slug limit 1",
    )
    .fetch_one(&stack.catalog.pool)
    .await
    .unwrap()
}

fn comments_query(video: &str) -> String {
    let (hash, _) = registered("VideoComments");
    persisted_get("VideoComments", &hash, &json!({ "videoId": video, "size": 10, "sort": "newest" }))
}

fn cache_control(headers: &reqwest::header::HeaderMap) -> &str {
    headers.get("cache-control").and_then(|v| v.to_str().ok()).unwrap_or("")
}

#[tokio::test]
async fn every_root_query_field_is_shared_or_private_and_no_other_name_is_listed() {
    let schema = gateway::graphql::schema(None, true);
    let answer = schema.execute("{ __type(name: \"QueryRoot\") { fields { name } } }").await.data.into_json().unwrap();
    let fields: Vec<String> =
        answer["__type"]["fields"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_owned()).collect();
    assert!(fields.len() > 40, "{fields:?}");
    let (shared, private) = (gateway::answers::SHARED_FIELDS, gateway::answers::PRIVATE_FIELDS);
    for field in &fields {
        let listed = shared.contains(&field.as_str()) as u8 + private.contains(&field.as_str()) as u8;
        assert_eq!(listed, 1, "the root field {field} must be in exactly one of SHARED_FIELDS and PRIVATE_FIELDS");
    }
    for name in shared.iter().chain(private) {
        assert!(fields.iter().any(|f| f == name), "{name} is listed but the schema has no such root field");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_visitors_get_is_kept_public_and_revalidated_by_its_etag() {
    let s = stack().await;
    let (video, _) = some_video(&s).await;
    let query = comments_query(&video);
    let calls_before = s.calls.lock().unwrap().len();
    let (status, headers, first) = s.gw.get(VIXEN, &query, true, None).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert!(first["errors"].is_null(), "{first}");
    assert!(cache_control(&headers).starts_with("public, max-age="), "{headers:?}");
    assert!(!cache_control(&headers).contains("stale-while-revalidate"), "a browser revalidates: {headers:?}");
    assert!(headers["cdn-cache-control"].to_str().unwrap().contains("stale-while-revalidate=30"), "{headers:?}");
    assert_eq!(headers["vary"], "cookie");
    assert_eq!(headers["surrogate-key"], "paysite-graphql paysite-graphql-vixen");
    let etag = headers["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with("W/\""), "{etag}");
    let asked = s.calls.lock().unwrap().len() - calls_before;
    assert!(asked >= 1, "the first answer asked the catalog");

    // Again: the same bytes, and the catalog is not asked.
    let (_, again_headers, again) = s.gw.get(VIXEN, &query, true, None).await;
    assert_eq!(again, first);
    assert_eq!(again_headers["etag"].to_str().unwrap(), etag);
    assert_eq!(s.calls.lock().unwrap().len() - calls_before, asked, "served from the kept answer");

    // Revalidated: 304, no body.
    let response =
        s.gw.client
            .get(format!("{}/graphql?{query}", s.gw.base))
            .header("host", VIXEN)
            .header("x-paysite-csrf", "1")
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(response.headers()["etag"].to_str().unwrap(), etag);
    assert!(response.bytes().await.unwrap().is_empty());

    // A member asking the same URL gets their own answer, for nobody else.
    let member = Uuid::now_v7();
    s.member(member, &["vixen"], MembershipKind::Member, false).await;
    let token = s.token(member, VIXEN, &[]);
    let (_, headers, _) = s.gw.get(VIXEN, &query, true, Some(&token)).await;
    assert_eq!(cache_control(&headers), PRIVATE);
    assert!(headers.get("etag").is_none() && headers.get("surrogate-key").is_none(), "{headers:?}");
    s.cleanup().await;
}

/// Every query the front end is built with, asked as a member and as a visitor: a member's
/// answer is never public; a visitor's is public only when the engine answered it cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_signed_in_answer_is_never_public() {
    let s = stack().await;
    let (video, slug) = some_video(&s).await;
    let member = Uuid::now_v7();
    s.member(member, &["vixen"], MembershipKind::Member, false).await;
    let token = s.token(member, VIXEN, &[]);
    let manifest: std::collections::HashMap<String, String> =
        serde_json::from_str(include_str!("../../frontend/src/gql/persisted-documents.json")).unwrap();
    let variables = json!({
        "videoId": video, "videoSlug": slug, "videoIds": [video], "size": 5, "page": 1, "first": 5, "limit": 5,
        "sort": "newest", "relatedCount": 4, "freeTrial": false, "latestSize": 4, "shelfSize": 4, "q": "a",
        "gender": "female", "order": "popular", "brand": "tushy", "carouselLimit": 3, "listingLimit": 3,
        "kind": "VIDEO", "slug": "x", "site": "vixen", "memberId": "1", "hashedMemberId": "1",
        "channelSlug": "x", "channelPackSlug": "x", "uuid": Uuid::nil(), "commentId": Uuid::nil()
    });
    let mut public = 0;
    let mut queries = 0;
    for (hash, text) in &manifest {
        let Some(name) = text
            .split("query ")
            .nth(1)
            .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
        else {
            continue;
        };
        if text.contains(&format!("mutation {name}")) || name.is_empty() {
            continue;
        }
        queries += 1;
        let query = persisted_get(&name, hash, &variables);
        let (status, headers, body) = s.gw.get(VIXEN, &query, true, Some(&token)).await;
        assert_eq!(cache_control(&headers), PRIVATE, "{name} as a member: {status} {body}");
        let members_host = "members.localhost:8080";
        let (_, headers, _) = s.gw.get(members_host, &query, true, None).await;
        assert_eq!(cache_control(&headers), PRIVATE, "{name} on the members host");
        let (_, headers, body) = s.gw.get(VIXEN, &query, true, None).await;
        if cache_control(&headers).starts_with("public") {
            public += 1;
            assert!(body["errors"].is_null(), "{name} is public with errors: {body}");
        } else {
            assert_eq!(cache_control(&headers), PRIVATE, "{name} as a visitor");
        }
    }
    assert!(queries > 40, "{queries}");
    assert!(public >= 10, "only {public} of {queries} visitor queries were public");
    s.cleanup().await;
}

async fn until_changed(gw: &Gateway, query: &str, before: &Value, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let (_, _, now) = gw.get(VIXEN, query, true, None).await;
        if &now != before {
            return started.elapsed();
        }
        assert!(started.elapsed() < within, "the answer did not change within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_comment_posted_through_one_replica_changes_the_others_kept_answer_within_a_second() {
    let s = stack().await;
    let other = s.replica().await;
    let (video, _) = some_video(&s).await;
    let query = comments_query(&video);
    let (_, headers, before) = other.get(VIXEN, &query, true, None).await;
    assert!(cache_control(&headers).starts_with("public"), "{headers:?} {before}");
    let (_, _, kept) = other.get(VIXEN, &query, true, None).await;
    assert_eq!(kept, before);
    assert!(other.state.answers.size().0 >= 1, "the replica keeps the answer");

    let author = Uuid::now_v7();
    s.member(author, &["vixen"], MembershipKind::Member, false).await;
    let (add, _) = registered("AddComment");
    let extensions = json!({ "persistedQuery": { "version": 1, "sha256Hash": add } });
    let text = format!("A calm scene, posted at {}.", Uuid::now_v7());
    let (status, posted) = s
        .gw
        .post(
            VIXEN,
            json!({ "operationName": "AddComment", "variables": { "videoId": video, "text": text }, "extensions": extensions }),
            Some(&s.token(author, VIXEN, &[])),
        )
        .await;
    assert!(status == StatusCode::OK && codes(&posted).is_empty(), "{posted}");
    let took = until_changed(&other, &query, &before, Duration::from_secs(1)).await;
    println!("the other replica's answer changed {took:?} after the comment");
    let (_, _, after) = other.get(VIXEN, &query, true, None).await;
    assert!(after.to_string().contains(&text), "{after}");
    s.cleanup().await;
}
