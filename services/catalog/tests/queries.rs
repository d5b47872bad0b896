//! Every catalog query against the seeded demo catalog, through the typed client over HTTP:
//! pagination bounds, filters, orders and empty results.

mod support;

use catalog::client::{AwardedParams, FreeTrialParams, Paging, PerformerListParams, VideoListParams};
use reqwest::StatusCode;
use runtime::client::{CallContext, UpstreamError};
use runtime::testing::ServiceAuth;
use support::TestEnv;

fn status(e: UpstreamError) -> (StatusCode, String) {
    (StatusCode::from_u16(e.status().unwrap()).unwrap(), e.code().to_owned())
}

fn skip(skip: i64, first: i64) -> AwardedParams {
    AwardedParams { skip: Some(skip), first: Some(first), ..Default::default() }
}

fn page(page: i64, first: i64) -> AwardedParams {
    AwardedParams { page: Some(page), first: Some(first), ..Default::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn video_listings_page_order_filter_and_count() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");

    let first = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_eq!((first.page, first.size, first.videos.len()), (1, 12, 12));
    let on_site: i64 = env.scalar("select count(*) from video where site = 'vixen' and published").await;
    assert_eq!(first.total_count, on_site);
    assert!(first.videos.iter().all(|v| v.site == "vixen"));
    assert!(first.videos.windows(2).all(|w| w[0].release_date >= w[1].release_date), "newest first");
    let v = &first.videos[0];
    assert!(!v.performers.is_empty() && !v.categories.is_empty() && !v.new_id.is_empty());
    assert!(v.images.poster.src.starts_with("/media/placeholder/video/"));

    assert!(first.performers.is_empty(), "the performers' cards only when asked");

    // Asked for, the page brings its performers' whole cards, as the batch answers them.
    let cards = VideoListParams { performer_cards: true, ..Default::default() };
    let with_cards = c.videos(&vixen, &cards).await.unwrap();
    assert_eq!(with_cards.videos, first.videos);
    let mut ids: Vec<_> = first.videos.iter().flat_map(|v| v.performers.iter().map(|p| p.id)).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(with_cards.performers, c.performers_by(&vixen, &ids, &[]).await.unwrap());

    // The last page is partial, the one after is empty but still counted.
    let last_page = (on_site + 11) / 12;
    let last = c.videos(&vixen, &VideoListParams { page: Some(last_page), ..Default::default() }).await.unwrap();
    assert_eq!(last.videos.len() as i64, on_site - (last_page - 1) * 12);
    let past = c.videos(&vixen, &VideoListParams { page: Some(last_page + 1), ..Default::default() }).await.unwrap();
    assert!(past.videos.is_empty());
    assert_eq!(past.total_count, on_site);

    // Bounds.
    for params in [
        VideoListParams { page: Some(0), ..Default::default() },
        VideoListParams { page: Some(2_147_483_648), ..Default::default() },
        VideoListParams { size: Some(0), ..Default::default() },
        VideoListParams { size: Some(101), ..Default::default() },
        VideoListParams { order: Some("sideways".into()), ..Default::default() },
    ] {
        let e = c.videos(&vixen, &params).await.unwrap_err();
        assert_eq!(status(e), (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_REQUEST".into()), "{params:?}");
    }
    let e = c.videos(&CallContext::default(), &VideoListParams::default()).await.unwrap_err();
    assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY, "a site is needed");

    // Top rated and the rating order.
    let top = c.top_rated(&vixen, &Paging { size: Some(30), ..Default::default() }).await.unwrap();
    assert!(top.videos.windows(2).all(|w| w[0].rating >= w[1].rating));
    assert!(top.videos[0].rating > 0.0);

    // Categories: faceted (`Big Scene` as typed), and several at once.
    let big = c
        .videos(&vixen, &VideoListParams { categories: Some("Big Scene".into()), ..Default::default() })
        .await
        .unwrap();
    assert!(big.total_count > 0);
    assert!(big.videos.iter().all(|v| v.categories.iter().any(|c| c.slug == "big-scene")));
    let counted: i64 = env
        .scalar(
            "select count(*) from video where site = 'vixen' and published and category_slugs @> array['big-scene']",
        )
        .await;
    assert_eq!(big.total_count, counted);
    let two = c
        .videos(&vixen, &VideoListParams { categories: Some("big-scene,romantic".into()), ..Default::default() })
        .await
        .unwrap();
    assert!(two.total_count <= big.total_count);
    assert!(two.videos.iter().all(|v| v.categories.iter().any(|c| c.slug == "romantic")));
    let none = c
        .videos(&vixen, &VideoListParams { categories: Some("no-such-thing".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!((none.videos.len(), none.total_count), (0, 0));

    // The combined brand lists every brand.
    let plus = c.videos(&env.visitor("vixenplus"), &VideoListParams::default()).await.unwrap();
    let brands: i64 = env.scalar("select count(*) from video where site <> 'channels' and published").await;
    assert_eq!(plus.total_count, brands);

    // Sister sites.
    let tushy = c.sister_videos(&vixen, "tushy", &Paging::default()).await.unwrap();
    assert!(tushy.videos.iter().all(|v| v.site == "tushy") && tushy.total_count > 0);
    let performers = c.sister_performers(&vixen, "tushy", &Paging::default()).await.unwrap();
    assert!(performers.performers.iter().all(|p| p.sites.contains(&"tushy".to_string())));
    assert_eq!(
        status(c.sister_videos(&vixen, "nowhere", &Paging::default()).await.unwrap_err()).0,
        StatusCode::NOT_FOUND
    );
    let resp = runtime::tls::client()
        .get(format!("{}/internal/sites/tushy/channels", env.base))
        .service_auth("catalog")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);

    // Batch by ids keeps the order asked and drops unknown ids.
    let ids = vec![first.videos[3].uuid, uuid::Uuid::now_v7(), first.videos[1].uuid];
    let batch = c.videos_by_ids(&vixen, &ids).await.unwrap();
    assert_eq!(batch.iter().map(|v| v.uuid).collect::<Vec<_>>(), vec![ids[0], ids[2]]);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_video_picture_set_awards_and_channels() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let page = c.videos(&vixen, &VideoListParams::default()).await.unwrap();

    let slug = &page.videos[0].slug;
    let detail = c.video(&vixen, slug, 6, false).await.unwrap();
    assert_eq!(&detail.video.slug, slug);
    assert_eq!(detail.user_rating, -1);
    assert!(detail.related.len() <= 6 && !detail.related.is_empty());
    assert!(detail.related.iter().all(|r| r.site == "vixen" && r.uuid != detail.video.uuid));
    let none = c.video(&vixen, slug, 0, false).await.unwrap();
    assert!(none.related.is_empty());
    assert_eq!(status(c.video(&vixen, "no-such-video", 3, false).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    assert_eq!(status(c.video(&vixen, "Bad_Slug", 3, false).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    assert_eq!(status(c.video(&vixen, slug, 101, false).await.unwrap_err()).0, StatusCode::UNPROCESSABLE_ENTITY);
    // A video of another brand is not found on this one.
    let tushy = c.videos(&env.visitor("tushy"), &VideoListParams::default()).await.unwrap();
    let only_tushy = tushy.videos.iter().find(|t| !page.videos.iter().any(|v| v.slug == t.slug)).unwrap();
    let other: i64 =
        env.scalar(&format!("select count(*) from video where site = 'vixen' and slug = '{}'", only_tushy.slug)).await;
    if other == 0 {
        assert_eq!(status(c.video(&vixen, &only_tushy.slug, 0, false).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    }

    // Picture sets: every image in its sizes.
    let with_set: String = sqlx::query_scalar(
        "select v.slug from video v join picture_set p using (video_id) where v.site = 'vixen' order by v.slug limit 1",
    )
    .fetch_one(&env.pool)
    .await
    .unwrap();
    let set = c.picture_set(&vixen, &with_set).await.unwrap();
    assert!(set.images.len() >= 8);
    let image = &set.images[0];
    assert!(image.width > 0 && image.height > 0 && image.file_extensions == vec!["svg".to_string()]);
    assert!(image.highdpi.double.contains(&format!("w={}", image.width * 2)));
    assert!(image.highdpi.triple.contains(&format!("h={}", image.height * 3)));
    let without: String = sqlx::query_scalar(
        "select v.slug from video v where v.site = 'vixen' and not exists (select 1 from picture_set p where p.video_id = v.video_id) limit 1",
    )
    .fetch_one(&env.pool)
    .await
    .unwrap();
    assert_eq!(status(c.picture_set(&vixen, &without).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    // The placeholder itself.
    let svg = runtime::tls::client().get(format!("{}{}", env.base, image.src)).send().await.unwrap();
    assert_eq!(svg.status(), StatusCode::OK);
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(svg.text().await.unwrap().starts_with("<svg"));

    // Awards: award = 1 only, newest first, with the total; skip and first bounds.
    let awarded = c.awarded_videos(&vixen, &skip(0, 5)).await.unwrap();
    let total: i64 = env.scalar("select count(*) from video where site = 'vixen' and published and award = 1").await;
    assert_eq!(awarded.total_count, total);
    assert!(awarded.videos.iter().all(|v| v.award == 1));
    assert!(awarded.videos.windows(2).all(|w| w[0].release_date >= w[1].release_date));
    let skipped = c.awarded_videos(&vixen, &skip(total, 5)).await.unwrap();
    assert!(skipped.videos.is_empty());
    assert_eq!(status(c.awarded_videos(&vixen, &skip(-1, 5)).await.unwrap_err()).0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(status(c.awarded_videos(&vixen, &skip(0, 0)).await.unwrap_err()).0, StatusCode::UNPROCESSABLE_ENTITY);

    // Channels with packs; the widget's last 6; channels a brand does not carry are not found.
    let channels = c.channels(&vixen, &Paging::default()).await.unwrap();
    assert_eq!(channels.total_count, 8);
    let btl = channels.channels.iter().find(|ch| ch.slug == "behind-the-lens").unwrap();
    assert_eq!(btl.category.as_deref(), Some("Behind The Scenes"));
    assert!(!btl.packs.is_empty() && !btl.is_third_party);
    let latest = c.channel_videos(&vixen, "behind-the-lens").await.unwrap();
    assert_eq!(latest.len(), 6);
    assert!(latest.iter().all(|v| v.site == "channels" && v.channel.as_ref().unwrap().slug == "behind-the-lens"));
    assert!(latest.windows(2).all(|w| w[0].release_date >= w[1].release_date));
    assert!(latest.iter().all(|v| v.channel.as_ref().unwrap().channel_pack_id.is_some()));
    // A channel's video opens on the brands that carry the channel, and no other.
    let found = c.video(&vixen, &latest[0].slug, 0, false).await.unwrap();
    assert_eq!(found.video.uuid, latest[0].uuid);
    assert_eq!(
        status(c.video(&env.visitor("slayed"), &latest[0].slug, 0, false).await.unwrap_err()).0,
        StatusCode::NOT_FOUND
    );
    let pack = &btl.packs[0];
    let pack_page = c.channel_pack(&vixen, "behind-the-lens", &pack.slug, &Paging::default()).await.unwrap();
    assert_eq!(pack_page.videos.total_count, pack.video_ids.len() as i64);
    assert!(pack_page.videos.videos.iter().all(|v| pack.video_ids.contains(&v.uuid)));
    assert_eq!(
        status(c.channel(&env.visitor("slayed"), "behind-the-lens").await.unwrap_err()).0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(status(c.channel(&vixen, "no-such-channel").await.unwrap_err()).0, StatusCode::NOT_FOUND);
    let all = c.all_channel_videos(&vixen, &Paging::default()).await.unwrap();
    assert_eq!(all.total_count, env.scalar("select count(*) from video where site = 'channels'").await);
    let by_id = c.channels_by(&vixen, &[btl.channel_id], &["harbor-films".into()]).await.unwrap();
    assert_eq!(by_id.len(), 2);
    let listed =
        c.channel_video_page(&vixen, "harbor-films", &Paging { size: Some(3), ..Default::default() }).await.unwrap();
    assert!(listed.videos.iter().all(|v| v.is_third_party_channel));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn performers_categories_filters_and_search() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");

    // Performers: girls and rating order by default.
    let girls = c.performers(&vixen, &PerformerListParams::default()).await.unwrap();
    assert!(girls.total_count > 0);
    assert!(girls
        .performers
        .iter()
        .all(|p| p.gender == "girls" && p.sex == "F" && p.sites.contains(&"vixen".to_string())));
    assert!(girls.performers.windows(2).all(|w| w[0].rating >= w[1].rating));
    let guys =
        c.performers(&vixen, &PerformerListParams { gender: Some("guys".into()), ..Default::default() }).await.unwrap();
    assert!(guys.performers.iter().all(|p| p.sex == "M"));
    let sex_f = c
        .performers(
            &vixen,
            &PerformerListParams { sex: Some("F".into()), order: Some("name".into()), ..Default::default() },
        )
        .await
        .unwrap();
    assert!(sex_f.performers.windows(2).all(|w| w[0].name <= w[1].name));
    for bad in [
        PerformerListParams { gender: Some("robots".into()), ..Default::default() },
        PerformerListParams { order: Some("height".into()), ..Default::default() },
        PerformerListParams { page: Some(0), ..Default::default() },
    ] {
        assert_eq!(status(c.performers(&vixen, &bad).await.unwrap_err()).0, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let p = &girls.performers[0];
    let page = c.performer(&vixen, &p.slug, &Paging::default()).await.unwrap();
    assert!(page.videos.videos.iter().all(|v| v.performers.iter().any(|x| x.id == p.id)));
    assert_eq!(
        page.videos.total_count,
        env.scalar(&format!(
            "select count(*) from video where site = 'vixen' and performer_ids @> array['{}'::uuid]",
            p.id
        ))
        .await
    );
    assert_eq!(
        status(c.performer(&vixen, "nobody-here", &Paging::default()).await.unwrap_err()).0,
        StatusCode::NOT_FOUND
    );
    let batch = c.performers_by(&vixen, &[p.id], &[girls.performers[1].slug.clone()]).await.unwrap();
    assert_eq!(batch.len(), 2);

    // Categories and filters.
    let categories = c.categories(&vixen).await.unwrap();
    assert_eq!(categories.categories.len(), 24);
    let filters = c.all_filters(&vixen, None, Some(10)).await.unwrap();
    assert!(filters.categories.iter().all(|f| f.scenes >= 10));
    assert!(filters.categories.len() < 24 || filters.categories.iter().all(|f| f.scenes >= 10));
    assert!(filters.performers.iter().all(|f| f.scenes >= 10));
    let only = c.all_filters(&vixen, Some("categories"), None).await.unwrap();
    assert!(only.performers.is_empty() && only.channels.is_empty() && only.categories.len() == 24);
    assert_eq!(
        status(c.all_filters(&vixen, Some("colours"), None).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let none = c.all_filters(&vixen, None, Some(1_000_000)).await.unwrap();
    assert!(none.categories.is_empty() && none.performers.is_empty() && none.channels.is_empty());

    // Search: titles, performers, categories; typos; empty.
    let (title, slug): (String, String) =
        sqlx::query_as("select title, slug from video where site = 'vixen' order by slug limit 1")
            .fetch_one(&env.pool)
            .await
            .unwrap();
    let found = c.search(&vixen, &title, &Paging::default()).await.unwrap();
    assert!(found.videos.iter().any(|v| v.slug == slug), "{title}");
    assert!(found
        .videos
        .iter()
        .take(3)
        .all(|v| v.title.to_lowercase().contains(&title.split(' ').next().unwrap().to_lowercase())));
    // One letter swapped in each word still finds it.
    let typo: String = title
        .split(' ')
        .map(|w| {
            if w.len() > 4 {
                let mut b: Vec<char> = w.chars().collect();
                b.swap(2, 3);
                b.into_iter().collect()
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let fuzzy = c.search(&vixen, &typo, &Paging { size: Some(50), ..Default::default() }).await.unwrap();
    assert!(fuzzy.videos.iter().any(|v| v.slug == slug), "{typo} finds {title}");
    let performer_hit = c.search(&vixen, &p.name, &Paging::default()).await.unwrap();
    assert!(performer_hit.performers.iter().any(|x| x.id == p.id));
    assert!(performer_hit
        .videos
        .iter()
        .all(|v| v.performers.iter().any(|x| p.name.split(' ').any(|w| x.name.contains(w)))));
    let category_hit = c.search(&vixen, "lingerie", &Paging::default()).await.unwrap();
    assert!(category_hit.categories.iter().any(|x| x.slug == "lingerie"));
    assert!(category_hit.total_count > 0);
    let empty = c.search(&vixen, "", &Paging::default()).await.unwrap();
    assert_eq!((empty.videos.len(), empty.total_count), (0, 0));
    let nothing = c.search(&vixen, "zzqxv", &Paging::default()).await.unwrap();
    assert_eq!(nothing.total_count, 0);
    let paged = c.search(&vixen, "golden", &Paging { page: Some(1), size: Some(2) }).await.unwrap();
    let page2 = c.search(&vixen, "golden", &Paging { page: Some(2), size: Some(2) }).await.unwrap();
    assert_eq!(paged.total_count, page2.total_count);
    if paged.total_count > 2 {
        assert!(paged.videos.iter().all(|v| !page2.videos.iter().any(|w| w.uuid == v.uuid)));
    }
    assert_eq!(
        status(c.search(&vixen, "x", &Paging { page: Some(0), size: None }).await.unwrap_err()).0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recommendations_reels_showcases_angels_and_the_wall() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let video = c.videos(&vixen, &VideoListParams::default()).await.unwrap().videos[0].clone();
    let channel_video = c.channel_videos(&vixen, "harbor-films").await.unwrap()[0].clone();
    let internal_video = c.channel_videos(&vixen, "behind-the-lens").await.unwrap()[0].clone();
    let mut ids = std::collections::HashSet::new();
    for shelf in catalog::recommendations::SHELVES {
        let subject = match shelf {
            "EXTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS" => Some(channel_video.uuid),
            "INTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS" => Some(internal_video.uuid),
            s if s.contains("VIDEO_PAGE") => Some(video.uuid),
            _ => None,
        };
        let r = c.recommendations(&vixen, shelf, subject, 6, false, &[]).await.unwrap();
        assert!(r.recomm_id.starts_with("rc-"), "{shelf}");
        assert!(ids.insert(r.recomm_id.clone()), "a fresh recommId per answer");
        if shelf == "RECOMMENDED_MODELS" {
            assert_eq!(r.performers.len(), 6);
        } else {
            assert!(!r.videos.is_empty() && r.videos.len() <= 6, "{shelf}");
            assert!(
                subject.is_none_or(|s| r.videos.iter().all(|v| v.uuid != s)),
                "{shelf} recommends the video itself"
            );
        }
        if shelf == "VIDEO_PAGE_RECOMMENDATIONS" {
            assert!(r.videos.iter().all(|v| v.site == "vixen"));
        }
        if shelf == "HOME_RECOMMENDED_VMG" {
            assert!(r.videos.iter().all(|v| v.site != "vixen"));
        }
        if shelf == "EXTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS" {
            assert!(r.videos.iter().all(|v| v.is_third_party_channel));
        }
    }
    let e = c.recommendations(&vixen, "VIDEO_PAGE_RECOMMENDATIONS", None, 6, false, &[]).await.unwrap_err();
    assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY);
    let e = c.recommendations(&vixen, "NO_SUCH_SHELF", None, 6, false, &[]).await.unwrap_err();
    assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY);
    let cross = c
        .recommendations(&vixen, "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION", Some(video.uuid), 9, true, &[])
        .await
        .unwrap();
    assert!(!cross.videos.is_empty());
    assert!(cross.videos.iter().all(|v| v.site != video.site && v.site != "channels"), "only other brands' videos");
    let sisters = ["tushy".to_owned(), "blacked".to_owned()];
    let cross = c
        .recommendations(&vixen, "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION", Some(video.uuid), 6, true, &sisters)
        .await
        .unwrap();
    assert_eq!(cross.videos.len(), 6, "filled from the sisters' best when few are alike");
    assert!(cross.videos.iter().all(|v| sisters.contains(&v.site)), "only the sister sites named");
    assert!(cross.videos.iter().all(|v| !v.images.listing.src.is_empty()), "every card has its picture");
    let related: Vec<_> =
        c.video(&vixen, &video.slug, 9, false).await.unwrap().related.iter().map(|v| v.uuid).collect();
    assert!(cross.videos.iter().all(|v| !related.contains(&v.uuid)), "never the related list again");
    let e = c
        .recommendations(
            &vixen,
            "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION",
            Some(video.uuid),
            6,
            true,
            &["nowhere".into()],
        )
        .await
        .unwrap_err();
    assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY);

    let reels = c.reels(&vixen, &Paging::default()).await.unwrap();
    assert_eq!(reels.total_count, 6);
    assert!(reels.reels.iter().all(|r| r.site == "vixen" && r.video_slug.is_some()));
    assert_eq!(c.reel(&vixen, reels.reels[0].uuid).await.unwrap().uuid, reels.reels[0].uuid);
    assert_eq!(status(c.reel(&vixen, uuid::Uuid::now_v7()).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    let showcases = c.showcases(&vixen).await.unwrap();
    assert_eq!(showcases.showcases.len(), 3);
    let one = c.showcase(&vixen, &showcases.showcases[0].slug).await.unwrap();
    assert!(!one.videos.is_empty());
    assert_eq!(status(c.showcase(&env.visitor("tushy"), &one.slug).await.unwrap_err()).0, StatusCode::NOT_FOUND);
    let angels = c.angels(&vixen).await.unwrap();
    assert_eq!(angels.angels.len(), 6);
    assert!(c.angels(&env.visitor("tushy")).await.unwrap().angels.is_empty());
    let angel = c.angel(&vixen, &angels.angels[0].slug).await.unwrap();
    assert_eq!(angel.performer.id, angels.angels[0].performer.id);
    let wall = c.wall(&vixen).await.unwrap();
    assert_eq!(wall.posts.len(), 6);
    assert!(wall.posts.iter().all(|p| p.video.is_some()));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_catalog_answers_empty_lists() {
    let env = TestEnv::new().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let page = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_eq!((page.videos.len(), page.total_count), (0, 0));
    assert_eq!(c.performers(&vixen, &PerformerListParams::default()).await.unwrap().total_count, 0);
    assert!(c.categories(&vixen).await.unwrap().categories.is_empty());
    assert_eq!(c.search(&vixen, "golden hour", &Paging::default()).await.unwrap().total_count, 0);
    assert_eq!(c.awarded_videos(&vixen, &AwardedParams::default()).await.unwrap().total_count, 0);
    assert!(c.recommendations(&vixen, "HOME_RECOMMENDATIONS", None, 6, false, &[]).await.unwrap().videos.is_empty());
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeding_again_writes_nothing() {
    let env = TestEnv::seeded().await;
    let events = env.scalar("select count(*) from event").await;
    assert!(events > 1_000, "{events}");
    env.seed().await;
    assert_eq!(env.scalar("select count(*) from event").await, events);
    // Other services hear of videos with their channel and category, and of packs.
    let published: i64 = env.scalar("select count(*) from event where event_type = 'VideoPublished'").await;
    let packs: i64 = env.scalar("select count(*) from event where event_type = 'ChannelPackPublished'").await;
    assert!(published >= 464 && packs > 0);
    let channel_video: i64 = env
        .scalar("select count(*) from event where event_type = 'VideoPublished' and payload->'video'->'channel'->>'category' = 'behind_the_scenes'")
        .await;
    assert!(channel_video > 0);
    env.cleanup().await;
}

/// Every paged list: page 0, a page past 2^31 - 1, size 0 and 101 are refused with 422; a
/// page past the last is empty and still carries the total.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_paged_list_checks_its_bounds_and_answers_empty_past_the_end() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let member = env.member("vixen", uuid::Uuid::now_v7(), &[]);
    let out_of_bounds = [
        Paging { page: Some(0), size: None },
        Paging { page: Some(2_147_483_648), size: None },
        Paging { page: None, size: Some(0) },
        Paging { page: None, size: Some(101) },
    ];
    for paging in &out_of_bounds {
        let refused = |e: UpstreamError| {
            assert_eq!(status(e), (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_REQUEST".into()), "{paging:?}");
        };
        refused(c.top_rated(&vixen, paging).await.unwrap_err());
        refused(c.channels(&vixen, paging).await.unwrap_err());
        refused(c.all_channel_videos(&vixen, paging).await.unwrap_err());
        refused(c.channel_video_page(&vixen, "behind-the-lens", paging).await.unwrap_err());
        refused(c.reels(&vixen, paging).await.unwrap_err());
        refused(c.search(&vixen, "golden", paging).await.unwrap_err());
        refused(c.sister_videos(&vixen, "tushy", paging).await.unwrap_err());
        refused(c.sister_performers(&vixen, "tushy", paging).await.unwrap_err());
        refused(c.favourites(&member, "video", paging).await.unwrap_err());
    }
    // The largest page is accepted, and empty.
    let far = Paging { page: Some(2_147_483_647), size: Some(100) };
    let top = c.top_rated(&vixen, &far).await.unwrap();
    assert!(top.videos.is_empty() && top.total_count > 0 && top.page == 2_147_483_647);

    // Past the last page: empty, the total intact.
    let past = Paging { page: Some(1000), size: Some(100) };
    let channels = c.channels(&vixen, &past).await.unwrap();
    assert!(channels.channels.is_empty() && channels.total_count == 8);
    let all = c.all_channel_videos(&vixen, &past).await.unwrap();
    assert!(all.videos.is_empty() && all.total_count > 0);
    let reels = c.reels(&vixen, &past).await.unwrap();
    assert!(reels.reels.is_empty() && reels.total_count > 0);
    let listed = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    let word = listed.videos[0].title.split(' ').next().unwrap().to_lowercase();
    let hits = c.search(&vixen, &word, &Paging::default()).await.unwrap();
    assert!(!hits.videos.is_empty(), "{word}");
    let found = c.search(&vixen, &word, &past).await.unwrap();
    assert!(found.videos.is_empty() && found.total_count == hits.total_count, "{word}: {}", found.total_count);
    let sister = c.sister_videos(&vixen, "tushy", &past).await.unwrap();
    assert!(sister.videos.is_empty() && sister.total_count > 0);
    let people = c.sister_performers(&vixen, "tushy", &past).await.unwrap();
    assert!(people.performers.is_empty() && people.total_count > 0);
    let in_channel = c.channel_video_page(&vixen, "behind-the-lens", &past).await.unwrap();
    assert!(in_channel.videos.is_empty() && in_channel.total_count > 0);
    let favourites = c.favourites(&member, "video", &Paging::default()).await.unwrap();
    assert!(favourites.videos.is_empty() && favourites.total_count == 0, "a new member has none");

    // awarded: skip 0 to the last page's offset or a page 1 to 2147483647, never both; first
    // 1 to 100. The awards route's last page (2147483647 / 3) is past every 32-bit skip.
    let both = AwardedParams { skip: Some(0), page: Some(1), first: Some(12) };
    let max_skip = (2_147_483_647 - 1) * 100;
    for params in
        [skip(-1, 5), skip(0, 0), skip(0, 101), skip(max_skip + 1, 100), page(0, 12), page(2_147_483_648, 12), both]
    {
        let e = c.awarded_videos(&vixen, &params).await.unwrap_err();
        assert_eq!(status(e), (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_REQUEST".into()), "{params:?}");
    }
    for params in [page(715_827_882, 12), page(2_147_483_647, 100), skip(max_skip, 100)] {
        let far = c.awarded_videos(&vixen, &params).await.unwrap();
        assert!(far.videos.is_empty() && far.total_count > 0, "{params:?}");
    }
    let by_page = c.awarded_videos(&vixen, &page(2, 3)).await.unwrap();
    let by_skip = c.awarded_videos(&vixen, &skip(3, 3)).await.unwrap();
    assert_eq!(
        by_page.videos.iter().map(|v| v.uuid).collect::<Vec<_>>(),
        by_skip.videos.iter().map(|v| v.uuid).collect::<Vec<_>>()
    );
    assert_eq!(c.awarded_videos(&vixen, &skip(0, 100)).await.unwrap().videos.len() as i64, {
        let n: i64 = env.scalar("select count(*) from video where site = 'vixen' and published and award = 1").await;
        n.min(100)
    });

    // Comments: size 1 to 100 and a cursor that is a non-negative offset.
    let video = c.videos(&vixen, &VideoListParams::default()).await.unwrap().videos[0].uuid;
    for (size, after) in [(0, None), (101, None), (10, Some("-1")), (10, Some("abc"))] {
        let e = c.comments(&vixen, video, "newest", after, size).await.unwrap_err();
        assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY, "size {size} after {after:?}");
    }
    let e = c.comments(&vixen, video, "sideways", None, 10).await.unwrap_err();
    assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY);
    let none = c.comments(&vixen, video, "newest", Some("500"), 10).await.unwrap();
    assert!(none.comments.is_empty() && none.next_cursor.is_none());

    // Recommendations: limit 1 to 100.
    for limit in [0, 101] {
        let e = c.recommendations(&vixen, "HOME_RECOMMENDATIONS", None, limit, false, &[]).await.unwrap_err();
        assert_eq!(status(e).0, StatusCode::UNPROCESSABLE_ENTITY, "limit {limit}");
    }
    env.cleanup().await;
}

/// Every video's card names as the cards used to read them: joined from the performers and
/// categories at read time.
async fn card_names_by_definition(pool: &sqlx::PgPool) -> Vec<(uuid::Uuid, serde_json::Value, serde_json::Value)> {
    sqlx::query_as(
        "select v.video_id,
                coalesce((select jsonb_agg(jsonb_build_object('id', p.performer_id, 'slug', p.slug, 'name', p.name)
                                           order by array_position(v.performer_ids, p.performer_id))
                          from performer p where p.performer_id = any(v.performer_ids)), '[]'),
                coalesce((select jsonb_agg(jsonb_build_object('slug', c.slug, 'name', c.name)
                                           order by array_position(v.category_slugs, c.slug))
                          from category c where c.slug = any(v.category_slugs)), '[]')
         from video v order by v.video_id",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

async fn card_names_kept(pool: &sqlx::PgPool) -> Vec<(uuid::Uuid, serde_json::Value, serde_json::Value)> {
    sqlx::query_as("select video_id, performer_refs, category_refs from video order by video_id")
        .fetch_all(pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_names_kept_on_the_cards_follow_every_change_of_a_performer_or_category() {
    let env = TestEnv::seeded().await;
    let pool = &env.pool;
    assert_eq!(card_names_kept(pool).await, card_names_by_definition(pool).await);
    let vixen = env.visitor("vixen");
    let first = env.client.videos(&vixen, &VideoListParams::default()).await.unwrap().videos[0].clone();
    let (performer, category) = (first.performers[0].id, first.categories[0].slug.clone());
    // Each change made by hand (another writer than the projection), checked against the
    // definition and through the service (its read cache too).
    let changes = [
        format!("update performer set name = 'Someone Else' where performer_id = '{performer}'"),
        format!("update category set name = 'Renamed Category' where slug = '{category}'"),
        // Ratings move performers all the time; the cards are not rewritten for them.
        format!("update performer set rating = 9.5 where performer_id = '{performer}'"),
        format!("update category set slug = 'moved-away' where slug = '{category}'"),
        format!("update category set slug = '{category}' where slug = 'moved-away'"),
        format!("delete from performer where performer_id = '{performer}'"),
        format!(
            "insert into performer (performer_id, slug, name, sex, sites, published_at)
             values ('{performer}', 'back-again', 'Back Again', 'F', '{{vixen}}', now())"
        ),
        // Another video of the performer unpublished; its row is kept and follows too.
        format!(
            "update video set published = false where video_id = (select video_id from video
             where video_id <> '{}' and performer_ids @> array['{performer}'::uuid] limit 1)",
            first.uuid
        ),
        format!("update performer set name = 'Unpublished Too' where performer_id = '{performer}'"),
        // A key changed by hand: the videos naming the old id lose the performer.
        "update performer set performer_id = gen_random_uuid() where slug = 'back-again'".to_owned(),
        format!("update performer set performer_id = '{performer}' where slug = 'back-again'"),
        // Emptied at once: no row triggers fire for a truncate.
        "truncate category".to_owned(),
    ];
    for change in &changes {
        let before = card_names_kept(pool).await;
        sqlx::query(change).execute(pool).await.unwrap();
        let after = card_names_kept(pool).await;
        assert_eq!(after, card_names_by_definition(pool).await, "after {change}");
        if change.contains("rating") {
            assert_eq!(after, before, "a rating rewrites no card");
        }
        let card = env.client.video(&vixen, &first.slug, 0, false).await.unwrap().video;
        let listed = env.client.videos(&vixen, &VideoListParams::default()).await.unwrap().videos;
        let shown = listed.iter().find(|v| v.uuid == first.uuid).unwrap();
        assert_eq!((&shown.performers, &shown.categories), (&card.performers, &card.categories), "after {change}");
    }
    let shown = env.client.video(&vixen, &first.slug, 0, false).await.unwrap().video;
    assert_eq!(shown.performers[0].name, "Unpublished Too");
    assert!(shown.categories.is_empty());
    env.cleanup().await;
}

/// "Free for your trial": the flagged videos of the sites a user's trial covers, within the
/// brand's listing, newest first; some of them on the first page of the brand's listing, the
/// combined brand's own too; another brand's flagged videos are not the trial's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_free_trial_list_holds_the_trials_own_sites_flagged_videos() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let of = |sites: &str| FreeTrialParams { sites: sites.into(), ..Default::default() };
    for (brand, sites) in [("vixen", "vixen"), ("tushy", "tushy"), ("vixenplus", "vixenplus")] {
        let caller = env.visitor(brand);
        let list = c.free_trial_videos(&caller, &of(sites)).await.unwrap();
        assert!(list.total_count >= 6, "{brand}: {}", list.total_count);
        assert!(list.videos.iter().all(|v| v.is_free_limited_trial && v.site == sites && !v.is_third_party_channel));
        let dates: Vec<_> = list.videos.iter().map(|v| v.release_date).collect();
        assert!(dates.windows(2).all(|w| w[0] >= w[1]), "{brand}: newest first");
        let first_page = c.videos(&caller, &VideoListParams { size: Some(12), ..Default::default() }).await.unwrap();
        let on_first = first_page.videos.iter().filter(|v| v.site == sites && v.is_free_limited_trial).count();
        assert!(on_first >= 2, "{brand}: {on_first} of the trial's videos on the listing's first page");
    }
    // The combined brand lists every brand's flagged videos; a trial of vixenplus alone gets
    // none of vixen's, and a trial covering both gets both.
    let plus = env.visitor("vixenplus");
    let both = c.free_trial_videos(&plus, &of("vixenplus,vixen")).await.unwrap();
    let alone = c.free_trial_videos(&plus, &of("vixenplus")).await.unwrap();
    assert!(both.total_count > alone.total_count);
    // Another brand's list never carries what that brand does not list.
    let on_vixen = c.free_trial_videos(&env.visitor("vixen"), &of("tushy")).await.unwrap();
    assert_eq!(on_vixen.total_count, 0);
    assert_eq!(c.free_trial_videos(&plus, &of("")).await.unwrap().total_count, 0, "no sites, no videos");
}
