//! Search off the postings answers what the definition on the video rows answers (every
//! word, or a word it may have meant, in the title, performer, category or channel names;
//! ranked title above name, the word itself above a correction, then newest), typos
//! included, and keeps answering it after videos are published, updated, unpublished and
//! performers renamed.

mod support;

use catalog::client::Paging;
use catalog::queries;
use chrono::{Duration, Utc};
use proto_events::catalog::{CatalogEvent, Video};
use proto_events::{Actor, EventMeta};
use sqlx::{PgPool, QueryBuilder};
use support::TestEnv;
use uuid::Uuid;

/// The ranked search straight on the video rows (the query search used before the postings):
/// the ids of every hit in order.
async fn by_definition(pool: &PgPool, site: &str, words: &[String], expanded: &[Vec<String>]) -> Vec<Uuid> {
    if expanded.is_empty() || expanded.iter().any(Vec::is_empty) {
        return vec![];
    }
    let scope = queries::site_scope(site);
    let keyed = |w: &String| if scope == "*" { w.clone() } else { format!("{scope}:{w}") };
    let words: Vec<String> = words.iter().map(keyed).collect();
    let expanded: Vec<Vec<String>> = expanded.iter().map(|c| c.iter().map(keyed).collect()).collect();
    let mut q = QueryBuilder::new("select video_id from (select v.video_id, v.release_date, (0");
    for (word, cands) in words.iter().zip(&expanded) {
        q.push(" + case when v.title_words @> array[")
            .push_bind(word.clone())
            .push("::text] then 4 when v.title_words && ");
        q.push_bind(cands.clone()).push(" then 3 when v.other_words @> array[").push_bind(word.clone());
        q.push("::text] then 2 when v.other_words && ").push_bind(cands.clone()).push(" then 1 else 0 end");
    }
    q.push(") as rank from video v where v.published");
    if scope == "*" {
        q.push(" and v.site <> 'channels'");
    }
    for cands in &expanded {
        q.push(" and (v.title_words && ").push_bind(cands.clone()).push(" or v.other_words && ");
        q.push_bind(cands.clone()).push(")");
    }
    q.push(") hit order by rank desc, release_date desc, video_id desc");
    q.build_query_scalar().fetch_all(pool).await.unwrap()
}

/// Every hit through the service's query, a page at a time, and the total it reports.
async fn by_postings(pool: &PgPool, site: &str, words: &[String], expanded: &[Vec<String>]) -> (Vec<Uuid>, i64) {
    let (mut ids, mut total, mut offset) = (Vec::new(), -1, 0);
    loop {
        let (page, t) = queries::search_videos(pool, site, words, expanded, offset, 40).await.unwrap();
        assert!(total == -1 || total == t, "every page reports the same total");
        total = t;
        if page.is_empty() {
            break;
        }
        offset += page.len() as i64;
        ids.extend(page.into_iter().map(|v| v.uuid));
    }
    (ids, total)
}

/// Asserts both answer the same for every query, on every site given.
async fn same_answers(env: &TestEnv, sites: &[&str], queries_text: &[String]) {
    for site in sites {
        for text in queries_text {
            let words = queries::query_words(text);
            let expanded = queries::expand_words(&env.pool, &words).await.unwrap();
            let expected = by_definition(&env.pool, site, &words, &expanded).await;
            let (ids, total) = by_postings(&env.pool, site, &words, &expanded).await;
            assert_eq!(ids, expected, "{site}: {text:?} ({expanded:?})");
            assert_eq!(total, expected.len() as i64, "{site}: {text:?}");
            // The set every page of the search reads: its first hits, in the same order.
            let set = queries::search_set(&env.pool, site, &text.trim().to_lowercase(), &words).await.unwrap();
            let kept = expected.len().min(queries::SEARCH_SET_SIZE as usize);
            assert_eq!(set.ids, expected[..kept], "{site}: {text:?}");
            assert_eq!((set.total, &set.expanded), (expected.len() as i64, &expanded), "{site}: {text:?}");
        }
    }
}

/// A word with its two middle letters swapped.
fn typo(word: &str) -> String {
    let mut c: Vec<char> = word.chars().collect();
    if c.len() >= 4 {
        let j = c.len() / 2 - 1;
        c.swap(j, j + 1);
    }
    c.into_iter().collect()
}

