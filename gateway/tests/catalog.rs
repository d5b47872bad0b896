//! The catalog through the gateway, answered by the real catalog service (its own scratch
//! schema on the real PostgreSQL, the demo catalog seeded): every query with its pagination
//! bounds, filters, gates and empty results; comment and rating rules; moderator-only actions
//! refused to others; comment authors' badges and types; favourites; the REST edge; and the
//! DataLoader's promise that a page costs a fixed number of internal calls whatever it holds
//! (counters in front of the catalog and the profile service see every call).

mod support;

use std::collections::BTreeMap;

use proto_events::subscription::MembershipKind;
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use support::{
    codes, short,
    stack::{Options, Stack},
};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";

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
    Env { stack: Stack::start(Options { seed_catalog: true, with_deals: false, ..Default::default() }).await }
}

impl Env {
    /// A signed-in member of the host's brand (an account with an active membership there).
    async fn member(&self, host: &str, user: Uuid, groups: &[&str]) -> String {
        let tenant = host.split('.').next().unwrap();
        self.stack.member(user, &[tenant], MembershipKind::Member, false).await;
        self.stack.token(user, host, groups)
    }

    async fn ask_on(&self, host: &str, token: Option<&str>, query: &str, variables: Value) -> Value {
        let (status, body) = self.gw.post(host, json!({"query": query, "variables": variables}), token).await;
        assert_eq!(status, StatusCode::OK, "{}", short(&body));
        body
    }

    async fn ask(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        self.ask_on(VIXEN, token, query, variables).await
    }

    /// `data` of an answer that must have no errors.
    async fn data(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let body = self.ask(token, query, variables).await;
        assert!(body.get("errors").is_none(), "{}", short(&body));
        body["data"].clone()
    }

    async fn cleanup(self) {
        self.stack.cleanup().await;
    }
}

fn message(body: &Value) -> String {
    body["errors"][0]["message"].as_str().unwrap_or_default().to_owned()
}

