//! The read cache of listings and searches: never an answer older than a write the caller
//! has seen (whoever wrote it: this service, another process, a rebuild), one computation
//! for concurrent misses of a key, and bounded memory.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use catalog::client::{Paging, VideoListParams};
use catalog::read_cache::{Depends, Generations, Limits, ReadCache};
use catalog::CatalogConfig;
use chrono::Utc;
use proto_events::catalog::{CatalogEvent, Video};
use proto_events::{Actor, EventMeta};
use support::TestEnv;
use uuid::Uuid;

/// A new video on `site`, released now (so first in the newest-first listing), with a title
/// word nothing else has.
fn new_video(site: &str, word: &str, performer: Uuid, category: &str) -> Video {
    let video_id = Uuid::now_v7();
    Video {
        video_id,
        legacy_id: format!("{}", video_id.as_u128() % 1_000_000_000),
        new_id: format!("n{}", video_id.simple()),
        slug: format!("{word}-{}", video_id.simple()),
        site: site.into(),
        title: format!("The {word} evening"),
        description: "Generated for a test.".into(),
        release_date: Utc::now(),
        duration_seconds: 900,
        performer_ids: vec![performer],
        category_slugs: vec![category.into()],
        channel: None,
        is_third_party_channel: false,
        is_free_limited_trial: false,
        award: 0,
        qualities: vec![],
    }
}

