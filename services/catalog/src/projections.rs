//! The catalog's read models, from its own events: listings, pages, search words, counts,
//! comments, ratings, favourites, reels, showcases, angels and the curator wall.
//!
//! The live writers call [`apply`] in the append's transaction and a rebuild replays the
//! event store through the same function, so a rebuilt model equals the live one. The bulk
//! seed ([`apply_bulk`]) writes the same rows for many new entities at once; a test holds it
//! to the same result as a replay.

use std::collections::{BTreeMap, BTreeSet};

use async_trait::async_trait;
use proto_events::catalog::{
    CatalogEvent, ChannelCategory, ChannelKind, CommentVote, ExpertReviewItem, FavouriteTarget, ReelAction, Video,
};
use proto_events::Envelope;
use runtime::projection::{Projection, Source};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{item_key, CHANNELS_SITE};

/// Every catalog read model.
pub struct CatalogProjection;

pub const TABLES: &[&str] = &[
    // Videos first: a rebuild empties the tables in this order, and emptying performers or
    // categories while videos name them would rewrite those videos' card names first.
    "video",
    "performer",
    "category",
    "channel",
    "channel_pack",
    "video_category",
    "listing_count",
    "search_term",
    "search_posting",
    "picture_set",
    "comment",
    "comment_vote",
    "video_rating",
    "expert_review",
    "favourite",
    "reel",
    "reel_bookmark",
    "reel_rating",
    "recommendation_click",
    "showcase",
    "angel",
    "curator_post",
];

#[async_trait]
impl Projection for CatalogProjection {
    fn name(&self) -> &str {
        "catalog.read-models"
    }

    fn source(&self) -> Source {
        Source::OwnEvents
    }

    fn tables(&self) -> &[&'static str] {
        TABLES
    }

    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        let decoded: CatalogEvent = proto_events::decode(event)?;
        apply(tx, &decoded).await
    }
}

/// The spec's spelling of a channel category.
pub fn channel_category_name(c: ChannelCategory) -> &'static str {
    match c {
        ChannelCategory::Compilations => "Compilations",
        ChannelCategory::BehindTheScenes => "Behind The Scenes",
        ChannelCategory::Intimates => "Intimates",
    }
}

pub fn channel_kind_name(k: ChannelKind) -> &'static str {
    match k {
        ChannelKind::Internal => "internal",
        ChannelKind::ThirdParty => "third_party",
    }
}

fn vote_name(v: CommentVote) -> &'static str {
    match v {
        CommentVote::Like => "like",
        CommentVote::Dislike => "dislike",
    }
}

pub fn favourite_parts(t: &FavouriteTarget) -> (&'static str, Uuid) {
    match t {
        FavouriteTarget::Video { video_id } => ("video", *video_id),
        FavouriteTarget::Performer { performer_id } => ("performer", *performer_id),
        FavouriteTarget::Channel { channel_id } => ("channel", *channel_id),
    }
}

/// Lower-case words of a text, as search matches them.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The words a video is indexed under: each plain (the combined brand's search) and
/// prefixed with the video's site (a brand's search reads only its own postings).
pub fn indexed_words(site: &str, words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = words.iter().cloned().chain(words.iter().map(|w| format!("{site}:{w}"))).collect();
    out.sort();
    out
}

/// The listing facets a published video counts in: its site (and `*`, every brand, unless it
/// is a channel video) times the whole list, each category, performer, channel and award.
pub fn facets(video: &Video) -> Vec<(String, String)> {
    let mut keys = vec![String::new()];
    keys.extend(video.category_slugs.iter().map(|c| format!("category:{c}")));
    keys.extend(video.performer_ids.iter().map(|p| format!("performer:{p}")));
    if let Some(ch) = &video.channel {
        keys.push(format!("channel:{}", ch.channel_id));
    }
    if video.award == 1 {
        keys.push("award".into());
    }
    let mut sites = vec![video.site.clone()];
    if video.site != CHANNELS_SITE {
        sites.push("*".into());
    }
    let mut out = Vec::new();
    for s in &sites {
        for k in &keys {
            out.push((s.clone(), k.clone()));
        }
    }
    out.sort();
    out.dedup();
    out
}

async fn bump(tx: &mut PgConnection, counts: &BTreeMap<(String, String), i64>) -> sqlx::Result<()> {
    if counts.is_empty() {
        return Ok(());
    }
    let (mut sites, mut keys, mut ns) = (Vec::new(), Vec::new(), Vec::new());
    for ((s, k), n) in counts {
        sites.push(s.clone());
        keys.push(k.clone());
        ns.push(*n);
    }
    sqlx::query(
        "insert into listing_count (site, facet, n) select * from unnest($1::text[], $2::text[], $3::bigint[])
         on conflict (site, facet) do update set n = listing_count.n + excluded.n",
    )
    .bind(&sites)
    .bind(&keys)
    .bind(&ns)
    .execute(tx)
    .await?;
    Ok(())
}

async fn add_terms(tx: &mut PgConnection, terms: &[String]) -> sqlx::Result<()> {
    if terms.is_empty() {
        return Ok(());
    }
    sqlx::query("insert into search_term (term) select unnest($1::text[]) order by 1 on conflict do nothing")
        .bind(terms)
        .execute(tx)
        .await?;
    Ok(())
}