fn count(calls: &[String]) -> BTreeMap<String, usize> {
    let mut by_path = BTreeMap::new();
    for call in calls {
        // Path parameters (slugs, ids) folded, so the counts say which endpoint.
        let key = call.split('/').take(3).collect::<Vec<_>>().join("/");
        let key = if call.ends_with("/batch") || call.ends_with("/check") { call.clone() } else { key };
        *by_path.entry(key).or_insert(0) += 1;
    }
    by_path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listings_page_order_filter_and_bounds() {
    let env = env().await;
    let on_site = env.catalog.scalar("select count(*) from video where site = 'vixen' and published").await;

    let q = "query($page: Int, $size: Int, $order: String, $categories: String, $search: String) {
        videos(page: $page, size: $size, order: $order, categories: $categories, search: $search) {
            totalCount page size videos { uuid newId slug site title releaseDate rating award
                performers { id slug name } categories { slug name } images { poster { src } } } } }";
    let first = env.data(None, q, json!({})).await["videos"].clone();
    assert_eq!((first["page"].as_i64(), first["size"].as_i64()), (Some(1), Some(12)));
    assert_eq!(first["totalCount"].as_i64().unwrap(), on_site);
    let videos = first["videos"].as_array().unwrap();
    assert_eq!(videos.len(), 12);
    assert!(videos.iter().all(|v| v["site"] == "vixen" && !v["performers"].as_array().unwrap().is_empty()));
    let dates: Vec<&str> = videos.iter().map(|v| v["releaseDate"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "newest first");

    // The last page is partial, the one after empty and still counted.
    let last_page = (on_site + 11) / 12;
    let last = env.data(None, q, json!({"page": last_page})).await["videos"].clone();
    assert_eq!(last["videos"].as_array().unwrap().len() as i64, on_site - (last_page - 1) * 12);
    let past = env.data(None, q, json!({"page": last_page + 1})).await["videos"].clone();
    assert_eq!((past["videos"].as_array().unwrap().len(), past["totalCount"].as_i64()), (0, Some(on_site)));

    // Bounds and unknown orders are the caller's mistake.
    for vars in [
        json!({"page": 0}),
        json!({"page": 2_147_483_648_i64}),
        json!({"size": 0}),
        json!({"size": 101}),
        json!({"order": "sideways"}),
    ] {
        let body = env.ask(None, q, vars.clone()).await;
        assert_eq!(codes(&body), ["BAD_USER_INPUT"], "{vars}: {}", short(&body));
    }

    // Top rated, faceted categories, a search lower-cased into categories, no match.
    let top = env.data(None, "{ topRated(size: 20) { videos { rating } } }", json!({})).await;
    let ratings: Vec<f64> =
        top["topRated"]["videos"].as_array().unwrap().iter().map(|v| v["rating"].as_f64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]) && ratings[0] > 0.0, "{ratings:?}");
    let big = env.data(None, q, json!({"categories": "big-scene", "size": 50})).await["videos"].clone();
    assert!(big["totalCount"].as_i64().unwrap() > 0);
    assert!(big["videos"].as_array().unwrap().iter().all(|v| v["categories"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["slug"] == "big-scene")));
    let searched = env.data(None, q, json!({"search": "Big Scene", "size": 50})).await["videos"].clone();
    assert_eq!(searched["totalCount"], big["totalCount"]);
    let none = env.data(None, q, json!({"categories": "no-such-category"})).await["videos"].clone();
    assert_eq!((none["totalCount"].as_i64(), none["videos"].as_array().unwrap().len()), (Some(0), 0));

    // Performers: rating order, girls by default, guys, sex=F, a performer's page.
    let pq = "query($gender: String, $sex: String, $order: String, $page: Int) {
        performers(gender: $gender, sex: $sex, order: $order, page: $page) {
            totalCount performers { slug name sex gender rating videoCount } } }";
    let girls = env.data(None, pq, json!({})).await["performers"].clone();
    let list = girls["performers"].as_array().unwrap();
    assert!(!list.is_empty() && list.iter().all(|p| p["sex"] == "F"));
    let r: Vec<f64> = list.iter().map(|p| p["rating"].as_f64().unwrap()).collect();
    assert!(r.windows(2).all(|w| w[0] >= w[1]), "rating order by default");
    let guys = env.data(None, pq, json!({"gender": "guys"})).await["performers"].clone();
    assert!(guys["performers"].as_array().unwrap().iter().all(|p| p["sex"] == "M"));
    let sex_f = env.data(None, pq, json!({"gender": "guys", "sex": "F"})).await["performers"].clone();
    assert_eq!(sex_f["totalCount"], girls["totalCount"], "sex wins over gender");
    let body = env.ask(None, pq, json!({"order": "height"})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    let body = env.ask(None, pq, json!({"page": 0})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    let past = env.data(None, pq, json!({"page": 100000})).await["performers"].clone();
    assert!(past["performers"].as_array().unwrap().is_empty());
    let slug = list[0]["slug"].as_str().unwrap();
    let page = env
        .data(None, "query($slug: String!) { performer(slug: $slug, size: 5) { performer { slug name } videos { totalCount videos { performers { slug } } } } }", json!({"slug": slug}))
        .await;
    let pv = &page["performer"]["videos"];
    assert!(pv["totalCount"].as_i64().unwrap() > 0);
    assert!(pv["videos"].as_array().unwrap().iter().all(|v| v["performers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["slug"] == slug)));
    let body = env.ask(None, "{ performer(slug: \"no-such-performer\") { performer { slug } } }", json!({})).await;
    assert_eq!(codes(&body), ["NOT_FOUND"]);

    // Categories and filters.
    let cats = env.data(None, "{ categories { slug name videoCount image { src } } }", json!({})).await;
    assert_eq!(cats["categories"].as_array().unwrap().len(), 24);
    let f = env
        .data(None, "{ getAllFilters(site: \"VIXEN\", minScenes: 10) { categories { scenes } performers { scenes } channels { slug } } }", json!({}))
        .await["getAllFilters"]
        .clone();
    assert!(["categories", "performers"].iter().all(|k| f[k]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["scenes"].as_i64().unwrap() >= 10)));
    let only = env
        .data(
            None,
            "{ getAllFilters(filter: \"categories\") { categories { slug } performers { slug } channels { slug } } }",
            json!({}),
        )
        .await["getAllFilters"]
        .clone();
    assert_eq!((only["categories"].as_array().unwrap().len(), only["performers"].as_array().unwrap().len()), (24, 0));
    let none = env
        .data(None, "{ getAllFilters(minScenes: 100000) { categories { slug } performers { slug } } }", json!({}))
        .await["getAllFilters"]
        .clone();
    assert!(none["categories"].as_array().unwrap().is_empty() && none["performers"].as_array().unwrap().is_empty());
    let body = env.ask(None, "{ getAllFilters(filter: \"colours\") { categories { slug } } }", json!({})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    let body = env.ask(None, "{ getAllFilters(site: \"tushy\") { categories { slug } } }", json!({})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"], "another brand's site is not read through this host");

    // Search: a title, a typo, empty text, no match, bounds.
    let title = videos[0]["title"].as_str().unwrap();
    let sq = "query($q: String, $page: Int, $size: Int) { search(q: $q, page: $page, size: $size) { q totalCount page size terms videos { title } performers { slug name gender } categories { slug } } }";
    let found = env.data(None, sq, json!({"q": title})).await["search"].clone();
    assert!(found["videos"].as_array().unwrap().iter().any(|v| v["title"] == title), "{title}");
    let empty = env.data(None, sq, json!({"q": "  "})).await["search"].clone();
    assert_eq!((empty["totalCount"].as_i64(), empty["videos"].as_array().unwrap().len()), (Some(0), 0));
    let nothing = env.data(None, sq, json!({"q": "zzqqxxyy"})).await["search"].clone();
    assert_eq!(nothing["totalCount"], 0);
    let body = env.ask(None, sq, json!({"q": "summer", "size": 101})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    let cat_hit = env.data(None, sq, json!({"q": "lingerie"})).await["search"].clone();
    assert!(cat_hit["categories"].as_array().unwrap().iter().any(|c| c["slug"] == "lingerie"));

    // Sister brands: one of the tenant's standalone sites, never itself, else not-found.
    let sv = "query($brand: String!) { sisterSiteVideos(brand: $brand, size: 5) { totalCount videos { site } } }";
    let tushy = env.data(None, sv, json!({"brand": "tushy"})).await["sisterSiteVideos"].clone();
    assert!(tushy["totalCount"].as_i64().unwrap() > 0);
    assert!(tushy["videos"].as_array().unwrap().iter().all(|v| v["site"] == "tushy"));
    for brand in ["vixen", "nosuchbrand", "vixenplus"] {
        let body = env.ask(None, sv, json!({"brand": brand})).await;
        assert_eq!(codes(&body), ["NOT_FOUND"], "{brand}");
    }
    let sp = env
        .data(None, "{ sisterSitePerformers(brand: \"blacked\") { totalCount performers { sites } } }", json!({}))
        .await["sisterSitePerformers"]
        .clone();
    assert!(sp["performers"].as_array().unwrap().iter().all(|p| p["sites"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == "blacked")));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn video_pages_picture_sets_awards_channels_and_gated_parts() {
    let env = env().await;
    let user = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    let slug: String = sqlx::query_scalar(
        "select v.slug from video v where v.site = 'vixen' and v.published and v.channel_pack_id is null and exists (select 1 from picture_set p where p.video_id = v.video_id) order by v.slug limit 1",
    )
    .fetch_one(&env.catalog.pool)
    .await
    .unwrap();

    let gv =
        "query($slug: String!, $related: Int) { getVideo(videoSlug: $slug, site: \"vixen\", relatedCount: $related) {
        video { slug title channel { slug } } related { slug site } hasPictureSet commentCount userRating } }";
    let detail = env.data(None, gv, json!({"slug": slug, "related": 4})).await["getVideo"].clone();
    assert_eq!(detail["video"]["slug"], slug.as_str());
    assert_eq!((detail["userRating"].as_i64(), detail["hasPictureSet"].as_bool()), (Some(-1), Some(true)));
    let related = detail["related"].as_array().unwrap();
    assert!(!related.is_empty() && related.len() <= 4 && related.iter().all(|r| r["slug"] != slug.as_str()));
    let none = env.data(None, gv, json!({"slug": slug, "related": 0})).await;
    assert!(none["getVideo"]["related"].as_array().unwrap().is_empty());

    // A visitor's trailer: a generated MP4 under /media/trailers/ (never the full videos'
    // /media/videos/), whole or by range through the gateway, with no session at all.
    let tq = "query($slug: String!) { getVideo(videoSlug: $slug) { video { qualities trailer { src poster } } } }";
    let visitor = env.data(None, tq, json!({"slug": slug})).await["getVideo"]["video"].clone();
    assert_eq!(visitor["qualities"], json!([]), "the full video stays locked");
    let src = visitor["trailer"]["src"].as_str().unwrap().to_owned();
    assert_eq!(src, format!("/media/trailers/{slug}.mp4"));
    let media = |path: &str, range: Option<&str>| {
        let mut request = env.gw.client.get(format!("{}{path}", env.gw.base)).header(header::HOST, VIXEN);
        if let Some(range) = range {
            request = request.header(header::RANGE, range);
        }
        request.send()
    };
    let whole = media(&src, None).await.unwrap();
    assert_eq!(whole.status(), StatusCode::OK);
    assert_eq!(whole.headers()[header::CONTENT_TYPE], "video/mp4");
    assert_eq!(whole.headers()[header::ACCEPT_RANGES], "bytes");
    let clip = whole.bytes().await.unwrap();
    assert_eq!(&clip[4..8], b"ftyp");
    let part = media(&src, Some("bytes=0-99")).await.unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.headers()[header::CONTENT_RANGE], format!("bytes 0-99/{}", clip.len()).as_str());
    assert_eq!(part.bytes().await.unwrap(), clip.slice(0..100));
    let past = media(&src, Some(&format!("bytes={}-", clip.len()))).await.unwrap();
    assert_eq!(past.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(media("/media/trailers/Bad_Slug.mp4", None).await.unwrap().status(), StatusCode::NOT_FOUND);
    for (vars, code) in [
        (json!({"slug": "no-such-video"}), "NOT_FOUND"),
        (json!({"slug": "Bad_Slug"}), "NOT_FOUND"),
        (json!({"slug": slug, "related": 101}), "BAD_USER_INPUT"),
        (json!({"slug": slug, "related": -1}), "BAD_USER_INPUT"),
    ] {
        let body = env.ask(None, gv, vars.clone()).await;
        assert_eq!(codes(&body), [code], "{vars}");
    }

    // Picture sets: for signed-in users.
    let ps = "query($slug: String!) { getPictureSet(videoSlug: $slug) { videoSlug site images { src width height fileExtensions highdpi { double triple } } } }";
    let body = env.ask(None, ps, json!({"slug": slug})).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"]);
    let set = env.data(Some(&user), ps, json!({"slug": slug})).await["getPictureSet"].clone();
    assert_eq!(set["videoSlug"], slug.as_str());
    assert!(set["images"].as_array().unwrap().len() >= 8);
    let body = env.ask(Some(&user), ps, json!({"slug": "no-such-video"})).await;
    assert_eq!(codes(&body), ["NOT_FOUND"]);

    // Awards: award = 1, newest first, totalCount; skip past the end is empty; gated by the
    // tenant's awards link (off on blackedraw).
    let aq = "query($skip: Int, $first: Int) { getAwardedVideos(skip: $skip, first: $first, site: \"vixen\") { totalCount videos { award releaseDate } } }";
    let awarded = env.data(None, aq, json!({"first": 50})).await["getAwardedVideos"].clone();
    let total = env.catalog.scalar("select count(*) from video where site = 'vixen' and published and award = 1").await;
    assert_eq!(awarded["totalCount"].as_i64(), Some(total));
    assert!(awarded["videos"].as_array().unwrap().iter().all(|v| v["award"] == 1));
    let skipped = env.data(None, aq, json!({"skip": total})).await["getAwardedVideos"].clone();
    assert!(skipped["videos"].as_array().unwrap().is_empty());
    for vars in [json!({"skip": -1}), json!({"first": 0})] {
        assert_eq!(codes(&env.ask(None, aq, vars).await), ["BAD_USER_INPUT"]);
    }
    // By page, as the awards route asks: every page from 1 to 2147483647 / 3 answers, the
    // offset computed in 64 bits by the catalog; a skip past 32 bits, page 0, a page past 32
    // bits or both a skip and a page are the caller's mistake, never an internal error.
    let pq = "query($page: Int, $skip: Int, $first: Int) { getAwardedVideos(page: $page, skip: $skip, first: $first) { totalCount videos { slug } } }";
    let page2 = env.data(None, pq, json!({"page": 2, "first": 2})).await["getAwardedVideos"].clone();
    let skip2 = env.data(None, pq, json!({"skip": 2, "first": 2})).await["getAwardedVideos"].clone();
    assert_eq!(page2["videos"], skip2["videos"]);
    let last = env.data(None, pq, json!({"page": 715_827_882, "first": 12})).await["getAwardedVideos"].clone();
    assert_eq!((last["totalCount"].as_i64(), last["videos"].as_array().unwrap().len()), (Some(total), 0));
    for vars in [
        json!({"skip": 8_589_934_572_i64}),
        json!({"page": 0}),
        json!({"page": 2_147_483_648_i64}),
        json!({"page": "two"}),
        json!({"page": 1, "skip": 0}),
    ] {
        let body = env.ask(None, pq, vars.clone()).await;
        assert_eq!(codes(&body), ["BAD_USER_INPUT"], "{vars}: {}", short(&body));
        assert!(!body["errors"][0]["message"].as_str().unwrap().is_empty());
    }
    let body = env.ask(None, "{ getAwardedVideos(page: 2147483648) { totalCount } }", json!({})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"], "a literal too: {}", short(&body));
    let body = env.ask_on("blackedraw.localhost:8080", None, "{ getAwardedVideos { totalCount } }", json!({})).await;
    assert_eq!(codes(&body), ["NOT_FOUND"]);

    // Channels: the list, one channel with packs, its pages, the widget, a pack, all videos.
    let channels = env.data(None, "{ channels(size: 20) { totalCount channels { slug name category isThirdParty packs { slug name videoIds } } } }", json!({})).await["channels"].clone();
    assert_eq!(channels["totalCount"], 8);
    let btl = env
        .data(
            None,
            "{ channel(channelSlug: \"behind-the-lens\") { slug category isThirdParty packs { slug videoIds } } }",
            json!({}),
        )
        .await["channel"]
        .clone();
    assert_eq!((btl["category"].as_str(), btl["isThirdParty"].as_bool()), (Some("Behind The Scenes"), Some(false)));
    let widget = env
        .data(
            None,
            "{ getChannelVideos(channelSlug: \"behind-the-lens\") { site channel { slug channelPackId } } }",
            json!({}),
        )
        .await["getChannelVideos"]
        .clone();
    let widget = widget.as_array().unwrap();
    assert_eq!(widget.len(), 6);
    assert!(widget.iter().all(|v| v["site"] == "channels" && v["channel"]["slug"] == "behind-the-lens"));
    let cv = env.data(None, "{ channelVideos(channelSlug: \"behind-the-lens\", size: 5) { totalCount size videos { channel { slug } } } }", json!({})).await["channelVideos"].clone();
    assert!(cv["totalCount"].as_i64().unwrap() >= 6 && cv["videos"].as_array().unwrap().len() == 5);
    let pack = &btl["packs"][0];
    let pq = "query($pack: String!) { channelPack(channelSlug: \"behind-the-lens\", channelPackSlug: $pack) { pack { slug videoIds videos { uuid } } channel { slug } videos { totalCount videos { uuid } } } }";
    let pd = env.data(None, pq, json!({"pack": pack["slug"]})).await["channelPack"].clone();
    let pack_ids = pack["videoIds"].as_array().unwrap();
    assert_eq!(pd["videos"]["totalCount"].as_i64(), Some(pack_ids.len() as i64));
    assert!(pd["videos"]["videos"].as_array().unwrap().iter().all(|v| pack_ids.contains(&v["uuid"])));
    assert_eq!(pd["pack"]["videos"].as_array().unwrap().len(), pack_ids.len(), "the pack's videos load by id");
    for (q, code) in [
        ("{ channel(channelSlug: \"no-such-channel\") { slug } }", "NOT_FOUND"),
        (
            "{ channelPack(channelSlug: \"behind-the-lens\", channelPackSlug: \"no-such-pack\") { pack { slug } } }",
            "NOT_FOUND",
        ),
        ("{ channels(page: 0) { totalCount } }", "BAD_USER_INPUT"),
    ] {
        assert_eq!(codes(&env.ask(None, q, json!({})).await), [code], "{q}");
    }
    let all = "{ allChannelVideos(size: 3) { totalCount videos { site } } }";
    assert_eq!(codes(&env.ask(None, all, json!({})).await), ["UNAUTHENTICATED"]);
    let all = env.data(Some(&user), all, json!({})).await["allChannelVideos"].clone();
    assert_eq!(
        all["totalCount"].as_i64(),
        Some(env.catalog.scalar("select count(*) from video where site = 'channels'").await)
    );
    // slayed has no channels.
    let body = env.ask_on("slayed.localhost:8080", None, "{ channels { totalCount } }", json!({})).await;
    assert_eq!(codes(&body), ["NOT_FOUND"]);

    // Recommendation shelves with their recommIds.
    let rq = "query($videoId: ID, $shelf: RecommendationShelf, $cross: Boolean, $limit: Int) {
        recommendations(site: \"vixen\", videoId: $videoId, shelf: $shelf, crossNavigation: $cross, limit: $limit) {
            recommId shelf videos { uuid site } performers { slug } } }";
    let home = env.data(None, rq, json!({"limit": 6})).await["recommendations"].clone();
    assert_eq!(home["shelf"], "HOME_RECOMMENDATIONS");
    assert!(home["recommId"].as_str().unwrap().starts_with("rc-"));
    let vids = home["videos"].as_array().unwrap();
    assert!(!vids.is_empty() && vids.len() <= 6);
    let video_id = detail_uuid(&env, &slug).await;
    let plain = env.data(None, rq, json!({"videoId": video_id})).await["recommendations"].clone();
    assert_eq!(plain["shelf"], "VIDEO_PAGE_RECOMMENDATIONS");
    let cross = env.data(None, rq, json!({"videoId": video_id, "cross": true})).await["recommendations"].clone();
    assert_eq!(cross["shelf"], "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION");
    assert_ne!(cross["recommId"], plain["recommId"]);
    let models = env.data(None, rq, json!({"shelf": "RECOMMENDED_MODELS"})).await["recommendations"].clone();
    assert!(!models["performers"].as_array().unwrap().is_empty());
    let body = env.ask(None, rq, json!({"shelf": "VIDEO_PAGE_RECOMMENDATIONS"})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"], "a video page shelf needs its video");
    assert_eq!(codes(&env.ask(None, rq, json!({"limit": 0})).await), ["BAD_USER_INPUT"]);

    // Reels, showcases, angels and the wall on vixen, not-found where the tenant lacks them.
    let reels = env.data(None, "{ reels { totalCount reels { uuid site videoSlug bookmarked } } }", json!({})).await
        ["reels"]
        .clone();
    assert_eq!(reels["totalCount"], 6);
    let reel_id = reels["reels"][0]["uuid"].clone();
    let one = env.data(None, "query($id: ID!) { reel(uuid: $id) { uuid } }", json!({"id": reel_id})).await;
    assert_eq!(one["reel"]["uuid"], reel_id);
    let body = env.ask(None, "query($id: ID!) { reel(uuid: $id) { uuid } }", json!({"id": Uuid::now_v7()})).await;
    assert_eq!(codes(&body), ["NOT_FOUND"]);
    let showcases = env.data(None, "{ showcases { slug videos { slug } } }", json!({})).await["showcases"].clone();
    assert_eq!(showcases.as_array().unwrap().len(), 3);
    let sc =
        env.data(None, "query($s: String!) { showcase(slug: $s) { slug } }", json!({"s": showcases[0]["slug"]})).await;
    assert_eq!(sc["showcase"]["slug"], showcases[0]["slug"]);
    let angels = env.data(None, "{ angels { slug performer { slug gender } videos { slug } } }", json!({})).await
        ["angels"]
        .clone();
    assert_eq!(angels.as_array().unwrap().len(), 6);
    assert!(angels
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["performer"]["gender"].as_str().is_some_and(|g| !g.is_empty())));
    let angel =
        env.data(None, "query($s: String!) { angel(slug: $s) { slug } }", json!({"s": angels[0]["slug"]})).await;
    assert_eq!(angel["angel"]["slug"], angels[0]["slug"]);
    let wall = env.data(None, "{ curatorWall { title video { slug } } }", json!({})).await["curatorWall"].clone();
    assert_eq!(wall.as_array().unwrap().len(), 6);
    for q in ["{ reels { totalCount } }", "{ showcases { slug } }", "{ angels { slug } }", "{ curatorWall { title } }"]
    {
        let body = env.ask_on("milfy.localhost:8080", None, q, json!({})).await;
        assert_eq!(codes(&body), ["NOT_FOUND"], "{q}");
    }
    env.cleanup().await;
}

async fn detail_uuid(env: &Env, slug: &str) -> String {
    let d =
        env.data(None, "query($s: String!) { getVideo(videoSlug: $s) { video { uuid } } }", json!({"s": slug})).await;
    d["getVideo"]["video"]["uuid"].as_str().unwrap().to_owned()
}

async fn first_video(env: &Env) -> String {
    let d = env.data(None, "{ videos(size: 1) { videos { uuid } } }", json!({})).await;
    d["videos"]["videos"][0]["uuid"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comments_votes_and_moderation() {
    let env = env().await;
    let video = first_video(&env).await;
    let (alice, bob) = (Uuid::now_v7(), Uuid::now_v7());
    let a = env.member(VIXEN, alice, &[]).await;
    let b = env.member(VIXEN, bob, &[]).await;
    let editor = env.member(VIXEN, Uuid::now_v7(), &["commenteditor"]).await;
    let admin = env.member(VIXEN, Uuid::now_v7(), &["admin"]).await;
    let add = "mutation($v: ID!, $t: String!) { addComment(videoId: $v, text: $t) { id text parentId isMine pinned } }";

    let body = env.ask(None, add, json!({"v": video, "t": "Hello"})).await;
    assert_eq!(codes(&body), ["UNAUTHENTICATED"]);
    let first =
        env.data(Some(&a), add, json!({"v": video, "t": "Lovely light in this one."})).await["addComment"].clone();
    assert_eq!(first["isMine"], true);
    let first_id = first["id"].as_str().unwrap().to_owned();
    let body = env.ask(Some(&a), add, json!({"v": video, "t": "  lovely LIGHT in   this one. "})).await;
    assert_eq!(
        (codes(&body), message(&body)),
        (vec!["DUPLICATE_COMMENT".to_owned()], "You have already made that comment".to_owned())
    );
    env.data(Some(&b), add, json!({"v": video, "t": "Lovely light in this one."})).await;
    let body = env.ask(Some(&a), add, json!({"v": video, "t": "Visit my casino now"})).await;
    assert_eq!((codes(&body), message(&body)), (vec!["BANNED_WORD".to_owned()], "Found banned word".to_owned()));
    assert_eq!(codes(&env.ask(Some(&a), add, json!({"v": video, "t": "   "})).await), ["INVALID_COMMENT"]);
    assert_eq!(codes(&env.ask(Some(&a), add, json!({"v": Uuid::now_v7(), "t": "Nice"})).await), ["NOT_FOUND"]);
    assert_eq!(codes(&env.ask(Some(&a), add, json!({"v": "not-a-uuid", "t": "Nice"})).await), ["BAD_USER_INPUT"]);

    // A reply; never to a reply.
    let reply = "mutation($c: ID!, $t: String!) { replyToComment(commentId: $c, text: $t) { id parentId isMine } }";
    let answer = env.data(Some(&b), reply, json!({"c": first_id, "t": "Agreed, the colours are great."})).await
        ["replyToComment"]
        .clone();
    assert_eq!(answer["parentId"], first_id.as_str());
    let body = env.ask(Some(&a), reply, json!({"c": answer["id"], "t": "Thanks!"})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    let replies = env
        .data(
            Some(&a),
            "query($c: ID!) { commentReplies(commentId: $c) { totalCount comments { id isMine } } }",
            json!({"c": first_id}),
        )
        .await["commentReplies"]
        .clone();
    assert_eq!((replies["totalCount"].as_i64(), &replies["comments"][0]["id"]), (Some(1), &answer["id"]));
    assert_eq!(replies["comments"][0]["isMine"], false);

    // Votes, once each.
    let vote =
        "mutation($c: ID!, $v: CommentVote!) { voteComment(commentId: $c, vote: $v) { likes dislikes userVote } }";
    let liked = env.data(Some(&b), vote, json!({"c": first_id, "v": "like"})).await["voteComment"].clone();
    assert_eq!((liked["likes"].as_i64(), liked["userVote"].as_str()), (Some(1), Some("like")));
    let body = env.ask(Some(&b), vote, json!({"c": first_id, "v": "like"})).await;
    assert_eq!(
        (codes(&body), message(&body)),
        (vec!["ALREADY_LIKED".to_owned()], "You have already liked this comment".to_owned())
    );
    env.data(Some(&a), vote, json!({"c": answer["id"], "v": "dislike"})).await;
    assert_eq!(codes(&env.ask(Some(&a), vote, json!({"c": answer["id"], "v": "dislike"})).await), ["ALREADY_DISLIKED"]);

    // Sort and load more.
    for i in 0..5 {
        env.data(Some(&a), add, json!({"v": video, "t": format!("Comment number {i}")})).await;
    }
    let list = "query($v: ID!, $sort: CommentSort, $after: String, $size: Int) {
        comments(videoId: $v, sort: $sort, after: $after, size: $size) { totalCount nextCursor comments { id text pinned } } }";
    let top = env.data(None, list, json!({"v": video, "sort": "top", "size": 3})).await["comments"].clone();
    assert_eq!(top["totalCount"], 7);
    assert_eq!(top["comments"][0]["id"], first_id.as_str(), "the liked one first");
    let more = env.data(None, list, json!({"v": video, "sort": "top", "size": 3, "after": top["nextCursor"]})).await
        ["comments"]
        .clone();
    let rest = env.data(None, list, json!({"v": video, "sort": "top", "size": 3, "after": more["nextCursor"]})).await
        ["comments"]
        .clone();
    assert_eq!(rest["comments"].as_array().unwrap().len(), 1);
    assert!(rest["nextCursor"].is_null());
    let newest = env.data(None, list, json!({"v": video})).await["comments"].clone();
    assert_eq!(newest["comments"][0]["text"], "Comment number 4");
    let oldest = env.data(None, list, json!({"v": video, "sort": "oldest"})).await["comments"].clone();
    assert_eq!(oldest["comments"][0]["id"], first_id.as_str());
    for vars in [json!({"v": video, "size": 0}), json!({"v": video, "size": 101}), json!({"v": video, "after": "x"})] {
        assert_eq!(codes(&env.ask(None, list, vars.clone()).await), ["BAD_USER_INPUT"], "{vars}");
    }
    // An unknown video (or another brand's) has no comments here: it is not found.
    assert_eq!(codes(&env.ask(None, list, json!({"v": Uuid::now_v7()})).await), ["NOT_FOUND"]);

    // Moderation: pin, unpin and remove are the moderators'.
    let pin = "mutation($c: ID!) { pinComment(commentId: $c) { id pinned } }";
    let unpin = "mutation($c: ID!) { unpinComment(commentId: $c) { id pinned } }";
    let remove = "mutation($c: ID!) { removeComment(commentId: $c) { id removed } }";
    for q in [pin, unpin, remove] {
        assert_eq!(codes(&env.ask(Some(&a), q, json!({"c": first_id})).await), ["FORBIDDEN"], "{q}");
        assert_eq!(codes(&env.ask(None, q, json!({"c": first_id})).await), ["UNAUTHENTICATED"], "{q}");
    }
    let last = newest["comments"][0]["id"].as_str().unwrap().to_owned();
    let pinned = env.data(Some(&editor), pin, json!({"c": last})).await["pinComment"].clone();
    assert_eq!(pinned["pinned"], true);
    let now = env.data(None, list, json!({"v": video, "sort": "oldest"})).await["comments"].clone();
    assert_eq!(now["comments"][0]["id"], last.as_str(), "pinned on top");
    assert_eq!(
        codes(&env.ask(Some(&editor), pin, json!({"c": answer["id"]})).await),
        ["BAD_USER_INPUT"],
        "a reply is not pinned"
    );
    let unpinned = env.data(Some(&admin), unpin, json!({"c": last})).await["unpinComment"].clone();
    assert_eq!(unpinned["pinned"], false);
    let removed = env.data(Some(&admin), remove, json!({"c": last})).await["removeComment"].clone();
    assert_eq!(removed["removed"], true);
    let after = env.data(None, list, json!({"v": video})).await["comments"].clone();
    assert_eq!(after["totalCount"], 6);
    assert!(after["comments"].as_array().unwrap().iter().all(|c| c["id"] != last.as_str()));
    env.data(Some(&editor), remove, json!({"c": first_id})).await;
    assert_eq!(codes(&env.ask(Some(&editor), remove, json!({"c": Uuid::now_v7()})).await), ["NOT_FOUND"]);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comment_authors_carry_their_badges_and_type_at_one_profile_call_a_page() {
    let env = env().await;
    let video = first_video(&env).await;
    let days = |n| chrono::Utc::now() - chrono::Duration::days(n);
    // A moderator (commenteditor, in the profile as in the token) and member of 400 days: gold.
    let moderator = Uuid::now_v7();
    env.member_since(moderator, &["vixen"], MembershipKind::Member, false, days(400)).await;
    env.grant_group(moderator, "commenteditor").await;
    let moderator_token = env.token(moderator, VIXEN, &["commenteditor"]);
    // A member of 100 days: bronze.
    let member = Uuid::now_v7();
    env.member_since(member, &["vixen"], MembershipKind::Member, false, days(100)).await;
    let member_token = env.token(member, VIXEN, &[]);
    // Members of 40 days, each with a comment, so a page holds many authors.
    let mut others = Vec::new();
    for _ in 0..6 {
        others.push(env.member(VIXEN, Uuid::now_v7(), &[]).await);
    }
    let add = "mutation($v: ID!, $t: String!) { addComment(videoId: $v, text: $t) { id author { badges userType } } }";
    let by_moderator = env.data(Some(&moderator_token), add, json!({"v": video, "t": "Please keep it civil."})).await
        ["addComment"]
        .clone();
    assert_eq!(by_moderator["author"], json!({"badges": ["gold", "moderator"], "userType": "moderator"}));
    let by_member =
        env.data(Some(&member_token), add, json!({"v": video, "t": "What a scene."})).await["addComment"].clone();
    for (i, token) in others.iter().enumerate() {
        env.data(Some(token), add, json!({"v": video, "t": format!("A newcomer's comment {i}")})).await;
    }
    for i in 0..4 {
        env.data(Some(&member_token), add, json!({"v": video, "t": format!("More from a member {i}")})).await;
    }

    let list =
        "query($v: ID!, $size: Int, $after: String) { comments(videoId: $v, size: $size, after: $after, sort: oldest) {
        nextCursor comments { id authorName author { badges userType } } } }";
    for size in [3, 11] {
        env.take_profile_calls();
        let page = env.data(None, list, json!({"v": video, "size": size})).await["comments"].clone();
        let comments = page["comments"].as_array().unwrap().clone();
        assert_eq!(comments.len(), size);
        assert_eq!(env.take_profile_calls(), ["GET /internal/users/public"], "a page of {size} comments");
        let author = |id: &Value| comments.iter().find(|c| c["id"] == *id).unwrap()["author"].clone();
        assert_eq!(author(&by_moderator["id"]), json!({"badges": ["gold", "moderator"], "userType": "moderator"}));
        assert_eq!(author(&by_member["id"]), json!({"badges": ["bronze"], "userType": "member"}));
        if size == 11 {
            let newcomers =
                comments.iter().filter(|c| c["author"] == json!({"badges": [], "userType": "member"})).count();
            assert_eq!(newcomers, 6, "members of 40 days: no badge yet");
            // The next page: one more call (the loader's cache is the operation's).
            env.data(None, list, json!({"v": video, "size": size, "after": page["nextCursor"]})).await;
            assert_eq!(env.take_profile_calls(), ["GET /internal/users/public"]);
        }
    }
    // Replies: one call a page too; a page that does not ask for authors makes none.
    let reply = "mutation($c: ID!, $t: String!) { replyToComment(commentId: $c, text: $t) { id } }";
    env.data(Some(&member_token), reply, json!({"c": by_moderator["id"], "t": "Agreed."})).await;
    env.data(Some(&others[0]), reply, json!({"c": by_moderator["id"], "t": "Sure."})).await;
    env.take_profile_calls();
    let replies = env
        .data(
            None,
            "query($c: ID!) { commentReplies(commentId: $c) { comments { author { badges userType } } } }",
            json!({"c": by_moderator["id"]}),
        )
        .await["commentReplies"]["comments"]
        .clone();
    assert_eq!(
        replies,
        json!([{"author": {"badges": ["bronze"], "userType": "member"}}, {"author": {"badges": [], "userType": "member"}}])
    );
    assert_eq!(env.take_profile_calls(), ["GET /internal/users/public"]);
    env.data(None, list, json!({"v": video, "size": 11})).await;
    env.data(
        None,
        "query($v: ID!) { comments(videoId: $v, size: 11) { comments { id authorName } } }",
        json!({"v": video}),
    )
    .await;
    assert_eq!(env.take_profile_calls(), ["GET /internal/users/public"], "only the page that asks for authors");

    // The display name, where set, beside the author's comments: the profile's, read with the badges.
    let named = "mutation($n: String!) { setDisplayName(displayName: $n) { displayName } }";
    env.data(Some(&member_token), named, json!({"n": "Quiet Viewer"})).await;
    env.take_profile_calls();
    let page = env
        .data(
            None,
            "query($v: ID!) { comments(videoId: $v, size: 11, sort: oldest) { comments { id authorName author { displayName } } } }",
            json!({"v": video}),
        )
        .await["comments"]["comments"]
        .clone();
    let shown =
        |id: &Value| page.as_array().unwrap().iter().find(|c| c["id"] == *id).unwrap()["author"]["displayName"].clone();
    assert_eq!(shown(&by_member["id"]), json!("Quiet Viewer"));
    assert_eq!(shown(&by_moderator["id"]), Value::Null, "no display name set: the username stands");
    assert_eq!(env.take_profile_calls(), ["GET /internal/users/public"]);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_expert_review_and_the_write_limit() {
    let env = env().await;
    let video = first_video(&env).await;
    let user = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    let update = "mutation($v: ID!, $slug: String, $type: ExpertReviewType!, $r: Int!) {
        updateExpertReview(videoId: $v, slug: $slug, type: $type, rating: $r, recommId: \"rc-test\") {
            expertReview { global properties { slug rating } models { slug rating } } userVideoRatings { videoId rating } videoRating } }";
    let review = env.data(Some(&user), "query($v: ID!) { expertReview(videoId: $v) { expertReview { global properties { slug name tooltip rating } models { slug } } userVideoRatings { rating } } }", json!({"v": video})).await["expertReview"].clone();
    assert_eq!(
        (review["expertReview"]["global"].as_i64(), review["userVideoRatings"]["rating"].as_i64()),
        (Some(-1), Some(-1))
    );
    let criterion = review["expertReview"]["properties"][0]["slug"].as_str().unwrap().to_owned();
    let model = review["expertReview"]["models"][0]["slug"].as_str().unwrap().to_owned();
    assert_eq!(
        codes(
            &env.ask(None, "query($v: ID!) { expertReview(videoId: $v) { videoRating } }", json!({"v": video})).await
        ),
        ["UNAUTHENTICATED"]
    );

    // The overall rating comes first.
    let body = env.ask(Some(&user), update, json!({"v": video, "slug": criterion, "type": "property", "r": 4})).await;
    assert_eq!(codes(&body), ["OVERALL_RATING_FIRST"]);
    assert_eq!(message(&body), "Oops! Please leave your overall rating first to continue");
    for r in [0, 11] {
        let body = env
            .ask(
                Some(&user),
                "mutation($v: ID!, $r: Int!) { rateVideo(videoId: $v, rating: $r) { videoRating } }",
                json!({"v": video, "r": r}),
            )
            .await;
        assert_eq!(codes(&body), ["RATING_OUT_OF_RANGE"], "{r}");
    }
    let rated = env.data(Some(&user), "mutation($v: ID!) { rateVideo(videoId: $v, rating: 8) { userVideoRatings { rating } expertReview { global } videoRating } }", json!({"v": video})).await["rateVideo"].clone();
    assert_eq!(
        (rated["userVideoRatings"]["rating"].as_i64(), rated["expertReview"]["global"].as_i64()),
        (Some(8), Some(8))
    );
    let again = "mutation($v: ID!) { rateVideo(videoId: $v, rating: 9) { videoRating } }";
    let body = env.ask(Some(&user), again, json!({"v": video})).await;
    assert_eq!((codes(&body), message(&body)), (vec!["ALREADY_RATED".to_owned()], "You have already rated".to_owned()));
    // The expert review's global item changes the overall rating.
    let global = env.data(Some(&user), update, json!({"v": video, "type": "global", "r": 9})).await
        ["updateExpertReview"]
        .clone();
    assert_eq!(global["expertReview"]["global"], 9);
    let body = env.ask(Some(&user), update, json!({"v": video, "slug": criterion, "type": "property", "r": 6})).await;
    assert_eq!(codes(&body), ["RATING_OUT_OF_RANGE"], "properties are rated 1 to 5");
    let after = env.data(Some(&user), update, json!({"v": video, "slug": criterion, "type": "property", "r": 5})).await
        ["updateExpertReview"]
        .clone();
    assert!(after["expertReview"]["properties"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["slug"] == criterion.as_str() && p["rating"] == 5));
    let after = env.data(Some(&user), update, json!({"v": video, "slug": model, "type": "model", "r": 3})).await
        ["updateExpertReview"]
        .clone();
    assert!(after["expertReview"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["slug"] == model.as_str() && m["rating"] == 3));
    let body = env
        .ask(Some(&user), update, json!({"v": video, "slug": "no-such-criterion", "type": "property", "r": 3}))
        .await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    // The page shows the member's rating.
    let slug: String = sqlx::query_scalar("select slug from video where video_id = $1::uuid")
        .bind(&video)
        .fetch_one(&env.catalog.pool)
        .await
        .unwrap();
    let page = env
        .data(Some(&user), "query($s: String!) { getVideo(videoSlug: $s) { userRating } }", json!({"s": slug}))
        .await;
    assert_eq!(page["getVideo"]["userRating"], 9);

    // Writes count against the Write limit one by one, aliases included (120 a minute; a
    // document holds at most 50 aliases, so three of 40, then one more).
    let other = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    let rates = |n: usize| -> String {
        (0..n).map(|i| format!("r{i}: rateVideo(videoId: \"{video}\", rating: 0) {{ videoRating }} ")).collect()
    };
    for _ in 0..3 {
        let body = env.ask(Some(&other), &format!("mutation {{ {} }}", rates(40)), json!({})).await;
        let codes = codes(&body);
        assert_eq!(codes.len(), 40, "{}", short(&body));
        assert!(codes.iter().all(|c| c != "RATE_LIMITED"), "{codes:?}");
    }
    let body = env.ask(Some(&other), &format!("mutation {{ {} }}", rates(1)), json!({})).await;
    assert_eq!(codes(&body), ["RATE_LIMITED"], "{}", short(&body));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn favourites_of_videos_performers_and_channels() {
    let env = env().await;
    let user = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    let page = env.data(None, "{ videos(size: 3) { videos { uuid isFavorite performers { id } } } ch: channels { channels { channelId } } }", json!({})).await;
    let video = page["videos"]["videos"][0]["uuid"].as_str().unwrap().to_owned();
    let performer = page["videos"]["videos"][0]["performers"][0]["id"].as_str().unwrap().to_owned();
    let channel = page["ch"]["channels"][0]["channelId"].as_str().unwrap().to_owned();
    assert_eq!(page["videos"]["videos"][0]["isFavorite"], false, "visitors have no favourites");

    let add = "mutation($k: FavoriteKind!, $id: ID!) { addFavorite(kind: $k, id: $id) { kind id favorite } }";
    let remove = "mutation($k: FavoriteKind!, $id: ID!) { removeFavorite(kind: $k, id: $id) { kind id favorite } }";
    assert_eq!(codes(&env.ask(None, add, json!({"k": "video", "id": video})).await), ["UNAUTHENTICATED"]);
    for (kind, id) in [("video", &video), ("performer", &performer), ("channel", &channel)] {
        let a = env.data(Some(&user), add, json!({"k": kind, "id": id})).await["addFavorite"].clone();
        assert_eq!(a, json!({"kind": kind, "id": id, "favorite": true}));
    }
    assert_eq!(codes(&env.ask(Some(&user), add, json!({"k": "video", "id": Uuid::now_v7()})).await), ["NOT_FOUND"]);

    let lists = env
        .data(Some(&user), "{ v: favorites(kind: video) { totalCount videos { uuid isFavorite } } p: favorites(kind: performer) { totalCount performers { id isFavorite } }
            c: favorites(kind: channel) { totalCount channels { channelId isFavorite } } ids: favoriteIds(kind: video) { ids totalCount } }", json!({}))
        .await;
    assert_eq!((lists["v"]["totalCount"].as_i64(), &lists["v"]["videos"][0]["uuid"]), (Some(1), &json!(video)));
    assert_eq!(lists["v"]["videos"][0]["isFavorite"], true);
    assert_eq!(
        (&lists["p"]["performers"][0]["id"], &lists["p"]["performers"][0]["isFavorite"]),
        (&json!(performer), &json!(true))
    );
    assert_eq!(&lists["c"]["channels"][0]["channelId"], &json!(channel));
    assert_eq!(lists["ids"], json!({"ids": [video], "totalCount": 1}));

    // The listing says which are favourites, for this user only.
    let q = "{ videos(size: 3) { videos { uuid isFavorite performers { id isFavorite } } } }";
    let mine = env.data(Some(&user), q, json!({})).await;
    assert_eq!(mine["videos"]["videos"][0]["isFavorite"], true);
    assert_eq!(mine["videos"]["videos"][1]["isFavorite"], false);
    assert!(mine["videos"]["videos"][0]["performers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == performer.as_str() && p["isFavorite"] == true));
    let stranger = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    let theirs = env.data(Some(&stranger), q, json!({})).await;
    assert_eq!(theirs["videos"]["videos"][0]["isFavorite"], false);

    let r = env.data(Some(&user), remove, json!({"k": "video", "id": video})).await["removeFavorite"].clone();
    assert_eq!(r["favorite"], false);
    let v = env.data(Some(&user), "{ favorites(kind: video) { totalCount videos { uuid } } }", json!({})).await;
    assert_eq!(v["favorites"]["totalCount"], 0);
    let body = env.ask(Some(&user), "{ favorites(kind: video, page: 0) { totalCount } }", json!({})).await;
    assert_eq!(codes(&body), ["BAD_USER_INPUT"]);
    // A token of another brand is no session here.
    let blacked = env.member("blacked.localhost:8080", Uuid::now_v7(), &[]).await;
    assert_eq!(codes(&env.ask(Some(&blacked), add, json!({"k": "video", "id": video})).await), ["UNAUTHENTICATED"]);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_costs_a_fixed_number_of_internal_calls() {
    let env = env().await;
    let user = env.member(VIXEN, Uuid::now_v7(), &[]).await;
    // Favourite a few things, so the per-user fields have something to find.
    let seen = env.data(None, "{ videos(size: 1) { videos { uuid } } }", json!({})).await;
    let video = seen["videos"]["videos"][0]["uuid"].clone();
    env.data(
        Some(&user),
        "mutation($id: ID!) { addFavorite(kind: video, id: $id) { favorite } }",
        json!({"id": video}),
    )
    .await;

    let page = "query($page: Int, $size: Int) { videos(page: $page, size: $size) { videos { uuid isFavorite
        performers { id slug name gender sex rating image { src } isFavorite }
        channel { slug name packs { slug } isFavorite } } } }";
    let channel_page =
        "query($page: Int, $size: Int) { allChannelVideos(page: $page, size: $size) { videos { uuid isFavorite
        performers { ... on Performer { gender isFavorite } }
        channel { slug name isThirdParty packs { slug } image { src } isFavorite } } } }";
    let mut seen_counts = Vec::new();
    for (query, listing, vars) in [
        (page, "GET /internal/videos", json!({"size": 12})),
        (page, "GET /internal/videos", json!({"size": 12, "page": 2})),
        (page, "GET /internal/videos", json!({"size": 3})),
        (channel_page, "GET /internal/channels", json!({"size": 12})),
        (channel_page, "GET /internal/channels", json!({"size": 12, "page": 3})),
        (channel_page, "GET /internal/channels", json!({"size": 2})),
    ] {
        env.take_calls();
        let data = env.data(Some(&user), query, vars.clone()).await;
        let calls = count(&env.take_calls());
        let list = data.as_object().unwrap().values().next().unwrap()["videos"].as_array().unwrap().clone();
        let performers: usize = list.iter().map(|v| v["performers"].as_array().unwrap().len()).sum();
        assert!(performers >= list.len(), "{vars}: every video has performers");
        assert!(list
            .iter()
            .flat_map(|v| v["performers"].as_array().unwrap())
            .all(|p| p["gender"].as_str().is_some_and(|g| !g.is_empty())));
        // One listing, one performers batch (none for the videos listing, which brings the
        // performers' cards with its page), one channels batch (when a video has a channel),
        // one favourites check per kind asked for.
        let with_channels = list.iter().any(|v| !v["channel"].is_null());
        let mut expected = BTreeMap::from([
            (listing.to_owned(), 1),
            ("POST /internal/favourites/check".to_owned(), if with_channels { 3 } else { 2 }),
        ]);
        if listing != "GET /internal/videos" {
            expected.insert("POST /internal/performers/batch".to_owned(), 1);
        }
        if with_channels {
            expected.insert("POST /internal/channels/batch".to_owned(), 1);
        }
        assert_eq!(calls, expected, "{vars}");
        seen_counts.push(calls.values().sum::<usize>());
    }
    assert!(seen_counts[3] >= 6, "the channel pages load channels: {seen_counts:?}");
    assert_eq!(seen_counts[0], seen_counts[1]);
    assert_eq!(seen_counts[3], seen_counts[4]);

    // Visitors: no favourites call; asking only for what the video carries costs nothing more.
    env.take_calls();
    env.data(None, page, json!({"size": 12})).await;
    let visitor = count(&env.take_calls());
    assert_eq!(visitor.get("POST /internal/favourites/check"), None);
    assert_eq!(visitor.get("POST /internal/performers/batch"), None, "the listing brought the cards");
    assert_eq!(visitor.get("GET /internal/videos"), Some(&1));
    env.data(
        None,
        "{ videos(size: 12) { videos { performers { id slug name } channel { slug channelPackId } } } }",
        json!({}),
    )
    .await;
    assert_eq!(count(&env.take_calls()), BTreeMap::from([("GET /internal/videos".to_owned(), 1)]));
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rest_edge_top_rated_and_tracking() {
    let env = env().await;
    let base = &env.gw.base;
    let client = &env.gw.client;
    let get = |path: String, host: &'static str| client.get(format!("{base}{path}")).header(header::HOST, host).send();

    let r = get("/api/toprated?page=1&size=5".into(), VIXEN).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let body: Value = r.json().await.unwrap();
    let videos = body["data"]["videos"].as_array().unwrap();
    assert_eq!((videos.len(), body["data"]["page"].as_i64(), body["data"]["size"].as_i64()), (5, Some(1), Some(5)));
    let ratings: Vec<f64> = videos.iter().map(|v| v["rating"].as_f64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]));
    assert!(videos.iter().all(|v| v["site"] == "vixen" && v["newId"].is_string()));
    let r = get("/api/toprated".into(), VIXEN).await.unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["data"]["videos"].as_array().unwrap().len(), 12, "default size");
    for (path, status) in [
        ("/api/toprated?page=abc", StatusCode::BAD_REQUEST),
        ("/api/toprated?page=0", StatusCode::BAD_REQUEST),
        ("/api/toprated?page=2147483648", StatusCode::BAD_REQUEST),
        ("/api/toprated?size=101", StatusCode::BAD_REQUEST),
    ] {
        let r = get(path.into(), VIXEN).await.unwrap();
        assert_eq!(r.status(), status, "{path}");
        let body: Value = r.json().await.unwrap();
        let error = &body["errors"][0];
        assert!(error["title"].is_string() && error["details"].is_string(), "{path}: {body}");
    }
    let far = get("/api/toprated?page=100000".into(), VIXEN).await.unwrap();
    let body: Value = far.json().await.unwrap();
    assert!(body["data"]["videos"].as_array().unwrap().is_empty());

    // Tracking acts for the signed-in user, with the CSRF header.
    let user = Uuid::now_v7();
    let token = env.member(VIXEN, user, &[]).await;
    let post = |path: &str, body: Value, token: Option<&str>, csrf: bool| {
        let mut request = client.post(format!("{base}{path}")).header(header::HOST, VIXEN).json(&body);
        if let Some(t) = token {
            request = request.header(header::COOKIE, format!("paysite_at={t}"));
        }
        if csrf {
            request = request.header("x-paysite-csrf", "1");
        }
        request.send()
    };
    let click =
        json!({"email": "a@example.com", "userId": user, "elementClicked": "video-card-3", "recommId": "rc-abc"});
    let r = post("/recommendations-tracking", click.clone(), None, true).await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.json::<Value>().await.unwrap()["errors"][0]["title"], "UNAUTHENTICATED");
    let r = post("/recommendations-tracking", click.clone(), Some(&token), false).await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(r.json::<Value>().await.unwrap()["errors"][0]["title"], "CSRF_CHECK_FAILED");
    let r = post("/recommendations-tracking", click.clone(), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"success": true}));
    let r = post("/api/recommendations-tracking", click.clone(), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let clicks = env.catalog.scalar("select count(*) from event where event_type = 'RecommendationClicked'").await;
    assert_eq!(clicks, 2);
    let someone_else = json!({"userId": Uuid::now_v7(), "elementClicked": "x", "recommId": "rc-abc"});
    let r = post("/recommendations-tracking", someone_else, Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = post("/recommendations-tracking", json!({"recommId": "rc"}), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.json::<Value>().await.unwrap()["errors"][0]["details"].is_string());

    // Reels: every action of the spec; the bookmark shows on the reel.
    let reels = env.data(Some(&token), "{ reels { reels { uuid bookmarked } } }", json!({})).await;
    let reel = reels["reels"]["reels"][0]["uuid"].as_str().unwrap().to_owned();
    assert_eq!(reels["reels"]["reels"][0]["bookmarked"], false);
    let item = |extra: Value| {
        let mut body = json!({"email": "a@example.com", "userId": user, "timestamp": "2026-01-02T03:04:05Z", "itemId": reel, "recommId": "rc-reel"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    for action in ["view", "add-bookmark", "purchase"] {
        let r = post(&format!("/rest/reel/{action}"), item(json!({})), Some(&token), true).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{action}");
    }
    let r = post("/api/rest/reel/rating", item(json!({"rating": 9})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = post("/rest/reel/rating", item(json!({})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "a rating needs its value");
    let reels = env.data(Some(&token), "{ reels { reels { uuid bookmarked } } }", json!({})).await;
    assert!(reels["reels"]["reels"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["uuid"] == reel.as_str() && r["bookmarked"] == true));
    let r = post("/rest/reel/delete-bookmark", item(json!({})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let reels = env.data(Some(&token), "{ reels { reels { uuid bookmarked } } }", json!({})).await;
    assert!(reels["reels"]["reels"].as_array().unwrap().iter().all(|r| r["bookmarked"] == false));
    let r = post("/rest/reel/delete-rating", item(json!({})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK, "delete-rating is in the spec's list");
    let tracked = env.catalog.scalar("select count(*) from event where event_type = 'ReelTracked'").await;
    assert_eq!(tracked, 6);
    let r = post("/rest/reel/share", item(json!({})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = post("/rest/reel/view", item(json!({"itemId": Uuid::now_v7()})), Some(&token), true).await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(r.json::<Value>().await.unwrap()["errors"][0]["title"], "NOT_FOUND");
    let r = post("/rest/reel/view", item(json!({})), None, true).await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    // milfy has no reels.
    let milfy = env.member("milfy.localhost:8080", user, &[]).await;
    let r = client
        .post(format!("{base}/rest/reel/view"))
        .header(header::HOST, "milfy.localhost:8080")
        .header(header::COOKIE, format!("paysite_at={milfy}"))
        .header("x-paysite-csrf", "1")
        .json(&item(json!({})))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    env.cleanup().await;
}

/// Every slug argument passes the slug rule before any call: an empty or invalid one answers
/// the catalog's `NOT_FOUND`, never an upstream status of its router (`HTTP_404`), and never
/// reaches a path.
#[tokio::test]
async fn an_empty_or_invalid_slug_is_not_found_before_any_call() {
    let env = env().await;
    for slug in ["", "Bad_Slug", "../admin/content", "a/b"] {
        for (query, vars) in [
            ("query($s: String!) { getVideo(videoSlug: $s) { video { slug } } }", json!({"s": slug})),
            ("query($s: String!) { performer(slug: $s) { performer { slug } } }", json!({"s": slug})),
            ("query($s: String!) { channel(channelSlug: $s) { slug } }", json!({"s": slug})),
            ("query($s: String!) { channelVideos(channelSlug: $s) { videos { slug } } }", json!({"s": slug})),
            ("query($s: String!) { getChannelVideos(channelSlug: $s) { slug } }", json!({"s": slug})),
            (
                "query($s: String!) { channelPack(channelSlug: $s, channelPackSlug: $s) { pack { slug } } }",
                json!({"s": slug}),
            ),
        ] {
            env.take_calls();
            let body = env.ask(None, query, vars.clone()).await;
            assert_eq!(codes(&body), ["NOT_FOUND"], "{query} {vars}: {}", short(&body));
            let calls = env.take_calls();
            assert!(
                !calls
                    .iter()
                    .any(|c| c.contains("/by-slug/") || c.contains("/performers/") || c.contains("/channels/")),
                "{query} {vars:?} reached the catalog: {calls:?}"
            );
        }
    }
    env.cleanup().await;
}