async fn publish(env: &TestEnv, video: &Video) {
    let meta = EventMeta::new(Actor::Admin(Uuid::now_v7()));
    let event = CatalogEvent::VideoPublished { video: video.clone(), published_at: Utc::now() };
    catalog::commands::publish_all(&env.store, &meta, &[event], 100, false)
        .await
        .map_err(|e| format!("{e:?}"))
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_or_search_after_a_write_shows_the_write() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let cache = env.state.read_cache.clone();

    // Warm: the second read of each is a hit.
    let first = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    let before = cache.stats();
    assert_eq!(c.videos(&vixen, &VideoListParams::default()).await.unwrap(), first);
    assert_eq!(cache.stats().since(&before).hits, 1, "the same page again is served from the cache");
    let none = c.search(&vixen, "zanzibarish", &Paging::default()).await.unwrap();
    assert_eq!(none.total_count, 0);
    let top = c.top_rated(&vixen, &Paging::default()).await.unwrap();
    let tushy = c.videos(&env.visitor("tushy"), &VideoListParams::default()).await.unwrap();

    // A new video (published by another writer than this service's handlers).
    let performer = first.videos[0].performers[0].id;
    let category = first.videos[0].categories[0].slug.clone();
    let video = new_video("vixen", "zanzibarish", performer, &category);
    publish(&env, &video).await;
    let after = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_eq!(after.videos[0].uuid, video.video_id, "the new video leads the listing at once");
    assert_eq!(after.total_count, first.total_count + 1);
    let found = c.search(&vixen, "zanzibarish", &Paging::default()).await.unwrap();
    assert_eq!(found.videos.iter().map(|v| v.uuid).collect::<Vec<_>>(), vec![video.video_id]);
    let in_category =
        c.videos(&vixen, &VideoListParams { categories: Some(category.clone()), ..Default::default() }).await.unwrap();
    assert_eq!(in_category.videos[0].uuid, video.video_id);
    // Another brand's pages are untouched by it and still served from the cache.
    let before = cache.stats();
    assert_eq!(c.videos(&env.visitor("tushy"), &VideoListParams::default()).await.unwrap(), tushy);
    assert_eq!(cache.stats().since(&before).hits, 1);

    // A rating: the listing and the top rated page show it at once.
    let member = env.member("vixen", Uuid::now_v7(), &[]);
    c.rate(&member, video.video_id, 10, None).await.unwrap();
    let rated = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_eq!((rated.videos[0].rating, rated.videos[0].rating_count), (10.0, 1));
    let top_after = c.top_rated(&vixen, &Paging::default()).await.unwrap();
    assert_ne!(top_after, top);
    assert!(top_after.videos.iter().any(|v| v.uuid == video.video_id), "a 10 is among the top rated");

    // A comment: the video's page counts it and its thread shows it.
    let comment = c.add_comment(&member, video.video_id, "Lovely evening light.").await.unwrap();
    let page = c.video(&vixen, &video.slug, 0, false).await.unwrap();
    assert_eq!(page.comment_count, 1);
    let thread = c.comments(&vixen, video.video_id, "newest", None, 10).await.unwrap();
    assert_eq!(thread.comments.iter().map(|c| c.id).collect::<Vec<_>>(), vec![comment.id]);

    // A performer renamed by hand in the database (another process): every card shows it.
    sqlx::query("update performer set name = 'Renamed Person' where performer_id = $1")
        .bind(performer)
        .execute(&env.pool)
        .await
        .unwrap();
    let renamed = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_eq!(renamed.videos[0].performers[0].name, "Renamed Person");

    // Unpublished: gone from the listing and the search.
    let meta = EventMeta::new(Actor::Admin(Uuid::now_v7()));
    let gone = CatalogEvent::VideoUnpublished { video_id: video.video_id, unpublished_at: Utc::now() };
    catalog::commands::publish_all(&env.store, &meta, &[gone], 100, false).await.map_err(|e| format!("{e:?}")).unwrap();
    let after_gone = c.videos(&vixen, &VideoListParams::default()).await.unwrap();
    assert_ne!(after_gone.videos[0].uuid, video.video_id);
    assert_eq!(after_gone.total_count, first.total_count);
    assert_eq!(c.search(&vixen, "zanzibarish", &Paging::default()).await.unwrap().total_count, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cached_answers_equal_fresh_ones_and_a_rebuild_keeps_them_equal() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let asks: Vec<(&str, VideoListParams)> = vec![
        ("vixen", VideoListParams::default()),
        ("vixen", VideoListParams { page: Some(3), size: Some(7), order: Some("oldest".into()), ..Default::default() }),
        ("tushy", VideoListParams { categories: Some("Big Scene".into()), ..Default::default() }),
        ("vixenplus", VideoListParams { order: Some("rating".into()), ..Default::default() }),
        (
            "blacked",
            VideoListParams { performer: Some("no-such-performer".into()), page: Some(0), ..Default::default() },
        ),
    ];
    let mut first = Vec::new();
    for (site, params) in &asks {
        first.push(c.videos(&env.visitor(site), params).await.unwrap());
    }
    let searched = c.search(&env.visitor("vixen"), "golden hour", &Paging::default()).await.unwrap();

    // The same asks on a service without the cache answer the same.
    let uncached = support::Replica::on(
        &env,
        CatalogConfig { read_cache: Limits { max_bytes: 0, max_entries: 0 }, ..Default::default() },
    )
    .await;
    for ((site, params), cached) in asks.iter().zip(&first) {
        assert_eq!(&uncached.client.videos(&env.visitor(site), params).await.unwrap(), cached, "{site} {params:?}");
    }
    assert_eq!(
        uncached.client.search(&env.visitor("vixen"), "golden hour", &Paging::default()).await.unwrap(),
        searched
    );
    assert_eq!(uncached.state.read_cache.stats().hits + uncached.state.read_cache.stats().misses, 0, "off means off");

    // A rebuild rewrites every read model: the next reads are computed again and equal.
    let before = env.state.read_cache.stats();
    for projection in catalog::projections() {
        runtime::projection::rebuild(&env.pool, projection.as_ref()).await.unwrap();
    }
    for ((site, params), cached) in asks.iter().zip(&first) {
        assert_eq!(&c.videos(&env.visitor(site), params).await.unwrap(), cached, "{site} {params:?}");
    }
    let since = env.state.read_cache.stats().since(&before);
    assert_eq!((since.hits, since.misses), (0, asks.len() as u64), "a rebuild invalidates");
    uncached.detach().await;
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_misses_of_one_key_compute_once() {
    let env = TestEnv::new().await;
    let cache = ReadCache::new(Limits::default());
    let computed = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    let cache = Arc::new(cache);
    // The first check waits on a lock of the generations table until every request has
    // arrived: on a loaded machine, tasks spawned one after another need not overlap by
    // themselves, and a check covers only the requests that arrived before it began.
    let mut holder = env.pool.begin().await.unwrap();
    sqlx::query("lock table read_generation in access exclusive mode").execute(&mut *holder).await.unwrap();
    let all_in = Arc::new(tokio::sync::Barrier::new(41));
    for _ in 0..40 {
        let (cache, computed, pool) = (cache.clone(), computed.clone(), env.pool.clone());
        let all_in = all_in.clone();
        tasks.spawn(async move {
            all_in.wait().await;
            cache
                .get_or_compute(&pool, "the-key".into(), &Depends::listing("vixen"), |_| async {
                    computed.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Ok::<_, sqlx::Error>(axum::body::Bytes::from_static(b"{\"answer\":1}"))
                })
                .await
                .unwrap()
        });
    }
    all_in.wait().await;
    let waiting = std::time::Instant::now();
    while cache.stats().checks == 0 && waiting.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The requests' own work before they ask for the generations is microseconds.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(cache.stats().checks, 1, "the first check is running, the others wait for it");
    holder.commit().await.unwrap();
    while let Some(body) = tasks.join_next().await {
        assert_eq!(&body.unwrap()[..], b"{\"answer\":1}");
    }
    assert_eq!(computed.load(Ordering::SeqCst), 1, "one computation for forty requests");
    let stats = cache.stats();
    assert_eq!(stats.misses, 1);
    assert_eq!(stats.hits + stats.coalesced, 39);
    // The first check covers the requests that arrived before it began (at least its own); the
    // one after it, if any is left, covers all the others.
    assert!((1..=2).contains(&stats.checks), "the generation checks are shared: {}", stats.checks);

    // A failed computation is not kept and not shared as a success: the next one runs.
    let failed: Result<_, sqlx::Error> = cache
        .get_or_compute(&env.pool, "other".into(), &Depends::listing("vixen"), |_| async {
            Err(sqlx::Error::Protocol("boom".into()))
        })
        .await;
    assert!(failed.is_err());
    let ok = cache
        .get_or_compute(&env.pool, "other".into(), &Depends::listing("vixen"), |_| async {
            Ok::<_, sqlx::Error>(axum::body::Bytes::from_static(b"2"))
        })
        .await
        .unwrap();
    assert_eq!(&ok[..], b"2");
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_check_sees_every_write_committed_before_it_was_asked() {
    let env = TestEnv::new().await;
    let cache = ReadCache::new(Limits::default());
    let computed = AtomicUsize::new(0);
    let compute = |_| async {
        computed.fetch_add(1, Ordering::SeqCst);
        Ok::<_, sqlx::Error>(axum::body::Bytes::from_static(b"{}"))
    };
    let key = || "listing".to_owned();
    cache.get_or_compute(&env.pool, key(), &Depends::listing("vixen"), compute).await.unwrap();
    cache.get_or_compute(&env.pool, key(), &Depends::listing("vixen"), compute).await.unwrap();
    assert_eq!(computed.load(Ordering::SeqCst), 1);
    let g0 = Generations::read(&env.pool).await.unwrap();
    // Writes on other scopes leave the key alone; one on its site does not.
    sqlx::query("insert into listing_count (site, facet, n) values ('tushy', 'x', 1)")
        .execute(&env.pool)
        .await
        .unwrap();
    cache.get_or_compute(&env.pool, key(), &Depends::listing("vixen"), compute).await.unwrap();
    assert_eq!(computed.load(Ordering::SeqCst), 1);
    sqlx::query("insert into listing_count (site, facet, n) values ('vixen', 'x', 1)")
        .execute(&env.pool)
        .await
        .unwrap();
    cache.get_or_compute(&env.pool, key(), &Depends::listing("vixen"), compute).await.unwrap();
    assert_eq!(computed.load(Ordering::SeqCst), 2);
    let g1 = Generations::read(&env.pool).await.unwrap();
    assert!(g1.of("vixen") > g0.of("vixen") && g1.of("tushy") > g0.of("tushy"));
    // A statement that changes nothing bumps nothing; a rolled back write neither.
    sqlx::query("update video set title = 'x' where false").execute(&env.pool).await.unwrap();
    let mut tx = env.pool.begin().await.unwrap();
    sqlx::query("insert into listing_count (site, facet, n) values ('vixen', 'y', 1)").execute(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(Generations::read(&env.pool).await.unwrap(), g1);
    cache.get_or_compute(&env.pool, key(), &Depends::listing("vixen"), compute).await.unwrap();
    assert_eq!(computed.load(Ordering::SeqCst), 2);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cache_keeps_within_its_bounds() {
    let limits = Limits { max_bytes: 4 << 20, max_entries: 5 };
    let env = TestEnv::with_config(CatalogConfig { read_cache: limits, ..Default::default() }).await;
    env.seed().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let mut pages = Vec::new();
    for page in 1..=12 {
        pages.push(
            c.videos(&vixen, &VideoListParams { page: Some(page), size: Some(5), ..Default::default() }).await.unwrap(),
        );
        let stats = env.state.read_cache.stats();
        assert!(stats.entries <= 5, "{stats:?}");
    }
    assert_eq!(env.state.read_cache.stats().evictions, 7);
    // The evicted pages are computed again, and the same.
    for (i, page) in pages.iter().enumerate() {
        let again = c
            .videos(&vixen, &VideoListParams { page: Some(i as i64 + 1), size: Some(5), ..Default::default() })
            .await
            .unwrap();
        assert_eq!(&again, page);
    }

    // By bytes: thirty one-card pages in a cache of half their size.
    let one_card = |page: i64| VideoListParams { page: Some(page), size: Some(1), ..Default::default() };
    let probe = support::Replica::on(&env, CatalogConfig::default()).await;
    for page in 1..=30 {
        probe.client.videos(&vixen, &one_card(page)).await.unwrap();
    }
    let all = probe.state.read_cache.stats().bytes;
    probe.detach().await;
    let small = Limits { max_bytes: all / 2, max_entries: 1000 };
    let tight = support::Replica::on(&env, CatalogConfig { read_cache: small, ..Default::default() }).await;
    for page in 1..=30 {
        tight.client.videos(&vixen, &one_card(page)).await.unwrap();
        assert!(tight.state.read_cache.stats().bytes <= small.max_bytes);
    }
    let stats = tight.state.read_cache.stats();
    assert!(stats.entries >= 10 && stats.entries <= 16 && stats.evictions >= 14, "{stats:?}");
    tight.detach().await;
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_performers_change_recomputes_only_the_searches_of_their_sites() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let cache = env.state.read_cache.clone();
    let (tushy, vixen) = (env.visitor("tushy"), env.visitor("vixen"));
    // A performer of tushy's, not on vixen, whom a tushy search for their name suggests.
    let (id, name): (Uuid, String) = sqlx::query_as(
        "select performer_id, name from performer
         where sites @> array['tushy'] and not sites @> array['vixen'] and video_count > 0 order by slug limit 1",
    )
    .fetch_one(&env.pool)
    .await
    .unwrap();
    let suggested = |r: &catalog::api::SearchResult| r.performers.iter().any(|p| p.id == id);
    let on_tushy = c.search(&tushy, &name, &Paging::default()).await.unwrap();
    assert!(suggested(&on_tushy), "{name}");
    let on_vixen = c.search(&vixen, &name, &Paging::default()).await.unwrap();
    assert!(!suggested(&on_vixen));

    // Their rating moves (as a rating of one of their videos moves it): vixen's cached search
    // cannot change and is still served; tushy's is recomputed.
    sqlx::query("update performer set rating = rating + 0.5 where performer_id = $1")
        .bind(id)
        .execute(&env.pool)
        .await
        .unwrap();
    let before = cache.stats();
    assert_eq!(c.search(&vixen, &name, &Paging::default()).await.unwrap(), on_vixen);
    assert_eq!(cache.stats().since(&before).hits, 1, "another site's performer leaves vixen's search cached");
    let before = cache.stats();
    c.search(&tushy, &name, &Paging::default()).await.unwrap();
    assert_eq!(cache.stats().since(&before).misses, 1, "tushy's search is recomputed");

    // No videos left: tushy stops suggesting them at once.
    sqlx::query("update performer set video_count = 0 where performer_id = $1")
        .bind(id)
        .execute(&env.pool)
        .await
        .unwrap();
    assert!(!suggested(&c.search(&tushy, &name, &Paging::default()).await.unwrap()));
    // Moved to vixen: vixen suggests them at once, tushy no longer does.
    sqlx::query("update performer set video_count = 3, sites = array['vixen'] where performer_id = $1")
        .bind(id)
        .execute(&env.pool)
        .await
        .unwrap();
    assert!(suggested(&c.search(&vixen, &name, &Paging::default()).await.unwrap()));
    assert!(!suggested(&c.search(&tushy, &name, &Paging::default()).await.unwrap()));
    env.cleanup().await;
}

/// The value of one series in the process's Prometheus text (0 before it is first recorded).
fn series(name_and_labels: &str) -> f64 {
    runtime::telemetry::install_metrics()
        .render()
        .lines()
        .find(|l| l.split(' ').next() == Some(name_and_labels))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cache_reports_its_answers_checks_and_size_as_metrics() {
    runtime::telemetry::install_metrics();
    let env = TestEnv::seeded().await;
    let vixen = env.visitor("vixen");
    // Other tests of this binary may count too, so only growth is asserted.
    let (hits, misses, checks) = (
        series("paysite_catalog_read_cache_answers_total{outcome=\"hit\"}"),
        series("paysite_catalog_read_cache_answers_total{outcome=\"miss\"}"),
        series("paysite_catalog_read_cache_checks_total"),
    );
    let params = VideoListParams { page: Some(2), size: Some(5), ..Default::default() };
    let first = env.client.videos(&vixen, &params).await.unwrap();
    assert_eq!(env.client.videos(&vixen, &params).await.unwrap(), first);
    assert!(series("paysite_catalog_read_cache_answers_total{outcome=\"miss\"}") >= misses + 1.0);
    assert!(series("paysite_catalog_read_cache_answers_total{outcome=\"hit\"}") >= hits + 1.0);
    assert!(series("paysite_catalog_read_cache_checks_total") >= checks + 1.0);
    assert!(series("paysite_catalog_read_cache_entries") >= 1.0);
    assert!(series("paysite_catalog_read_cache_bytes") > 0.0);
    env.cleanup().await;
}

/// The sitemaps' generation (migration 0009) moves with what a sitemap lists, and with nothing
/// else: not with a rating, not with a statement that changes nothing, not with a rollback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sitemap_generation_moves_with_what_a_sitemap_lists_and_nothing_else() {
    let env = TestEnv::new().await;
    let sitemap = || async { Generations::read(&env.pool).await.unwrap().of("sitemap") };
    let exec = |sql: &'static str| async { sqlx::query(sql).execute(&env.pool).await.unwrap() };
    let g0 = sitemap().await;
    exec(
        "insert into video (video_id, legacy_id, new_id, slug, site, title, description, release_date, duration_seconds, \
         performer_ids, category_slugs, is_third_party_channel, is_free_limited_trial, award, qualities, published, \
         published_at) values (gen_random_uuid(), '1', '900001', 'an-evening', 'vixen', 'An evening', 'Quiet.', now(), \
         1200, '{}', '{}', false, false, 0, '{hls}', true, now())",
    )
    .await;
    let g1 = sitemap().await;
    assert!(g1 > g0, "a new video");
    exec("update video set rating_sum = 9, rating_count = 1, rating = 9 where slug = 'an-evening'").await;
    exec("update video set title = 'x' where false").await;
    exec("update video set title = title where slug = 'an-evening'").await;
    let mut tx = env.pool.begin().await.unwrap();
    sqlx::query("update video set title = 'Gone' where slug = 'an-evening'").execute(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(sitemap().await, g1, "a rating, no change and a rollback leave it");
    exec("update video set title = 'A new title' where slug = 'an-evening'").await;
    let g2 = sitemap().await;
    assert!(g2 > g1, "a title the video sitemap shows");
    exec("update video set published = false where slug = 'an-evening'").await;
    assert!(sitemap().await > g2, "an unpublished video leaves the sitemap");
    env.cleanup().await;
}