/// Queries over the catalog's own words: single words, pairs, typos, names, nonsense.
async fn query_mix(env: &TestEnv) -> Vec<String> {
    let titles: Vec<String> = sqlx::query_scalar("select title from video where published order by slug limit 25")
        .fetch_all(&env.pool)
        .await
        .unwrap();
    let names: Vec<String> =
        sqlx::query_scalar("select name from performer order by slug limit 12").fetch_all(&env.pool).await.unwrap();
    let categories: Vec<String> =
        sqlx::query_scalar("select name from category order by slug").fetch_all(&env.pool).await.unwrap();
    let mut out = Vec::new();
    for t in titles.iter().chain(&names) {
        out.push(t.clone());
        out.push(t.split(' ').map(typo).collect::<Vec<_>>().join(" "));
        out.extend(t.split(' ').map(str::to_owned));
    }
    out.extend(categories);
    for (a, b) in titles.iter().zip(names.iter().cycle()) {
        out.push(format!("{} {}", a.split(' ').next().unwrap(), b.split(' ').next().unwrap()));
    }
    out.extend(["zzqxv".into(), "a".into(), "golden zzqxv".into(), "the".into(), "2".into()]);
    out.sort();
    out.dedup();
    out
}

/// Every page of a search through the service (its read cache and search sets), at `size`.
async fn through_the_service(env: &TestEnv, site: &str, text: &str, size: i64) -> (Vec<Uuid>, i64) {
    let (mut ids, mut total, mut page) = (Vec::new(), -1, 1);
    loop {
        let paging = Paging { page: Some(page), size: Some(size) };
        let found = env.client.search(&env.visitor(site), text, &paging).await.unwrap();
        assert!(total == -1 || total == found.total_count, "every page reports the same total");
        total = found.total_count;
        if found.videos.is_empty() {
            break;
        }
        ids.extend(found.videos.iter().map(|v| v.uuid));
        page += 1;
    }
    (ids, total)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_of_a_search_read_its_set_and_past_it_rank_on_their_own() {
    // A catalog large enough for words with more hits than a set keeps.
    let env = TestEnv::new().await;
    let ctx = runtime::service::ServiceContext {
        pool: env.pool.clone(),
        store: env.store.clone(),
        settings: env.settings.clone(),
    };
    catalog::seed_scale(ctx, 2_000).await.unwrap();
    // The combined brand's most common word: more hits than a set keeps.
    let (word, hits): (String, i64) = sqlx::query_as(
        "select term, count(*) from search_posting where position(':' in term) = 0
         group by term order by count(*) desc, term limit 1",
    )
    .fetch_one(&env.pool)
    .await
    .unwrap();
    assert!(hits > queries::SEARCH_SET_SIZE, "{word}: {hits} hits");
    let site = "vixenplus";
    for text in [word.clone(), word.to_uppercase(), format!("{word} {}", typo(&word))] {
        let words = queries::query_words(&text);
        let expanded = queries::expand_words(&env.pool, &words).await.unwrap();
        let expected = by_definition(&env.pool, site, &words, &expanded).await;
        for size in [7, 100] {
            let (ids, total) = through_the_service(&env, site, &text, size).await;
            assert_eq!(ids, expected, "{text:?} by {size}");
            assert_eq!(total, expected.len() as i64, "{text:?} by {size}");
        }
    }
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_off_the_postings_answers_what_the_video_rows_define() {
    let env = TestEnv::seeded().await;
    let mix = query_mix(&env).await;
    assert!(mix.len() > 100, "{}", mix.len());
    same_answers(&env, &["vixen", "tushy", "vixenplus", "channels"], &mix).await;
    env.cleanup().await;
}

fn video(site: &str, title: &str, performer: Uuid, category: &str, days_ago: i64) -> Video {
    let video_id = Uuid::now_v7();
    Video {
        video_id,
        legacy_id: format!("{}", video_id.as_u128() % 1_000_000_000),
        new_id: format!("n{}", video_id.simple()),
        slug: format!("clip-{}", video_id.simple()),
        site: site.into(),
        title: title.into(),
        description: "Generated for a test.".into(),
        release_date: Utc::now() - Duration::days(days_ago),
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

async fn publish(env: &TestEnv, events: &[CatalogEvent]) {
    let meta = EventMeta::new(Actor::Admin(Uuid::now_v7()));
    catalog::commands::publish_all(&env.store, &meta, events, 100, false).await.map_err(|e| format!("{e:?}")).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranking_and_typos_hold_and_postings_follow_every_write() {
    let env = TestEnv::seeded().await;
    let c = &env.client;
    let vixen = env.visitor("vixen");
    let performer = Uuid::now_v7();
    let at = Utc::now();
    publish(
        &env,
        &[CatalogEvent::PerformerPublished {
            performer_id: performer,
            slug: "quokka-marsh".into(),
            name: "Quokka Marsh".into(),
            sex: "F".into(),
            sites: vec!["vixen".into(), "vixenplus".into()],
            published_at: at,
        }],
    )
    .await;
    let category: String =
        sqlx::query_scalar("select slug from category order by slug limit 1").fetch_one(&env.pool).await.unwrap();
    let other: Uuid =
        sqlx::query_scalar("select performer_id from performer where performer_id <> $1 order by slug limit 1")
            .bind(performer)
            .fetch_one(&env.pool)
            .await
            .unwrap();
    // Oldest to newest: the word in a title, a near word in a title, the word as a name.
    let exact_title = video("vixen", "Quokka Afternoon", other, &category, 30);
    let near_title = video("vixen", "Quokkas Afternoon", other, &category, 20);
    let as_name = video("vixen", "Plain Afternoon", performer, &category, 10);
    let elsewhere = video("tushy", "Quokka Afternoon", other, &category, 5);
    let events: Vec<CatalogEvent> = [&exact_title, &near_title, &as_name, &elsewhere]
        .into_iter()
        .map(|v| CatalogEvent::VideoPublished { video: v.clone(), published_at: at })
        .collect();
    publish(&env, &events).await;

    let ids = |r: &catalog::api::SearchResult| r.videos.iter().map(|v| v.uuid).collect::<Vec<_>>();
    let found = c.search(&vixen, "quokka", &Paging::default()).await.unwrap();
    assert_eq!(ids(&found), vec![exact_title.video_id, near_title.video_id, as_name.video_id], "title, near, name");
    assert_eq!(found.total_count, 3);
    assert_eq!(found.terms, vec!["quokka".to_string()]);
    // Misspelt: every word it may have meant, newest first among equals.
    let misspelt = c.search(&vixen, "quokak", &Paging::default()).await.unwrap();
    assert_eq!(
        ids(&misspelt),
        vec![near_title.video_id, exact_title.video_id, as_name.video_id],
        "corrections rank alike, newest first; titles above names"
    );
    // Two words: both must match.
    let both = c.search(&vixen, "quokka afternoon", &Paging::default()).await.unwrap();
    assert_eq!(ids(&both), vec![exact_title.video_id, near_title.video_id, as_name.video_id]);
    let plus = c.search(&env.visitor("vixenplus"), "quokka", &Paging::default()).await.unwrap();
    assert_eq!(plus.videos[0].uuid, elsewhere.video_id, "the combined brand finds every brand's, newest first");
    assert_eq!(plus.total_count, 4);

    // Updated: the title loses the word.
    let mut retitled = exact_title.clone();
    retitled.title = "Wombat Afternoon".into();
    publish(&env, &[CatalogEvent::VideoUpdated { video: retitled, updated_at: Utc::now() }]).await;
    let after = c.search(&vixen, "quokka", &Paging::default()).await.unwrap();
    assert_eq!(ids(&after), vec![near_title.video_id, as_name.video_id]);
    assert_eq!(c.search(&vixen, "wombat", &Paging::default()).await.unwrap().videos[0].uuid, exact_title.video_id);

    // Renamed performer: the name's postings follow.
    publish(
        &env,
        &[CatalogEvent::PerformerPublished {
            performer_id: performer,
            slug: "quokka-marsh".into(),
            name: "Numbat Marsh".into(),
            sex: "F".into(),
            sites: vec!["vixen".into(), "vixenplus".into()],
            published_at: at,
        }],
    )
    .await;
    let renamed = c.search(&vixen, "quokka", &Paging::default()).await.unwrap();
    assert_eq!(ids(&renamed), vec![near_title.video_id]);
    assert_eq!(ids(&c.search(&vixen, "numbat", &Paging::default()).await.unwrap()), vec![as_name.video_id]);

    // Unpublished: no postings left, on the brand or the combined brand.
    publish(&env, &[CatalogEvent::VideoUnpublished { video_id: near_title.video_id, unpublished_at: Utc::now() }])
        .await;
    assert_eq!(c.search(&vixen, "quokkas", &Paging::default()).await.unwrap().total_count, 0);
    let left: i64 =
        env.scalar(&format!("select count(*) from search_posting where video_id = '{}'", near_title.video_id)).await;
    assert_eq!(left, 0);

    // And after all of it the postings still answer what the rows define.
    let mut mix = query_mix(&env).await;
    mix.extend(["quokka", "quokak", "numbat marsh", "wombat afternoon", "afternoon"].map(String::from));
    same_answers(&env, &["vixen", "tushy", "vixenplus"], &mix).await;
    env.cleanup().await;
}

/// Publishers run at once: one renames a performer again and again while another publishes
/// videos naming her. Every video ends with her last name on its card and in its search words,
/// as if they had run one after the other (publishing takes one lock per chunk).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_publishers_leave_names_as_one_after_the_other_would() {
    let env = TestEnv::seeded().await;
    let (performer, slug, sites): (Uuid, String, Vec<String>) =
        sqlx::query_as("select performer_id, slug, sites from performer order by slug limit 1")
            .fetch_one(&env.pool)
            .await
            .unwrap();
    let category: String =
        sqlx::query_scalar("select slug from category order by slug limit 1").fetch_one(&env.pool).await.unwrap();
    const ROUNDS: usize = 25;
    let renames = {
        let (store, slug, sites) = (env.store.clone(), slug.clone(), sites.clone());
        tokio::spawn(async move {
            let meta = EventMeta::new(Actor::Admin(Uuid::now_v7()));
            for round in 0..ROUNDS {
                let renamed = CatalogEvent::PerformerPublished {
                    performer_id: performer,
                    slug: slug.clone(),
                    name: format!("Zelda Round{round}"),
                    sex: "F".into(),
                    sites: sites.clone(),
                    published_at: Utc::now(),
                };
                catalog::commands::publish_all(&store, &meta, &[renamed], 10, false).await.unwrap();
            }
        })
    };
    let videos = {
        let (store, category) = (env.store.clone(), category.clone());
        tokio::spawn(async move {
            let meta = EventMeta::new(Actor::Admin(Uuid::now_v7()));
            for round in 0..ROUNDS {
                let v = video("vixen", &format!("Concurrent clip {round}"), performer, &category, 1);
                let event = CatalogEvent::VideoPublished { video: v, published_at: Utc::now() };
                catalog::commands::publish_all(&store, &meta, &[event], 10, false).await.unwrap();
            }
        })
    };
    renames.await.unwrap();
    videos.await.unwrap();
    let last = format!("Zelda Round{}", ROUNDS - 1);
    let names: Vec<serde_json::Value> =
        sqlx::query_scalar("select performer_refs from video where performer_ids @> array[$1::uuid]")
            .bind(performer)
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert!(names.len() >= ROUNDS);
    for refs in &names {
        let hers = refs.as_array().unwrap().iter().find(|p| p["id"] == performer.to_string().as_str());
        assert_eq!(hers.map(|p| &p["name"]), Some(&serde_json::json!(last)), "{refs}");
    }
    let round_word = format!("round{}", ROUNDS - 1);
    let found = queries::search_set(&env.pool, "vixen", &round_word, &queries::query_words(&round_word)).await.unwrap();
    let on_vixen: i64 = sqlx::query_scalar(
        "select count(*) from video where site = 'vixen' and published and performer_ids @> array[$1::uuid]",
    )
    .bind(performer)
    .fetch_one(&env.pool)
    .await
    .unwrap();
    assert_eq!(found.total, on_vixen, "every video of hers is found by her last name");
    env.cleanup().await;
}
