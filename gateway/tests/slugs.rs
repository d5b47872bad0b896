//! A well-formed slug that names nothing the brand has is 404 with the SPA's page at the edge
//! (the catalog asked, one call, its answer kept a moment); what exists is 200; the permanent
//! moves stay 301 without asking anything.

mod support;

use reqwest::{header, redirect::Policy, StatusCode};
use support::stack::{Options, Stack};

const VIXEN: &str = "vixen.localhost:8080";

async fn first(stack: &Stack, sql: &str) -> String {
    sqlx::query_scalar(sql).fetch_one(&stack.catalog.pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slug_the_brand_does_not_have_is_404_and_one_it_has_is_200() {
    // The edge's own lookups are counted: the first screen's queries are not among them.
    let stack = Stack::start(Options {
        seed_catalog: true,
        with_deals: false,
        without_first_screen: true,
        ..Default::default()
    })
    .await;
    let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();
    // A member of the brand, whom no step of the route table stops (authenticated routes, channel abilities).
    let member = uuid::Uuid::now_v7();
    stack.member(member, &["vixen"], proto_events::subscription::MembershipKind::Member, false).await;
    let cookie = format!("paysite_at={}", stack.token(member, VIXEN, &[]));
    let get = |path: String| {
        let request =
            client.get(format!("{}{path}", stack.gw.base)).header(header::HOST, VIXEN).header(header::COOKIE, &cookie);
        async move { request.send().await.unwrap() }
    };

    let video = first(
        &stack,
        "select slug from video where site = 'vixen' and published and channel_id is null order by slug limit 1",
    )
    .await;
    let tushy_video =
        first(&stack, "select slug from video where site = 'tushy' and published order by slug limit 1").await;
    let performer = first(&stack, "select slug from performer order by slug limit 1").await;
    let (channel, pack): (String, String) = sqlx::query_as(
        "select c.slug, p.slug from channel c join channel_pack p using (channel_id) where 'vixen' = any(c.sites) \
         order by c.slug, p.slug limit 1",
    )
    .fetch_one(&stack.catalog.pool)
    .await
    .unwrap();
    let channel_video = first(
        &stack,
        &format!("select slug from video where published and channel_slug = '{channel}' order by slug limit 1"),
    )
    .await;
    let angel = first(&stack, "select slug from angel where 'vixen' = any(sites) order by slug limit 1").await;
    let showcase = first(&stack, "select slug from showcase where 'vixen' = any(sites) order by slug limit 1").await;

    let found = [
        format!("/videos/{video}"),
        format!("/videos/{video}/comment/some-comment"),
        format!("/trailer/{video}"),
        format!("/pictureset/{video}"),
        format!("/performers/{performer}"),
        format!("/channels/{channel}"),
        format!("/channels/{channel}/videos"),
        format!("/channels/{channel}/packs/{pack}"),
        format!("/channels/{channel}/videos/{channel_video}"),
        format!("/channels/{channel}/trailers/{channel_video}"),
        format!("/channels/{channel}/picturesets/{channel_video}"),
        format!("/angels/{angel}"),
        format!("/showcase/{showcase}"),
    ];
    for path in &found {
        let response = get(path.clone()).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    let missing = [
        "/videos/some-valid-looking-slug".to_owned(),
        "/videos/some-valid-looking-slug/comment/1".to_owned(),
        "/trailer/some-valid-looking-slug".to_owned(),
        "/pictureset/some-valid-looking-slug".to_owned(),
        // Another brand's video is not this brand's.
        format!("/videos/{tushy_video}"),
        "/performers/x".to_owned(),
        "/channels/x".to_owned(),
        "/channels/x/videos".to_owned(),
        format!("/channels/{channel}/packs/x"),
        // A video of the brand, but not in that channel.
        format!("/channels/{channel}/videos/{video}"),
        format!("/channels/{channel}/trailers/x"),
        "/angels/x".to_owned(),
        "/showcase/x".to_owned(),
    ];
    for path in &missing {
        let response = get(path.clone()).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(response.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{path}");
        let page = response.text().await.unwrap();
        assert!(page.contains("<script id=\"paysite-bootstrap\""), "the SPA's page, which shows not-found: {path}");
    }

    // One call per lookup, then the answer is kept: asking again costs the catalog nothing.
    stack.take_calls();
    for path in [format!("/videos/{video}"), "/videos/some-valid-looking-slug".to_owned()] {
        get(path).await;
    }
    assert!(stack.take_calls().is_empty(), "answers are kept a moment");
    get("/videos/another-valid-looking-slug".to_owned()).await;
    assert_eq!(stack.take_calls(), ["GET /internal/videos/by-slug/another-valid-looking-slug"]);

    // The moves stay moves, the malformed stay 404, and neither asks the catalog.
    let moved = get("/models/x".to_owned()).await;
    assert_eq!(moved.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(moved.headers()[header::LOCATION], "/performers/x");
    assert_eq!(get("/videos/Not_A_Slug".to_owned()).await.status(), StatusCode::NOT_FOUND);
    assert!(stack.take_calls().is_empty());
    stack.cleanup().await;
}