/// Removes the search postings of videos, found from the words their rows hold now: call it
/// before those words (or the video's release date or publication) change.
async fn drop_postings(tx: &mut PgConnection, ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query(
        "delete from search_posting p using video v
         where v.video_id = any($1) and p.term = any(v.title_words || v.other_words)
           and p.in_title = any(array[true, false]) and p.release_date = v.release_date and p.video_id = v.video_id",
    )
    .bind(ids)
    .execute(tx)
    .await?;
    Ok(())
}

/// Writes the search postings of videos from their rows (published ones only; the plain
/// words, the combined brand's, not for channel videos). The same statement as the backfill
/// of migration `0006_search_posting.sql`.
async fn write_postings(tx: &mut PgConnection, ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query(
        "insert into search_posting (term, video_id, release_date, in_title)
         select x.w, v.video_id, v.release_date, bool_or(x.t)
         from video v
         cross join lateral (select unnest(v.title_words) as w, true as t
                             union all select unnest(v.other_words), false) x
         where v.video_id = any($1) and v.published and (v.site <> 'channels' or position(':' in x.w) > 0)
         group by x.w, v.video_id, v.release_date",
    )
    .bind(ids)
    .execute(tx)
    .await?;
    Ok(())
}

/// The words a video is found by besides its title: performer names, category names, slugs.
async fn other_words(tx: &mut PgConnection, video: &Video) -> sqlx::Result<Vec<String>> {
    let names: Vec<String> = sqlx::query_scalar(
        "select name from performer where performer_id = any($1)
         union all select name from category where slug = any($2)
         union all select name from channel where channel_id = $3",
    )
    .bind(&video.performer_ids)
    .bind(&video.category_slugs)
    .bind(video.channel.as_ref().map(|c| c.channel_id))
    .fetch_all(&mut *tx)
    .await?;
    let mut text = names.join(" ");
    for c in &video.category_slugs {
        text.push(' ');
        text.push_str(c);
    }
    Ok(words(&text))
}

type OldVideo = (bool, String, Vec<String>, Vec<Uuid>, Option<Uuid>, i32);

fn video_facets_of_row(old: &OldVideo) -> Vec<(String, String)> {
    let (_, site, categories, performers, channel, award) = old;
    let mut v = Video {
        video_id: Uuid::nil(),
        legacy_id: String::new(),
        new_id: String::new(),
        slug: String::new(),
        site: site.clone(),
        title: String::new(),
        description: String::new(),
        release_date: chrono::DateTime::UNIX_EPOCH,
        duration_seconds: 0,
        performer_ids: performers.clone(),
        category_slugs: categories.clone(),
        channel: None,
        is_third_party_channel: false,
        is_free_limited_trial: false,
        award: *award as u32,
        qualities: vec![],
    };
    if let Some(channel_id) = channel {
        v.channel = Some(proto_events::catalog::VideoChannel {
            channel_id: *channel_id,
            slug: String::new(),
            channel_pack_id: None,
            category: None,
        });
    }
    facets(&v)
}

