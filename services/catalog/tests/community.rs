//! Comments, ratings, expert reviews, favourites and the tracking calls, over HTTP with
//! signed member tokens: the spec's messages, and moderator-only actions refused to others.

mod support;

use catalog::api::{ExpertReviewRequest, RecommendationTrackingRequest, ReelTrackingRequest};
use catalog::client::{Paging, VideoListParams};
use reqwest::StatusCode;
use runtime::client::UpstreamError;
use support::TestEnv;
use uuid::Uuid;

fn refused(e: UpstreamError) -> (StatusCode, String, String) {
    match e {
        UpstreamError::Refused { status, code, message, .. } => (StatusCode::from_u16(status).unwrap(), code, message),
        other => panic!("not an answer: {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comments_replies_votes_and_moderation() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let videos = c.videos(&env.visitor("vixen"), &VideoListParams::default()).await.unwrap().videos;
    let video = videos.into_iter().find(|v| v.site == "vixen").expect("a vixen video");
    let (alice, bob, editor, admin) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let a = env.member("vixen", alice, &[]);
    let b = env.member("vixen", bob, &[]);
    let ed = env.member("vixen", editor, &["commenteditor"]);
    let ad = env.member("vixen", admin, &["admin"]);

    // Anonymous visitors read but do not write.
    let e = c.add_comment(&env.visitor("vixen"), video.uuid, "Hello").await.unwrap_err();
    assert_eq!(refused(e).0, StatusCode::UNAUTHORIZED);

    let first = c.add_comment(&a, video.uuid, "Lovely light in this one.").await.unwrap();
    assert_eq!(first.author_name.as_deref(), Some(&*format!("member{}", &alice.simple().to_string()[..6])));
    let e = c.add_comment(&a, video.uuid, "  lovely LIGHT in   this one. ").await.unwrap_err();
    assert_eq!(
        refused(e),
        (StatusCode::CONFLICT, "DUPLICATE_COMMENT".into(), "You have already made that comment".into())
    );
    // Someone else may say the same.
    c.add_comment(&b, video.uuid, "Lovely light in this one.").await.unwrap();
    let e = c.add_comment(&a, video.uuid, "Visit my casino now").await.unwrap_err();
    assert_eq!(refused(e), (StatusCode::UNPROCESSABLE_ENTITY, "BANNED_WORD".into(), "Found banned word".into()));
    let e = c.add_comment(&a, video.uuid, "   ").await.unwrap_err();
    assert_eq!(refused(e).0, StatusCode::UNPROCESSABLE_ENTITY);
    let e = c.add_comment(&a, Uuid::now_v7(), "Nice").await.unwrap_err();
    assert_eq!(refused(e).0, StatusCode::NOT_FOUND);

    // Replies, and no reply to a reply.
    let answer = c.reply(&b, first.id, "Agreed, the colours are great.").await.unwrap();
    assert_eq!(answer.parent_id, Some(first.id));
    let e = c.reply(&a, answer.id, "Thanks!").await.unwrap_err();
    assert_eq!(refused(e).0, StatusCode::UNPROCESSABLE_ENTITY);
    let replies = c.replies(&a, first.id, None, 10).await.unwrap();
    assert_eq!(replies.comments.iter().map(|r| r.id).collect::<Vec<_>>(), vec![answer.id]);

    // Votes: once per member.
    let liked = c.vote(&b, first.id, "like").await.unwrap();
    assert_eq!((liked.likes, liked.user_vote.as_deref()), (1, Some("like")));
    let e = c.vote(&b, first.id, "like").await.unwrap_err();
    assert_eq!(
        refused(e),
        (StatusCode::CONFLICT, "ALREADY_LIKED".into(), "You have already liked this comment".into())
    );
    c.vote(&a, answer.id, "dislike").await.unwrap();
    let e = c.vote(&a, answer.id, "like").await.unwrap_err();
    assert_eq!(refused(e).1, "ALREADY_DISLIKED");
    assert_eq!(refused(c.vote(&a, first.id, "meh").await.unwrap_err()).0, StatusCode::UNPROCESSABLE_ENTITY);

    // Sort and load more.
    for i in 0..5 {
        c.add_comment(&a, video.uuid, &format!("Comment number {i}")).await.unwrap();
    }
    let top = c.comments(&a, video.uuid, "top", None, 3).await.unwrap();
    assert_eq!(top.total_count, 7);
    assert_eq!(top.comments[0].id, first.id, "the liked one first");
    let more = c.comments(&a, video.uuid, "top", top.next_cursor.as_deref(), 3).await.unwrap();
    let rest = c.comments(&a, video.uuid, "top", more.next_cursor.as_deref(), 3).await.unwrap();
    assert_eq!(rest.comments.len(), 1);
    assert!(rest.next_cursor.is_none());
    let newest = c.comments(&a, video.uuid, "newest", None, 10).await.unwrap();
    assert!(newest.comments.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    assert_eq!(
        refused(c.comments(&a, video.uuid, "random", None, 3).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // Moderation: members are refused; commenteditor and admin may.
    let last = newest.comments.last().unwrap().id;
    for e in [
        c.pin(&a, last).await.unwrap_err(),
        c.unpin(&a, last).await.unwrap_err(),
        c.remove_comment(&b, last).await.unwrap_err(),
    ] {
        assert_eq!(refused(e).1, "FORBIDDEN");
    }
    // A moderator of another brand moderates that brand only: tushy's admin and comment editor
    // are refused on a vixen video's comments.
    let tushy_editor = env.member("tushy", Uuid::now_v7(), &["commenteditor"]);
    let tushy_admin = env.member("tushy", Uuid::now_v7(), &["admin"]);
    for e in [
        c.pin(&tushy_editor, last).await.unwrap_err(),
        c.unpin(&tushy_admin, last).await.unwrap_err(),
        c.remove_comment(&tushy_admin, last).await.unwrap_err(),
    ] {
        assert_eq!(refused(e).1, "FORBIDDEN");
    }
    let pinned = c.pin(&ed, last).await.unwrap();
    assert!(pinned.pinned);
    let newest = c.comments(&a, video.uuid, "newest", None, 10).await.unwrap();
    assert_eq!(newest.comments[0].id, last, "pinned first");
    assert!(!c.unpin(&ad, last).await.unwrap().pinned);
    assert_eq!(
        refused(c.pin(&ed, answer.id).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY,
        "replies are not pinned"
    );
    c.remove_comment(&ad, first.id).await.unwrap();
    assert_eq!(c.comments(&a, video.uuid, "newest", None, 10).await.unwrap().total_count, 6);
    assert_eq!(refused(c.vote(&b, first.id, "dislike").await.unwrap_err()).0, StatusCode::NOT_FOUND);
    // Removed, the comment may be made again.
    c.add_comment(&a, video.uuid, "Lovely light in this one.").await.unwrap();
    let detail = c.video(&env.visitor("vixen"), &video.slug, 0, false).await.unwrap();
    assert_eq!(detail.comment_count, 8, "7 comments and 1 reply, one removed, one added again");
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_and_the_expert_review() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let video = c.videos(&env.visitor("vixen"), &VideoListParams::default()).await.unwrap().videos[0].clone();
    let user = Uuid::now_v7();
    let m = env.member("vixen", user, &[]);

    let review = c.expert_review(&m, video.uuid).await.unwrap();
    assert_eq!(review.user_video_ratings.rating, -1);
    assert_eq!(review.expert_review.properties.len(), 8);
    assert!(review.expert_review.properties.iter().all(|p| p.rating == -1));

    let ask = |kind: &str, slug: Option<&str>, rating: i64| ExpertReviewRequest {
        video_id: video.uuid,
        slug: slug.map(str::to_owned),
        kind: kind.into(),
        rating,
        recomm_id: Some("rc-test".into()),
    };
    let e = c.update_expert_review(&m, &ask("property", Some("lighting"), 4)).await.unwrap_err();
    assert_eq!(
        refused(e),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "OVERALL_RATING_FIRST".into(),
            "Oops! Please leave your overall rating first to continue".into()
        )
    );
    assert_eq!(refused(c.rate(&m, video.uuid, 11, None).await.unwrap_err()).1, "RATING_OUT_OF_RANGE");
    assert_eq!(refused(c.rate(&m, video.uuid, 0, None).await.unwrap_err()).1, "RATING_OUT_OF_RANGE");
    let before: (i64, i64) = sqlx::query_as("select rating_sum, rating_count from video where video_id = $1")
        .bind(video.uuid)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    let rated = c.rate(&m, video.uuid, 10, None).await.unwrap();
    assert_eq!(rated.user_video_ratings.rating, 10);
    let expected = (before.0 + 10) as f64 / (before.1 + 1) as f64;
    assert!((rated.video_rating - (expected * 10.0).round() / 10.0).abs() < 1e-9);
    let e = c.rate(&m, video.uuid, 7, None).await.unwrap_err();
    assert_eq!(refused(e), (StatusCode::CONFLICT, "ALREADY_RATED".into(), "You have already rated".into()));
    assert_eq!(c.video(&m, &video.slug, 0, false).await.unwrap().user_rating, 10);

    let answer = c.update_expert_review(&m, &ask("property", Some("lighting"), 4)).await.unwrap();
    let lighting = answer.expert_review.properties.iter().find(|p| p.slug == "lighting").unwrap();
    assert_eq!(lighting.rating, 4);
    assert_eq!(
        refused(c.update_expert_review(&m, &ask("property", Some("lighting"), 6)).await.unwrap_err()).1,
        "RATING_OUT_OF_RANGE"
    );
    assert_eq!(
        refused(c.update_expert_review(&m, &ask("property", Some("colour"), 3)).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let performer = &video.performers[0];
    let answer = c.update_expert_review(&m, &ask("model", Some(&performer.slug), 5)).await.unwrap();
    assert_eq!(answer.expert_review.models.iter().find(|x| x.slug == performer.slug).unwrap().rating, 5);
    assert_eq!(
        refused(c.update_expert_review(&m, &ask("model", Some("someone-else"), 5)).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // The global rating changes the overall one.
    let answer = c.update_expert_review(&m, &ask("global", None, 8)).await.unwrap();
    assert_eq!((answer.expert_review.global, answer.user_video_ratings.rating), (8, 8));
    assert_eq!(
        refused(c.update_expert_review(&m, &ask("global", None, 11)).await.unwrap_err()).1,
        "RATING_OUT_OF_RANGE"
    );
    assert_eq!(
        refused(c.update_expert_review(&m, &ask("stars", None, 3)).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A global expert rating first also counts as the overall rating.
    let other = c.videos(&env.visitor("vixen"), &VideoListParams::default()).await.unwrap().videos[1].clone();
    let first_global =
        ExpertReviewRequest { video_id: other.uuid, slug: None, kind: "global".into(), rating: 9, recomm_id: None };
    c.update_expert_review(&m, &first_global).await.unwrap();
    assert_eq!(refused(c.rate(&m, other.uuid, 3, None).await.unwrap_err()).1, "ALREADY_RATED");
    assert_eq!(
        refused(c.rate(&env.visitor("vixen"), other.uuid, 3, None).await.unwrap_err()).0,
        StatusCode::UNAUTHORIZED
    );
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn favourites_in_batches_and_tracking() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let user = Uuid::now_v7();
    let m = env.member("vixen", user, &[]);
    let videos = c.videos(&vixen, &VideoListParams { size: Some(100), ..Default::default() }).await.unwrap().videos;
    for v in videos.iter().take(30) {
        assert!(c.add_favourite(&m, "video", v.uuid).await.unwrap().favourite);
    }
    // Adding again changes nothing.
    c.add_favourite(&m, "videos", videos[0].uuid).await.unwrap();
    let page = c.favourites(&m, "video", &Paging { page: Some(1), size: Some(12) }).await.unwrap();
    assert_eq!((page.total_count, page.videos.len()), (30, 12));
    assert_eq!(page.videos[0].uuid, videos[29].uuid, "most recent first");
    let ids = c.favourite_ids(&m, "video", 1).await.unwrap();
    assert_eq!(ids.ids.len(), 30);
    let asked: Vec<Uuid> = videos.iter().take(40).map(|v| v.uuid).collect();
    let among = c.favourites_among(&m, "video", &asked).await.unwrap();
    assert_eq!(among.ids.len(), 30);
    let too_many: Vec<Uuid> = (0..101).map(|_| Uuid::now_v7()).collect();
    assert_eq!(
        refused(c.favourites_among(&m, "video", &too_many).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert!(!c.remove_favourite(&m, "video", videos[0].uuid).await.unwrap().favourite);
    assert_eq!(c.favourite_ids(&m, "video", 1).await.unwrap().total_count, 29);

    let performer = &videos[0].performers[0];
    c.add_favourite(&m, "performer", performer.id).await.unwrap();
    let channel = c.channel(&vixen, "harbor-films").await.unwrap();
    c.add_favourite(&m, "channel", channel.channel_id).await.unwrap();
    assert_eq!(c.favourites(&m, "performers", &Paging::default()).await.unwrap().performers[0].id, performer.id);
    assert_eq!(
        c.favourites(&m, "channels", &Paging::default()).await.unwrap().channels[0].channel_id,
        channel.channel_id
    );
    assert_eq!(refused(c.add_favourite(&m, "video", Uuid::now_v7()).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    assert_eq!(
        refused(c.add_favourite(&m, "song", Uuid::now_v7()).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        refused(c.favourites(&vixen, "video", &Paging::default()).await.unwrap_err()).0,
        StatusCode::UNAUTHORIZED
    );
    // Another member sees none of it.
    let other = env.member("vixen", Uuid::now_v7(), &[]);
    assert_eq!(c.favourite_ids(&other, "video", 1).await.unwrap().total_count, 0);

    // Recommendation clicks and reels tracking.
    let shelf = c.recommendations(&m, "HOME_RECOMMENDATIONS", None, 6, false, &[]).await.unwrap();
    let click = RecommendationTrackingRequest {
        email: Some("member@example.test".into()),
        user_id: Some(user),
        element_clicked: "video-card".into(),
        recomm_id: shelf.recomm_id.clone(),
    };
    assert!(c.track_recommendation(&m, &click).await.unwrap().success);
    let clicks: i64 =
        env.scalar(&format!("select count(*) from recommendation_click where recomm_id = '{}'", shelf.recomm_id)).await;
    assert_eq!(clicks, 1);
    let someone_else = RecommendationTrackingRequest { user_id: Some(Uuid::now_v7()), ..click };
    assert_eq!(refused(c.track_recommendation(&m, &someone_else).await.unwrap_err()).0, StatusCode::FORBIDDEN);

    let reel = c.reels(&vixen, &Paging::default()).await.unwrap().reels[0].clone();
    let track = |rating: Option<i64>| ReelTrackingRequest {
        email: None,
        user_id: Some(user),
        timestamp: Some(chrono::Utc::now()),
        item_id: reel.uuid,
        recomm_id: Some(shelf.recomm_id.clone()),
        rating,
    };
    for action in ["view", "view", "add-bookmark", "add-bookmark", "purchase"] {
        c.track_reel(&m, action, &track(None)).await.unwrap();
    }
    c.track_reel(&m, "rating", &track(Some(9))).await.unwrap();
    assert_eq!(
        refused(c.track_reel(&m, "rating", &track(None)).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(refused(c.track_reel(&m, "share", &track(None)).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    let seen = c.reel(&m, reel.uuid).await.unwrap();
    assert_eq!((seen.views, seen.bookmarks, seen.bookmarked), (2, 1, true));
    c.track_reel(&m, "delete-bookmark", &track(None)).await.unwrap();
    c.track_reel(&m, "delete-rating", &track(None)).await.unwrap();
    let seen = c.reel(&m, reel.uuid).await.unwrap();
    assert_eq!((seen.bookmarks, seen.bookmarked), (0, false));
    let events: i64 = env.scalar(&format!("select count(*) from event where stream_id = 'tracking-{user}'")).await;
    assert_eq!(events, 9);
    env.cleanup().await;
}