async fn unlist(tx: &mut PgConnection, old: &OldVideo) -> sqlx::Result<()> {
    let counts = video_facets_of_row(old).into_iter().map(|k| (k, -1)).collect();
    bump(tx, &counts).await?;
    sqlx::query("update performer set video_count = video_count - 1 where performer_id = any($1)")
        .bind(&old.3)
        .execute(&mut *tx)
        .await?;
    if let Some(channel_id) = old.4 {
        sqlx::query("update channel set video_count = video_count - 1 where channel_id = $1")
            .bind(channel_id)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

async fn upsert_video(tx: &mut PgConnection, video: &Video, at: chrono::DateTime<chrono::Utc>) -> anyhow::Result<()> {
    let old: Option<OldVideo> = sqlx::query_as(
        "select published, site, category_slugs, performer_ids, channel_id, award from video where video_id = $1",
    )
    .bind(video.video_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(old) = old.as_ref().filter(|o| o.0) {
        unlist(tx, old).await?;
    }
    let title_words = words(&format!("{} {}", video.title, video.slug.replace('-', " ")));
    let other = other_words(tx, video).await?;
    let (indexed_title, indexed_other) = (indexed_words(&video.site, &title_words), indexed_words(&video.site, &other));
    drop_postings(tx, &[video.video_id]).await?;
    let channel = video.channel.as_ref();
    let qualities: Vec<String> = video
        .qualities
        .iter()
        .map(|q| serde_json::to_value(q).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default())
        .collect();
    sqlx::query(
        "insert into video (video_id, legacy_id, new_id, slug, site, title, description, release_date, duration_seconds,
                            performer_ids, category_slugs, channel_id, channel_slug, channel_pack_id, channel_category,
                            is_third_party_channel, is_free_limited_trial, award, qualities, published, published_at,
                            title_words, other_words)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, true, $20, $21, $22)
         on conflict (video_id) do update set legacy_id = excluded.legacy_id, new_id = excluded.new_id,
             slug = excluded.slug, site = excluded.site, title = excluded.title, description = excluded.description,
             release_date = excluded.release_date, duration_seconds = excluded.duration_seconds,
             performer_ids = excluded.performer_ids, category_slugs = excluded.category_slugs,
             channel_id = excluded.channel_id, channel_slug = excluded.channel_slug,
             channel_pack_id = excluded.channel_pack_id, channel_category = excluded.channel_category,
             is_third_party_channel = excluded.is_third_party_channel,
             is_free_limited_trial = excluded.is_free_limited_trial, award = excluded.award,
             qualities = excluded.qualities, published = true, title_words = excluded.title_words,
             other_words = excluded.other_words",
    )
    .bind(video.video_id)
    .bind(&video.legacy_id)
    .bind(&video.new_id)
    .bind(&video.slug)
    .bind(&video.site)
    .bind(&video.title)
    .bind(&video.description)
    .bind(video.release_date)
    .bind(video.duration_seconds as i32)
    .bind(&video.performer_ids)
    .bind(&video.category_slugs)
    .bind(channel.map(|c| c.channel_id))
    .bind(channel.map(|c| c.slug.clone()))
    .bind(channel.and_then(|c| c.channel_pack_id))
    .bind(channel.and_then(|c| c.category).map(channel_category_name))
    .bind(video.is_third_party_channel)
    .bind(video.is_free_limited_trial)
    .bind(video.award as i32)
    .bind(&qualities)
    .bind(at)
    .bind(&indexed_title)
    .bind(&indexed_other)
    .execute(&mut *tx)
    .await?;
    write_postings(tx, &[video.video_id]).await?;
    sqlx::query("delete from video_category where video_id = $1").bind(video.video_id).execute(&mut *tx).await?;
    sqlx::query(
        "insert into video_category (site, category, video_id, release_date, rating)
         select v.site, c, v.video_id, v.release_date, v.rating from video v cross join unnest(v.category_slugs) c
         where v.video_id = $1
         on conflict do nothing",
    )
    .bind(video.video_id)
    .execute(&mut *tx)
    .await?;
    let counts = facets(video).into_iter().map(|k| (k, 1)).collect();
    bump(tx, &counts).await?;
    sqlx::query("update performer set video_count = video_count + 1 where performer_id = any($1)")
        .bind(&video.performer_ids)
        .execute(&mut *tx)
        .await?;
    if let Some(c) = channel {
        sqlx::query("update channel set video_count = video_count + 1 where channel_id = $1")
            .bind(c.channel_id)
            .execute(&mut *tx)
            .await?;
    }
    let mut terms = title_words;
    terms.extend(other);
    add_terms(tx, &terms).await?;
    Ok(())
}

/// Recomputes the non-title search words of videos after a performer, category or channel was renamed.
async fn refresh_words(
    tx: &mut PgConnection,
    where_sql: &str,
    bind: Option<Uuid>,
    slug: Option<&str>,
) -> anyhow::Result<()> {
    type Row = (Uuid, String, Vec<Uuid>, Vec<String>, Option<Uuid>);
    let ids: Vec<Row> = sqlx::query_as(&format!(
        "select video_id, site, performer_ids, category_slugs, channel_id from video where {where_sql}"
    ))
    .bind(bind)
    .bind(slug)
    .fetch_all(&mut *tx)
    .await?;
    for (video_id, site, performer_ids, category_slugs, channel_id) in ids {
        let mut v = Video {
            video_id,
            legacy_id: String::new(),
            new_id: String::new(),
            slug: String::new(),
            site,
            title: String::new(),
            description: String::new(),
            release_date: chrono::DateTime::UNIX_EPOCH,
            duration_seconds: 0,
            performer_ids,
            category_slugs,
            channel: None,
            is_third_party_channel: false,
            is_free_limited_trial: false,
            award: 0,
            qualities: vec![],
        };
        if let Some(channel_id) = channel_id {
            v.channel = Some(proto_events::catalog::VideoChannel {
                channel_id,
                slug: String::new(),
                channel_pack_id: None,
                category: None,
            });
        }
        let other = other_words(tx, &v).await?;
        drop_postings(tx, &[video_id]).await?;
        sqlx::query("update video set other_words = $2 where video_id = $1")
            .bind(video_id)
            .bind(indexed_words(&v.site, &other))
            .execute(&mut *tx)
            .await?;
        write_postings(tx, &[video_id]).await?;
        add_terms(tx, &other).await?;
    }
    Ok(())
}

/// Sets a member's overall rating of a video and moves the video's and its performers' averages.
async fn set_overall(
    tx: &mut PgConnection,
    user_id: Uuid,
    video_id: Uuid,
    rating: u8,
    at: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<()> {
    let old: Option<i16> = sqlx::query_scalar("select rating from video_rating where user_id = $1 and video_id = $2")
        .bind(user_id)
        .bind(video_id)
        .fetch_optional(&mut *tx)
        .await?;
    sqlx::query(
        "insert into video_rating (user_id, video_id, rating, rated_at) values ($1, $2, $3, $4)
         on conflict (user_id, video_id) do update set rating = excluded.rating, rated_at = excluded.rated_at",
    )
    .bind(user_id)
    .bind(video_id)
    .bind(rating as i16)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    let (dsum, dcount) = match old {
        Some(o) => (rating as i64 - o as i64, 0i64),
        None => (rating as i64, 1),
    };
    let performers: Option<Vec<Uuid>> = sqlx::query_scalar(
        "update video set rating_sum = rating_sum + $2, rating_count = rating_count + $3,
             rating = case when rating_count + $3 = 0 then -1 else (rating_sum + $2)::float8 / (rating_count + $3) end
         where video_id = $1 returning performer_ids",
    )
    .bind(video_id)
    .bind(dsum)
    .bind(dcount)
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query(
        "update video_category c set rating = v.rating from video v where c.video_id = v.video_id and v.video_id = $1",
    )
    .bind(video_id)
    .execute(&mut *tx)
    .await?;
    if let Some(performers) = performers {
        sqlx::query(
            "update performer set rating_sum = rating_sum + $2, rating_count = rating_count + $3,
                 rating = case when rating_count + $3 = 0 then -1 else (rating_sum + $2)::float8 / (rating_count + $3) end
             where performer_id = any($1)",
        )
        .bind(&performers)
        .bind(dsum)
        .bind(dcount)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// Writes what one catalog event changes in the read models.
pub async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
    match event {
        CatalogEvent::VideoPublished { video, published_at: at }
        | CatalogEvent::VideoUpdated { video, updated_at: at } => {
            upsert_video(tx, video, *at).await?;
        }
        CatalogEvent::VideoUnpublished { video_id, .. } => {
            let old: Option<OldVideo> = sqlx::query_as(
                "select published, site, category_slugs, performer_ids, channel_id, award from video where video_id = $1",
            )
            .bind(video_id)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(old) = old.filter(|o| o.0) {
                unlist(tx, &old).await?;
                drop_postings(tx, &[*video_id]).await?;
                sqlx::query("delete from video_category where video_id = $1").bind(video_id).execute(&mut *tx).await?;
                sqlx::query("update video set published = false where video_id = $1")
                    .bind(video_id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        CatalogEvent::PerformerPublished { performer_id, slug, name, sex, sites, published_at } => {
            let old: Option<String> = sqlx::query_scalar("select name from performer where performer_id = $1")
                .bind(performer_id)
                .fetch_optional(&mut *tx)
                .await?;
            sqlx::query(
                "insert into performer (performer_id, slug, name, sex, sites, published_at) values ($1, $2, $3, $4, $5, $6)
                 on conflict (performer_id) do update set slug = excluded.slug, name = excluded.name, sex = excluded.sex,
                     sites = excluded.sites",
            )
            .bind(performer_id)
            .bind(slug)
            .bind(name)
            .bind(sex)
            .bind(sites)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
            add_terms(tx, &words(name)).await?;
            if old.is_some_and(|o| &o != name) {
                refresh_words(tx, "performer_ids @> array[$1::uuid] and $2::text is null", Some(*performer_id), None)
                    .await?;
            }
        }
        CatalogEvent::CategoryDefined { category_id, slug, name, sites, defined_at } => {
            let old: Option<String> = sqlx::query_scalar("select name from category where category_id = $1")
                .bind(category_id)
                .fetch_optional(&mut *tx)
                .await?;
            sqlx::query(
                "insert into category (category_id, slug, name, sites, defined_at) values ($1, $2, $3, $4, $5)
                 on conflict (category_id) do update set slug = excluded.slug, name = excluded.name, sites = excluded.sites",
            )
            .bind(category_id)
            .bind(slug)
            .bind(name)
            .bind(sites)
            .bind(defined_at)
            .execute(&mut *tx)
            .await?;
            add_terms(tx, &words(&format!("{name} {}", slug.replace('-', " ")))).await?;
            if old.is_some_and(|o| &o != name) {
                refresh_words(tx, "$1::uuid is null and category_slugs @> array[$2::text]", None, Some(slug)).await?;
            }
        }
        CatalogEvent::ChannelPublished { channel_id, slug, name, kind, category, sites, published_at } => {
            let old: Option<String> = sqlx::query_scalar("select name from channel where channel_id = $1")
                .bind(channel_id)
                .fetch_optional(&mut *tx)
                .await?;
            sqlx::query(
                "insert into channel (channel_id, slug, name, kind, category, sites, published_at) values ($1, $2, $3, $4, $5, $6, $7)
                 on conflict (channel_id) do update set slug = excluded.slug, name = excluded.name, kind = excluded.kind,
                     category = excluded.category, sites = excluded.sites",
            )
            .bind(channel_id)
            .bind(slug)
            .bind(name)
            .bind(channel_kind_name(*kind))
            .bind(category.map(channel_category_name))
            .bind(sites)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
            add_terms(tx, &words(name)).await?;
            if old.is_some_and(|o| &o != name) {
                refresh_words(tx, "channel_id = $1 and $2::text is null", Some(*channel_id), None).await?;
            }
        }
        CatalogEvent::ChannelPackPublished { channel_pack_id, channel_id, slug, name, video_ids, published_at } => {
            sqlx::query(
                "insert into channel_pack (channel_pack_id, channel_id, slug, name, video_ids, published_at)
                 values ($1, $2, $3, $4, $5, $6)
                 on conflict (channel_pack_id) do update set channel_id = excluded.channel_id, slug = excluded.slug,
                     name = excluded.name, video_ids = excluded.video_ids",
            )
            .bind(channel_pack_id)
            .bind(channel_id)
            .bind(slug)
            .bind(name)
            .bind(video_ids)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::PictureSetPublished { picture_set_id, video_id, site, pictures, published_at } => {
            sqlx::query(
                "insert into picture_set (picture_set_id, video_id, site, pictures, published_at) values ($1, $2, $3, $4, $5)
                 on conflict (picture_set_id) do update set video_id = excluded.video_id, site = excluded.site,
                     pictures = excluded.pictures",
            )
            .bind(picture_set_id)
            .bind(video_id)
            .bind(site)
            .bind(serde_json::to_value(pictures)?)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::CommentAdded { comment_id, video_id, user_id, text, added_at, author_name } => {
            sqlx::query(
                "insert into comment (comment_id, video_id, user_id, author_name, text, added_at) values ($1, $2, $3, $4, $5, $6)",
            )
            .bind(comment_id)
            .bind(video_id)
            .bind(user_id)
            .bind(author_name)
            .bind(text)
            .bind(added_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::CommentReplied {
            comment_id,
            parent_comment_id,
            video_id,
            user_id,
            text,
            replied_at,
            author_name,
        } => {
            sqlx::query(
                "insert into comment (comment_id, video_id, parent_comment_id, user_id, author_name, text, added_at)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(comment_id)
            .bind(video_id)
            .bind(parent_comment_id)
            .bind(user_id)
            .bind(author_name)
            .bind(text)
            .bind(replied_at)
            .execute(&mut *tx)
            .await?;
            sqlx::query("update comment set replies = replies + 1 where comment_id = $1")
                .bind(parent_comment_id)
                .execute(&mut *tx)
                .await?;
        }
        CatalogEvent::CommentVoted { comment_id, user_id, vote, voted_at, .. } => {
            sqlx::query("insert into comment_vote (comment_id, user_id, vote, voted_at) values ($1, $2, $3, $4)")
                .bind(comment_id)
                .bind(user_id)
                .bind(vote_name(*vote))
                .bind(voted_at)
                .execute(&mut *tx)
                .await?;
            let column = match vote {
                CommentVote::Like => "likes",
                CommentVote::Dislike => "dislikes",
            };
            sqlx::query(&format!("update comment set {column} = {column} + 1 where comment_id = $1"))
                .bind(comment_id)
                .execute(&mut *tx)
                .await?;
        }
        CatalogEvent::CommentPinned { comment_id, pinned_at, .. } => {
            sqlx::query("update comment set pinned = true, pinned_at = $2 where comment_id = $1")
                .bind(comment_id)
                .bind(pinned_at)
                .execute(&mut *tx)
                .await?;
        }
        CatalogEvent::CommentUnpinned { comment_id, .. } => {
            sqlx::query("update comment set pinned = false, pinned_at = null where comment_id = $1")
                .bind(comment_id)
                .execute(&mut *tx)
                .await?;
        }
        CatalogEvent::CommentRemoved { comment_id, .. } => {
            let parent: Option<Option<Uuid>> = sqlx::query_scalar(
                "update comment set removed = true, pinned = false, pinned_at = null where comment_id = $1 and not removed
                 returning parent_comment_id",
            )
            .bind(comment_id)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(Some(parent)) = parent {
                sqlx::query("update comment set replies = replies - 1 where comment_id = $1")
                    .bind(parent)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        CatalogEvent::VideoRated { video_id, user_id, rating, rated_at, .. } => {
            set_overall(tx, *user_id, *video_id, *rating, *rated_at).await?;
        }
        CatalogEvent::ExpertReviewUpdated { video_id, user_id, item, rating, updated_at, .. } => {
            let slug = match item {
                ExpertReviewItem::Global {} => "global".to_owned(),
                ExpertReviewItem::Property { criterion } => crate::domain::criterion_slug(*criterion).to_owned(),
                ExpertReviewItem::Model { slug, .. } => slug.clone(),
            };
            sqlx::query(
                "insert into expert_review (user_id, video_id, item, slug, rating, updated_at) values ($1, $2, $3, $4, $5, $6)
                 on conflict (user_id, video_id, item) do update set slug = excluded.slug, rating = excluded.rating,
                     updated_at = excluded.updated_at",
            )
            .bind(user_id)
            .bind(video_id)
            .bind(item_key(item))
            .bind(slug)
            .bind(*rating as i16)
            .bind(updated_at)
            .execute(&mut *tx)
            .await?;
            if matches!(item, ExpertReviewItem::Global {}) {
                set_overall(tx, *user_id, *video_id, *rating, *updated_at).await?;
            }
        }
        CatalogEvent::FavouriteAdded { user_id, target, added_at } => {
            let (kind, id) = favourite_parts(target);
            sqlx::query(
                "insert into favourite (user_id, kind, target_id, added_at) values ($1, $2, $3, $4) on conflict do nothing",
            )
            .bind(user_id)
            .bind(kind)
            .bind(id)
            .bind(added_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::FavouriteRemoved { user_id, target, .. } => {
            let (kind, id) = favourite_parts(target);
            sqlx::query("delete from favourite where user_id = $1 and kind = $2 and target_id = $3")
                .bind(user_id)
                .bind(kind)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        CatalogEvent::ReelPublished { reel_id, site, title, video_id, duration_seconds, published_at } => {
            sqlx::query(
                "insert into reel (reel_id, site, title, video_id, duration_seconds, published_at) values ($1, $2, $3, $4, $5, $6)
                 on conflict (reel_id) do update set site = excluded.site, title = excluded.title,
                     video_id = excluded.video_id, duration_seconds = excluded.duration_seconds",
            )
            .bind(reel_id)
            .bind(site)
            .bind(title)
            .bind(video_id)
            .bind(*duration_seconds as i32)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::ReelTracked { reel_id, user_id, action, rating, .. } => match action {
            ReelAction::View => {
                sqlx::query("update reel set views = views + 1 where reel_id = $1")
                    .bind(reel_id)
                    .execute(&mut *tx)
                    .await?;
            }
            ReelAction::Purchase => {
                sqlx::query("update reel set purchases = purchases + 1 where reel_id = $1")
                    .bind(reel_id)
                    .execute(&mut *tx)
                    .await?;
            }
            ReelAction::AddBookmark => {
                let added =
                    sqlx::query("insert into reel_bookmark (user_id, reel_id) values ($1, $2) on conflict do nothing")
                        .bind(user_id)
                        .bind(reel_id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                sqlx::query("update reel set bookmarks = bookmarks + $2 where reel_id = $1")
                    .bind(reel_id)
                    .bind(added as i64)
                    .execute(&mut *tx)
                    .await?;
            }
            ReelAction::DeleteBookmark => {
                let removed = sqlx::query("delete from reel_bookmark where user_id = $1 and reel_id = $2")
                    .bind(user_id)
                    .bind(reel_id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                sqlx::query("update reel set bookmarks = bookmarks - $2 where reel_id = $1")
                    .bind(reel_id)
                    .bind(removed as i64)
                    .execute(&mut *tx)
                    .await?;
            }
            ReelAction::Rating => {
                if let Some(rating) = rating {
                    sqlx::query(
                        "insert into reel_rating (user_id, reel_id, rating) values ($1, $2, $3)
                         on conflict (user_id, reel_id) do update set rating = excluded.rating",
                    )
                    .bind(user_id)
                    .bind(reel_id)
                    .bind(*rating as i16)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            ReelAction::DeleteRating => {
                sqlx::query("delete from reel_rating where user_id = $1 and reel_id = $2")
                    .bind(user_id)
                    .bind(reel_id)
                    .execute(&mut *tx)
                    .await?;
            }
        },
        CatalogEvent::RecommendationClicked { user_id, recomm_id, element_clicked, clicked_at } => {
            sqlx::query(
                "insert into recommendation_click (user_id, recomm_id, element_clicked, clicked_at) values ($1, $2, $3, $4)",
            )
            .bind(user_id)
            .bind(recomm_id)
            .bind(element_clicked)
            .bind(clicked_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::ShowcasePublished { showcase_id, slug, title, description, sites, video_ids, published_at } => {
            sqlx::query(
                "insert into showcase (showcase_id, slug, title, description, sites, video_ids, published_at)
                 values ($1, $2, $3, $4, $5, $6, $7)
                 on conflict (showcase_id) do update set slug = excluded.slug, title = excluded.title,
                     description = excluded.description, sites = excluded.sites, video_ids = excluded.video_ids",
            )
            .bind(showcase_id)
            .bind(slug)
            .bind(title)
            .bind(description)
            .bind(sites)
            .bind(video_ids)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::AngelPublished { angel_id, slug, name, performer_id, bio, sites, published_at } => {
            sqlx::query(
                "insert into angel (angel_id, slug, name, performer_id, bio, sites, published_at) values ($1, $2, $3, $4, $5, $6, $7)
                 on conflict (angel_id) do update set slug = excluded.slug, name = excluded.name,
                     performer_id = excluded.performer_id, bio = excluded.bio, sites = excluded.sites",
            )
            .bind(angel_id)
            .bind(slug)
            .bind(name)
            .bind(performer_id)
            .bind(bio)
            .bind(sites)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::CuratorPostPublished { post_id, site, title, text, video_id, published_at } => {
            sqlx::query(
                "insert into curator_post (post_id, site, title, text, video_id, published_at) values ($1, $2, $3, $4, $5, $6)
                 on conflict (post_id) do update set site = excluded.site, title = excluded.title, text = excluded.text,
                     video_id = excluded.video_id",
            )
            .bind(post_id)
            .bind(site)
            .bind(title)
            .bind(text)
            .bind(video_id)
            .bind(published_at)
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}

/// Applies many events in order; videos never seen before that arrive together (the bulk
/// seed) are written in a few set statements instead of one by one. Same rows as [`apply`].
pub async fn apply_bulk(tx: &mut PgConnection, events: &[CatalogEvent]) -> anyhow::Result<()> {
    let mut run: Vec<(&Video, chrono::DateTime<chrono::Utc>)> = Vec::new();
    let mut ratings: Vec<(Uuid, Uuid, u8, chrono::DateTime<chrono::Utc>)> = Vec::new();
    for event in events {
        match event {
            CatalogEvent::VideoPublished { video, published_at } => {
                flush_new_ratings(tx, &mut ratings).await?;
                run.push((video, *published_at));
            }
            CatalogEvent::VideoRated { video_id, user_id, rating, rated_at, .. } => {
                flush_new_videos(tx, &mut run).await?;
                ratings.push((*user_id, *video_id, *rating, *rated_at));
            }
            other => {
                flush_new_videos(tx, &mut run).await?;
                flush_new_ratings(tx, &mut ratings).await?;
                apply(tx, other).await?;
            }
        }
    }
    flush_new_videos(tx, &mut run).await?;
    flush_new_ratings(tx, &mut ratings).await
}

/// First ratings of (member, video) pairs, written as sets: the same rows and sums as
/// [`set_overall`] one by one, since the averages are recomputed from the integer sums.
async fn flush_new_ratings(
    tx: &mut PgConnection,
    run: &mut Vec<(Uuid, Uuid, u8, chrono::DateTime<chrono::Utc>)>,
) -> anyhow::Result<()> {
    if run.is_empty() {
        return Ok(());
    }
    let users: Vec<Uuid> = run.iter().map(|r| r.0).collect();
    let videos: Vec<Uuid> = run.iter().map(|r| r.1).collect();
    let distinct: BTreeSet<(Uuid, Uuid)> = run.iter().map(|r| (r.0, r.1)).collect();
    let existing: i64 = sqlx::query_scalar(
        "select count(*) from video_rating r join unnest($1::uuid[], $2::uuid[]) as n(u, v) on r.user_id = n.u and r.video_id = n.v",
    )
    .bind(&users)
    .bind(&videos)
    .fetch_one(&mut *tx)
    .await?;
    if existing > 0 || distinct.len() != run.len() {
        for (user, video, rating, at) in run.drain(..) {
            set_overall(tx, user, video, rating, at).await?;
        }
        return Ok(());
    }
    let ratings: Vec<i16> = run.iter().map(|r| r.2 as i16).collect();
    let ats: Vec<chrono::DateTime<chrono::Utc>> = run.iter().map(|r| r.3).collect();
    run.clear();
    sqlx::query(
        "insert into video_rating (user_id, video_id, rating, rated_at)
         select * from unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::timestamptz[])",
    )
    .bind(&users)
    .bind(&videos)
    .bind(&ratings)
    .bind(&ats)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update video v set rating_sum = v.rating_sum + a.s, rating_count = v.rating_count + a.c,
             rating = (v.rating_sum + a.s)::float8 / (v.rating_count + a.c)
         from (select video_id, sum(rating)::bigint as s, count(*) as c
               from unnest($1::uuid[], $2::smallint[]) as r(video_id, rating) group by video_id) a
         where v.video_id = a.video_id",
    )
    .bind(&videos)
    .bind(&ratings)
    .execute(&mut *tx)
    .await?;
    sqlx::query("update video_category c set rating = v.rating from video v where c.video_id = v.video_id and v.video_id = any($1)")
        .bind(&videos)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "update performer p set rating_sum = p.rating_sum + a.s, rating_count = p.rating_count + a.c,
             rating = (p.rating_sum + a.s)::float8 / (p.rating_count + a.c)
         from (select pid, sum(r.rating)::bigint as s, count(*) as c
               from unnest($1::uuid[], $2::smallint[]) as r(video_id, rating)
               join video v using (video_id) cross join lateral (select distinct x from unnest(v.performer_ids) x) as d(pid)
               group by pid) a
         where p.performer_id = a.pid",
    )
    .bind(&videos)
    .bind(&ratings)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

async fn flush_new_videos(
    tx: &mut PgConnection,
    run: &mut Vec<(&Video, chrono::DateTime<chrono::Utc>)>,
) -> anyhow::Result<()> {
    if run.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = run.iter().map(|(v, _)| v.video_id).collect();
    let existing: i64 = sqlx::query_scalar("select count(*) from video where video_id = any($1)")
        .bind(&ids)
        .fetch_one(&mut *tx)
        .await?;
    let distinct: BTreeSet<Uuid> = ids.iter().copied().collect();
    if existing > 0 || distinct.len() != ids.len() {
        // Not a run of new videos: the general path.
        for (v, at) in run.drain(..) {
            upsert_video(tx, v, at).await?;
        }
        return Ok(());
    }
    // Names for the search words, once for the run.
    let performers: Vec<(Uuid, String)> =
        sqlx::query_as("select performer_id, name from performer").fetch_all(&mut *tx).await?;
    let categories: Vec<(String, String)> =
        sqlx::query_as("select slug, name from category").fetch_all(&mut *tx).await?;
    let channels: Vec<(Uuid, String)> =
        sqlx::query_as("select channel_id, name from channel").fetch_all(&mut *tx).await?;
    let performers: BTreeMap<Uuid, String> = performers.into_iter().collect();
    let categories: BTreeMap<String, String> = categories.into_iter().collect();
    let channels: BTreeMap<Uuid, String> = channels.into_iter().collect();
    let mut counts: BTreeMap<(String, String), i64> = BTreeMap::new();
    let mut performer_counts: BTreeMap<Uuid, i32> = BTreeMap::new();
    let mut channel_counts: BTreeMap<Uuid, i32> = BTreeMap::new();
    let mut terms: BTreeSet<String> = BTreeSet::new();
    let mut cols = BulkVideos::default();
    for (v, at) in run.drain(..) {
        for k in facets(v) {
            *counts.entry(k).or_default() += 1;
        }
        for p in &v.performer_ids {
            *performer_counts.entry(*p).or_default() += 1;
        }
        let title_words = words(&format!("{} {}", v.title, v.slug.replace('-', " ")));
        let mut names: Vec<&str> =
            v.performer_ids.iter().filter_map(|p| performers.get(p).map(String::as_str)).collect();
        names.extend(v.category_slugs.iter().filter_map(|c| categories.get(c).map(String::as_str)));
        if let Some(c) = &v.channel {
            *channel_counts.entry(c.channel_id).or_default() += 1;
            names.extend(channels.get(&c.channel_id).map(String::as_str));
        }
        let mut text = names.join(" ");
        for c in &v.category_slugs {
            text.push(' ');
            text.push_str(c);
        }
        let other = words(&text);
        terms.extend(title_words.iter().cloned());
        terms.extend(other.iter().cloned());
        cols.push(v, at, indexed_words(&v.site, &title_words), indexed_words(&v.site, &other));
    }
    let ids = cols.video_id.clone();
    cols.insert(tx).await?;
    write_postings(tx, &ids).await?;
    sqlx::query(
        "insert into video_category (site, category, video_id, release_date, rating)
         select v.site, c, v.video_id, v.release_date, v.rating from video v cross join unnest(v.category_slugs) c
         where v.video_id = any($1)
         on conflict do nothing",
    )
    .bind(&ids)
    .execute(&mut *tx)
    .await?;
    bump(tx, &counts).await?;
    let (pids, pns): (Vec<Uuid>, Vec<i32>) = performer_counts.into_iter().unzip();
    sqlx::query(
        "update performer p set video_count = p.video_count + c.n from unnest($1::uuid[], $2::int[]) as c(id, n)
         where p.performer_id = c.id",
    )
    .bind(&pids)
    .bind(&pns)
    .execute(&mut *tx)
    .await?;
    let (cids, cns): (Vec<Uuid>, Vec<i32>) = channel_counts.into_iter().unzip();
    sqlx::query(
        "update channel ch set video_count = ch.video_count + c.n from unnest($1::uuid[], $2::int[]) as c(id, n)
         where ch.channel_id = c.id",
    )
    .bind(&cids)
    .bind(&cns)
    .execute(&mut *tx)
    .await?;
    add_terms(tx, &terms.into_iter().collect::<Vec<_>>()).await?;
    Ok(())
}

#[derive(Default)]
struct BulkVideos {
    video_id: Vec<Uuid>,
    legacy_id: Vec<String>,
    new_id: Vec<String>,
    slug: Vec<String>,
    site: Vec<String>,
    title: Vec<String>,
    description: Vec<String>,
    release_date: Vec<chrono::DateTime<chrono::Utc>>,
    duration: Vec<i32>,
    performer_ids: Vec<String>,
    category_slugs: Vec<String>,
    channel_id: Vec<Option<Uuid>>,
    channel_slug: Vec<Option<String>>,
    channel_pack_id: Vec<Option<Uuid>>,
    channel_category: Vec<Option<&'static str>>,
    third_party: Vec<bool>,
    free_trial: Vec<bool>,
    award: Vec<i32>,
    qualities: Vec<String>,
    published_at: Vec<chrono::DateTime<chrono::Utc>>,
    title_words: Vec<String>,
    other_words: Vec<String>,
}

/// A Postgres array literal of text (arrays of arrays do not bind through unnest).
fn pg_array<T: std::fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> =
        items.iter().map(|i| format!("\"{}\"", i.to_string().replace('\\', "\\\\").replace('"', "\\\""))).collect();
    format!("{{{}}}", inner.join(","))
}

impl BulkVideos {
    fn push(
        &mut self,
        v: &Video,
        at: chrono::DateTime<chrono::Utc>,
        title_words: Vec<String>,
        other_words: Vec<String>,
    ) {
        self.video_id.push(v.video_id);
        self.legacy_id.push(v.legacy_id.clone());
        self.new_id.push(v.new_id.clone());
        self.slug.push(v.slug.clone());
        self.site.push(v.site.clone());
        self.title.push(v.title.clone());
        self.description.push(v.description.clone());
        self.release_date.push(v.release_date);
        self.duration.push(v.duration_seconds as i32);
        self.performer_ids.push(pg_array(&v.performer_ids));
        self.category_slugs.push(pg_array(&v.category_slugs));
        let c = v.channel.as_ref();
        self.channel_id.push(c.map(|c| c.channel_id));
        self.channel_slug.push(c.map(|c| c.slug.clone()));
        self.channel_pack_id.push(c.and_then(|c| c.channel_pack_id));
        self.channel_category.push(c.and_then(|c| c.category).map(channel_category_name));
        self.third_party.push(v.is_third_party_channel);
        self.free_trial.push(v.is_free_limited_trial);
        self.award.push(v.award as i32);
        let qualities: Vec<String> = v
            .qualities
            .iter()
            .map(|q| serde_json::to_value(q).ok().and_then(|j| j.as_str().map(str::to_owned)).unwrap_or_default())
            .collect();
        self.qualities.push(pg_array(&qualities));
        self.published_at.push(at);
        self.title_words.push(pg_array(&title_words));
        self.other_words.push(pg_array(&other_words));
    }

    async fn insert(self, tx: &mut PgConnection) -> sqlx::Result<()> {
        sqlx::query(
            "insert into video (video_id, legacy_id, new_id, slug, site, title, description, release_date, duration_seconds,
                                performer_ids, category_slugs, channel_id, channel_slug, channel_pack_id, channel_category,
                                is_third_party_channel, is_free_limited_trial, award, qualities, published, published_at,
                                title_words, other_words)
             select a, b, c, d, e, f, g, h, i, j::uuid[], k::text[], l, m, n, o, p, q, r, s::text[], true, t, u::text[], w::text[]
             from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::timestamptz[], $9::int[], $10::text[], $11::text[], $12::uuid[], $13::text[], $14::uuid[],
                         $15::text[], $16::bool[], $17::bool[], $18::int[], $19::text[], $20::timestamptz[], $21::text[],
                         $22::text[])
                  as x(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, w)",
        )
        .bind(&self.video_id)
        .bind(&self.legacy_id)
        .bind(&self.new_id)
        .bind(&self.slug)
        .bind(&self.site)
        .bind(&self.title)
        .bind(&self.description)
        .bind(&self.release_date)
        .bind(&self.duration)
        .bind(&self.performer_ids)
        .bind(&self.category_slugs)
        .bind(&self.channel_id)
        .bind(&self.channel_slug)
        .bind(&self.channel_pack_id)
        .bind(&self.channel_category)
        .bind(&self.third_party)
        .bind(&self.free_trial)
        .bind(&self.award)
        .bind(&self.qualities)
        .bind(&self.published_at)
        .bind(&self.title_words)
        .bind(&self.other_words)
        .execute(tx)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_distinct_and_sorted() {
        assert_eq!(words("City Lights, city-LIGHTS!"), vec!["city", "lights"]);
    }

    #[test]
    fn a_pg_array_literal_quotes_its_items() {
        assert_eq!(pg_array(&["a", "b\"c"]), r#"{"a","b\"c"}"#);
    }
}
