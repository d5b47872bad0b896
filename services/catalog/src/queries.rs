//! Read-side SQL: every list and page of the catalog, shaped as the API answers.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

use crate::api;
use crate::domain::{is_combined, CRITERIA};
use crate::media;

/// The card columns of a video, with its performers and categories in one row (kept on the
/// row by the projection: migration `0008_card_refs.sql`).
const CARD_COLUMNS: &str = "v.video_id, v.legacy_id, v.new_id, v.slug, v.site, v.title, v.description, v.release_date,
    v.duration_seconds, v.channel_id, v.channel_slug, v.channel_pack_id, v.channel_category, v.is_third_party_channel,
    v.is_free_limited_trial, v.award, v.rating, v.rating_count, v.qualities, v.published,
    v.performer_refs as performers, v.category_refs as categories";

#[derive(sqlx::FromRow)]
pub struct CardRow {
    video_id: Uuid,
    legacy_id: String,
    new_id: String,
    slug: String,
    site: String,
    title: String,
    description: String,
    release_date: DateTime<Utc>,
    duration_seconds: i32,
    channel_id: Option<Uuid>,
    channel_slug: Option<String>,
    channel_pack_id: Option<Uuid>,
    channel_category: Option<String>,
    is_third_party_channel: bool,
    is_free_limited_trial: bool,
    award: i32,
    rating: f64,
    rating_count: i64,
    qualities: Vec<String>,
    published: bool,
    performers: Json<Vec<api::PerformerRef>>,
    categories: Json<Vec<api::CategoryRef>>,
}

fn round1(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else {
        (x * 10.0).round() / 10.0
    }
}

impl CardRow {
    pub fn into_video(self) -> api::Video {
        let images = api::VideoImages {
            poster: media::image("video", &self.slug, 1280, 720, &self.title),
            listing: media::image("video", &self.slug, 640, 360, &self.title),
        };
        let trailer = api::Trailer { src: media::trailer(&self.slug), poster: images.poster.src.clone() };
        api::Video {
            uuid: self.video_id,
            id: self.legacy_id,
            new_id: self.new_id,
            slug: self.slug,
            site: self.site,
            title: self.title,
            description: self.description,
            release_date: self.release_date,
            duration: self.duration_seconds.max(0) as u32,
            performers: self.performers.0,
            categories: self.categories.0,
            channel: self.channel_id.map(|channel_id| api::VideoChannelRef {
                channel_id,
                slug: self.channel_slug.unwrap_or_default(),
                channel_pack_id: self.channel_pack_id,
                category: self.channel_category,
            }),
            is_third_party_channel: self.is_third_party_channel,
            is_free_limited_trial: self.is_free_limited_trial,
            award: self.award.max(0) as u32,
            rating: round1(self.rating),
            rating_count: self.rating_count,
            qualities: self.qualities,
            images,
            trailer,
            published: self.published,
        }
    }
}

/// How a list is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoOrder {
    Newest,
    Oldest,
    Rating,
}

impl VideoOrder {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "newest" | "latest" | "new" | "release_date" => Some(VideoOrder::Newest),
            "oldest" => Some(VideoOrder::Oldest),
            "rating" | "top_rated" | "toprated" | "popular" => Some(VideoOrder::Rating),
            _ => None,
        }
    }

    fn sql(self) -> &'static str {
        match self {
            VideoOrder::Newest => " order by v.release_date desc, v.video_id desc",
            VideoOrder::Oldest => " order by v.release_date asc, v.video_id asc",
            VideoOrder::Rating => " order by v.rating desc, v.release_date desc, v.video_id desc",
        }
    }
}

/// Which videos a list shows.
#[derive(Clone, Debug, Default)]
pub struct VideoFilter {
    /// The site key; the combined brand lists every brand (`*`).
    pub site: String,
    pub categories: Vec<String>,
    pub performer: Option<Uuid>,
    pub channel: Option<Uuid>,
    pub award_only: bool,
    pub ids: Option<Vec<Uuid>>,
    pub exclude: Option<Uuid>,
}

/// The key a site is counted under: the combined brand counts every brand.
pub fn site_scope(site: &str) -> String {
    if is_combined(site) {
        "*".into()
    } else {
        site.to_owned()
    }
}

fn push_filter(q: &mut QueryBuilder<'_, Postgres>, f: &VideoFilter) {
    q.push(" from video v where v.published");
    let scope = site_scope(&f.site);
    if scope == "*" {
        q.push(" and v.site <> 'channels'");
    } else if f.channel.is_none() {
        q.push(" and v.site = ").push_bind(scope);
    }
    if !f.categories.is_empty() {
        q.push(" and v.category_slugs @> ").push_bind(f.categories.clone());
    }
    if let Some(p) = f.performer {
        q.push(" and v.performer_ids @> array[").push_bind(p).push("::uuid]");
    }
    if let Some(c) = f.channel {
        q.push(" and v.channel_id = ").push_bind(c);
    }
    if f.award_only {
        q.push(" and v.award = 1");
    }
    if let Some(ids) = &f.ids {
        q.push(" and v.video_id = any(").push_bind(ids.clone()).push(")");
    }
    if let Some(x) = f.exclude {
        q.push(" and v.video_id <> ").push_bind(x);
    }
}

/// A brand's page of one category (and nothing else): read from `video_category`.
fn one_category(f: &VideoFilter) -> Option<(String, String)> {
    let scope = site_scope(&f.site);
    match (f.categories.as_slice(), f.performer, f.channel, f.award_only, &f.ids, f.exclude) {
        ([c], None, None, false, None, None) if scope != "*" => Some((scope, c.clone())),
        _ => None,
    }
}

/// The facet a filter's total is kept under, when it has one.
fn facet_of(f: &VideoFilter) -> Option<(String, String)> {
    if f.ids.is_some() || f.exclude.is_some() {
        return None;
    }
    let scope = if f.channel.is_some() { crate::domain::CHANNELS_SITE.to_owned() } else { site_scope(&f.site) };
    let key = match (f.categories.as_slice(), f.performer, f.channel, f.award_only) {
        ([], None, None, false) => String::new(),
        ([c], None, None, false) => format!("category:{c}"),
        ([], Some(p), None, false) => format!("performer:{p}"),
        ([], None, Some(c), false) => format!("channel:{c}"),
        ([], None, None, true) => "award".into(),
        _ => return None,
    };
    Some((scope, key))
}

pub async fn count_videos(pool: &PgPool, f: &VideoFilter) -> sqlx::Result<i64> {
    if let Some((site, facet)) = facet_of(f) {
        let n: Option<i64> = sqlx::query_scalar("select n from listing_count where site = $1 and facet = $2")
            .bind(site)
            .bind(facet)
            .fetch_optional(pool)
            .await?;
        return Ok(n.unwrap_or(0));
    }
    let mut q = QueryBuilder::new("select count(*)");
    push_filter(&mut q, f);
    q.build_query_scalar().fetch_one(pool).await
}

pub async fn list_videos(
    pool: &PgPool,
    f: &VideoFilter,
    order: VideoOrder,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<api::Video>> {
    let rows = page_rows(pool, f, order, offset, limit, None).await?;
    Ok(rows.into_iter().map(|r| r.card.into_video()).collect())
}

/// A page and the list's total in one round trip (the total from `listing_count` when the
/// filter has a kept facet, else counted).
pub async fn list_page(
    pool: &PgPool,
    f: &VideoFilter,
    order: VideoOrder,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Video>, i64)> {
    let Some(facet) = facet_of(f) else {
        return tokio::try_join!(list_videos(pool, f, order, offset, limit), count_videos(pool, f));
    };
    let rows = page_rows(pool, f, order, offset, limit, Some(facet)).await?;
    let total = match rows.first() {
        Some(r) => r.total.unwrap_or(0),
        None => count_videos(pool, f).await?,
    };
    Ok((rows.into_iter().map(|r| r.card.into_video()).collect(), total))
}

#[derive(sqlx::FromRow)]
struct PageRow {
    #[sqlx(flatten)]
    card: CardRow,
    total: Option<i64>,
}

async fn page_rows(
    pool: &PgPool,
    f: &VideoFilter,
    order: VideoOrder,
    offset: i64,
    limit: i64,
    facet: Option<(String, String)>,
) -> sqlx::Result<Vec<PageRow>> {
    // The page's ids first, straight off an index; the card columns (with their performer
    // and category look-ups) only for the rows of the page.
    let mut q = QueryBuilder::new("with page as (select v.video_id");
    match one_category(f) {
        Some((site, category)) => {
            q.push(" from video_category v where v.site = ")
                .push_bind(site)
                .push(" and v.category = ")
                .push_bind(category);
        }
        None => push_filter(&mut q, f),
    }
    q.push(order.sql());
    q.push(" limit ").push_bind(limit).push(" offset ").push_bind(offset);
    q.push(format!(") select {CARD_COLUMNS}, "));
    match facet {
        Some((site, key)) => {
            q.push("(select n from listing_count where site = ").push_bind(site).push(" and facet = ").push_bind(key);
            q.push(") as total");
        }
        None => {
            q.push("null::bigint as total");
        }
    }
    q.push(" from page join video v using (video_id)");
    q.push(order.sql());
    q.build_query_as().fetch_all(pool).await
}

/// Videos by uuid, in the order asked (unknown ones left out; unpublished ones included).
pub async fn videos_by_ids(pool: &PgPool, ids: &[Uuid]) -> sqlx::Result<Vec<api::Video>> {
    let rows: Vec<CardRow> = sqlx::query_as(&format!("select {CARD_COLUMNS} from video v where v.video_id = any($1)"))
        .bind(ids)
        .fetch_all(pool)
        .await?;
    let mut by_id: HashMap<Uuid, api::Video> = rows.into_iter().map(|r| (r.video_id, r.into_video())).collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// A video by slug on a site (the combined brand finds any brand's; the channels site too).
pub async fn video_by_slug(pool: &PgPool, site: &str, slug: &str) -> sqlx::Result<Option<api::Video>> {
    let row: Option<CardRow> = sqlx::query_as(&format!(
        "select {CARD_COLUMNS} from video v where v.slug = $2 and v.published
           and (v.site = $1 or v.site = 'channels' or $3)
         order by (v.site = $1) desc limit 1"
    ))
    .bind(site)
    .bind(slug)
    .bind(is_combined(site))
    .fetch_optional(pool)
    .await?;
    Ok(row.map(CardRow::into_video))
}

/// Videos sharing the most categories and performers with `video`, on the same site (or
/// across every brand with cross-navigation).
pub async fn related(
    pool: &PgPool,
    video: &api::Video,
    count: i64,
    across_sites: bool,
) -> sqlx::Result<Vec<api::Video>> {
    if count <= 0 {
        return Ok(vec![]);
    }
    let categories: Vec<String> = video.categories.iter().map(|c| c.slug.clone()).collect();
    let performers: Vec<Uuid> = video.performers.iter().map(|p| p.id).collect();
    let rows: Vec<CardRow> = sqlx::query_as(&format!(
        "with candidate as (
             select video_id, release_date,
                    (select count(*) from unnest(performer_ids) p where p = any($3)) * 3
                  + (select count(*) from unnest(category_slugs) c where c = any($4)) as score
             from video
             where published and video_id <> $1 and (site = $2 or ($5 and site <> 'channels'))
               and (performer_ids && $3 or category_slugs && $4)
             order by release_date desc limit 400
         ), picked as (
             select video_id, score, release_date from candidate order by score desc, release_date desc, video_id limit $6
         )
         select {CARD_COLUMNS} from picked join video v using (video_id)
         order by picked.score desc, v.release_date desc, v.video_id"
    ))
    .bind(video.uuid)
    .bind(&video.site)
    .bind(&performers)
    .bind(&categories)
    .bind(across_sites)
    .bind(count)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(CardRow::into_video).collect())
}

pub async fn user_rating(pool: &PgPool, user_id: Uuid, video_id: Uuid) -> sqlx::Result<Option<i16>> {
    sqlx::query_scalar("select rating from video_rating where user_id = $1 and video_id = $2")
        .bind(user_id)
        .bind(video_id)
        .fetch_optional(pool)
        .await
}

pub async fn comment_count(pool: &PgPool, video_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar("select count(*) from comment where video_id = $1 and not removed")
        .bind(video_id)
        .fetch_one(pool)
        .await
}

pub async fn has_picture_set(pool: &PgPool, video_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from picture_set where video_id = $1)")
        .bind(video_id)
        .fetch_one(pool)
        .await
}

pub async fn channel_name(pool: &PgPool, channel_id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select name from channel where channel_id = $1").bind(channel_id).fetch_optional(pool).await
}

pub async fn picture_set(pool: &PgPool, video: &api::Video) -> anyhow::Result<Option<api::PictureSet>> {
    let row: Option<(Uuid, String, serde_json::Value)> =
        sqlx::query_as("select picture_set_id, site, pictures from picture_set where video_id = $1")
            .bind(video.uuid)
            .fetch_optional(pool)
            .await?;
    let Some((id, site, pictures)) = row else { return Ok(None) };
    let pictures: Vec<proto_events::catalog::Picture> = serde_json::from_value(pictures)?;
    let images = pictures
        .iter()
        .map(|p| {
            let mut image = media::image("picture", &p.name, p.width, p.height, &video.title);
            image.name = Some(p.name.clone());
            image
        })
        .collect();
    Ok(Some(api::PictureSet {
        id,
        video_id: video.uuid,
        video_slug: video.slug.clone(),
        site,
        title: video.title.clone(),
        images,
    }))
}

// ----- performers -----

#[derive(sqlx::FromRow)]
struct PerformerRow {
    performer_id: Uuid,
    slug: String,
    name: String,
    sex: String,
    rating: f64,
    video_count: i32,
    sites: Vec<String>,
}

impl PerformerRow {
    fn into_api(self) -> api::Performer {
        api::Performer {
            image: media::image("performer", &self.slug, 600, 800, &self.name),
            id: self.performer_id,
            slug: self.slug,
            name: self.name,
            gender: if self.sex == "M" { "guys".into() } else { "girls".into() },
            sex: self.sex,
            rating: round1(self.rating),
            video_count: self.video_count as i64,
            sites: self.sites,
        }
    }
}

const PERFORMER_COLUMNS: &str = "performer_id, slug, name, sex, rating, video_count, sites";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerformerOrder {
    Rating,
    Name,
    Newest,
    Videos,
}

impl PerformerOrder {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "rating" => Some(PerformerOrder::Rating),
            "name" | "alphabetical" => Some(PerformerOrder::Name),
            "newest" | "latest" => Some(PerformerOrder::Newest),
            "videos" | "scenes" | "most_scenes" => Some(PerformerOrder::Videos),
            _ => None,
        }
    }

    fn sql(self) -> &'static str {
        match self {
            PerformerOrder::Rating => " order by rating desc, video_count desc, slug",
            PerformerOrder::Name => " order by name, slug",
            PerformerOrder::Newest => " order by published_at desc, slug",
            PerformerOrder::Videos => " order by video_count desc, slug",
        }
    }
}

fn push_performer_filter(q: &mut QueryBuilder<'_, Postgres>, site: &str, sex: Option<&str>) {
    q.push(" from performer where video_count > 0");
    if site_scope(site) != "*" {
        q.push(" and sites @> array[").push_bind(site.to_owned()).push("::text]");
    }
    if let Some(sex) = sex {
        q.push(" and sex = ").push_bind(sex.to_owned());
    }
}

pub async fn list_performers(
    pool: &PgPool,
    site: &str,
    sex: Option<&str>,
    order: PerformerOrder,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Performer>, i64)> {
    let mut q = QueryBuilder::new("select count(*)");
    push_performer_filter(&mut q, site, sex);
    let total: i64 = q.build_query_scalar().fetch_one(pool).await?;
    let mut q = QueryBuilder::new(format!("select {PERFORMER_COLUMNS}"));
    push_performer_filter(&mut q, site, sex);
    q.push(order.sql()).push(" limit ").push_bind(limit).push(" offset ").push_bind(offset);
    let rows: Vec<PerformerRow> = q.build_query_as().fetch_all(pool).await?;
    Ok((rows.into_iter().map(PerformerRow::into_api).collect(), total))
}

pub async fn performer_by_slug(pool: &PgPool, slug: &str) -> sqlx::Result<Option<api::Performer>> {
    let row: Option<PerformerRow> =
        sqlx::query_as(&format!("select {PERFORMER_COLUMNS} from performer where slug = $1"))
            .bind(slug)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(PerformerRow::into_api))
}

pub async fn performers_by(pool: &PgPool, ids: &[Uuid], slugs: &[String]) -> sqlx::Result<Vec<api::Performer>> {
    let rows: Vec<PerformerRow> = sqlx::query_as(&format!(
        "select {PERFORMER_COLUMNS} from performer where performer_id = any($1) or slug = any($2) order by slug"
    ))
    .bind(ids)
    .bind(slugs)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(PerformerRow::into_api).collect())
}

// ----- categories and filters -----

pub async fn categories(pool: &PgPool, site: &str, min_scenes: i64) -> sqlx::Result<Vec<api::Category>> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "select c.slug, c.name, coalesce(n.n, 0) from category c
         left join listing_count n on n.site = $1 and n.facet = 'category:' || c.slug
         where ($1 = '*' or c.sites @> array[$1]) and coalesce(n.n, 0) >= $2
         order by c.name",
    )
    .bind(site_scope(site))
    .bind(min_scenes)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(slug, name, n)| api::Category {
            image: media::image("category", &slug, 640, 360, &name),
            slug,
            name,
            video_count: n,
        })
        .collect())
}

pub async fn filters(pool: &PgPool, site: &str, min_scenes: i64) -> sqlx::Result<api::Filters> {
    let scope = site_scope(site);
    let categories = categories(pool, site, min_scenes)
        .await?
        .into_iter()
        .map(|c| api::FilterItem { slug: c.slug, name: c.name, scenes: c.video_count })
        .collect();
    let performers: Vec<(String, String, i64)> = sqlx::query_as(
        "select p.slug, p.name, n.n from listing_count n join performer p on n.facet = 'performer:' || p.performer_id
         where n.site = $1 and n.n >= greatest($2, 1) order by p.name",
    )
    .bind(&scope)
    .bind(min_scenes)
    .fetch_all(pool)
    .await?;
    let channels: Vec<(String, String, i64)> = sqlx::query_as(
        "select slug, name, video_count::bigint from channel where ($1 = '*' or sites @> array[$1]) and video_count >= greatest($2, 1)
         order by name",
    )
    .bind(&scope)
    .bind(min_scenes)
    .fetch_all(pool)
    .await?;
    let item = |(slug, name, scenes): (String, String, i64)| api::FilterItem { slug, name, scenes };
    Ok(api::Filters {
        categories,
        performers: performers.into_iter().map(item).collect(),
        channels: channels.into_iter().map(item).collect(),
    })
}

/// Category slugs from what a page passes (`Big Scene`, `big-scene`, `a,b`).
pub fn category_slugs(raw: &str) -> Vec<String> {
    raw.split(',')
        .map(|c| {
            c.trim()
                .to_lowercase()
                .split(|ch: char| !ch.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join("-")
        })
        .filter(|c| !c.is_empty())
        .collect()
}

// ----- channels -----

#[derive(sqlx::FromRow)]
struct ChannelRow {
    channel_id: Uuid,
    slug: String,
    name: String,
    kind: String,
    category: Option<String>,
    sites: Vec<String>,
    video_count: i32,
    packs: serde_json::Value,
}

const CHANNEL_COLUMNS: &str = "ch.channel_id, ch.slug, ch.name, ch.kind, ch.category, ch.sites, ch.video_count,
    coalesce((select json_agg(json_build_object('channelPackId', p.channel_pack_id, 'channelId', p.channel_id,
                                                'slug', p.slug, 'name', p.name, 'videoIds', p.video_ids) order by p.slug)
              from channel_pack p where p.channel_id = ch.channel_id), '[]') as packs";

impl ChannelRow {
    fn into_api(self) -> api::Channel {
        api::Channel {
            image: media::image("channel", &self.slug, 640, 360, &self.name),
            channel_id: self.channel_id,
            slug: self.slug,
            name: self.name,
            is_third_party: self.kind == "third_party",
            category: self.category,
            sites: self.sites,
            video_count: self.video_count as i64,
            packs: serde_json::from_value(self.packs).unwrap_or_default(),
        }
    }
}

pub async fn channels(pool: &PgPool, site: &str, offset: i64, limit: i64) -> sqlx::Result<(Vec<api::Channel>, i64)> {
    let scope = site_scope(site);
    let total: i64 = sqlx::query_scalar("select count(*) from channel where $1 = '*' or sites @> array[$1]")
        .bind(&scope)
        .fetch_one(pool)
        .await?;
    let rows: Vec<ChannelRow> = sqlx::query_as(&format!(
        "select {CHANNEL_COLUMNS} from channel ch where $1 = '*' or ch.sites @> array[$1] order by ch.name, ch.slug limit $2 offset $3"
    ))
    .bind(&scope)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((rows.into_iter().map(ChannelRow::into_api).collect(), total))
}

/// A channel the site carries, by slug (the combined brand carries every channel).
pub async fn channel_by_slug(pool: &PgPool, site: &str, slug: &str) -> sqlx::Result<Option<api::Channel>> {
    let row: Option<ChannelRow> = sqlx::query_as(&format!(
        "select {CHANNEL_COLUMNS} from channel ch where ch.slug = $2 and ($1 = '*' or ch.sites @> array[$1])"
    ))
    .bind(site_scope(site))
    .bind(slug)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(ChannelRow::into_api))
}

pub async fn channels_by_ids(pool: &PgPool, ids: &[Uuid], slugs: &[String]) -> sqlx::Result<Vec<api::Channel>> {
    let rows: Vec<ChannelRow> = sqlx::query_as(&format!(
        "select {CHANNEL_COLUMNS} from channel ch where ch.channel_id = any($1) or ch.slug = any($2) order by ch.slug"
    ))
    .bind(ids)
    .bind(slugs)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(ChannelRow::into_api).collect())
}

/// The channel videos a site carries (the channels listing of /channels/all-videos).
pub async fn all_channel_videos(
    pool: &PgPool,
    site: &str,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Video>, i64)> {
    let scope = site_scope(site);
    let total: i64 = sqlx::query_scalar(
        "select coalesce(sum(video_count), 0)::bigint from channel where $1 = '*' or sites @> array[$1]",
    )
    .bind(&scope)
    .fetch_one(pool)
    .await?;
    let rows: Vec<CardRow> = sqlx::query_as(&format!(
        "select {CARD_COLUMNS} from video v
         where v.published and v.site = 'channels'
           and v.channel_id in (select channel_id from channel where $1 = '*' or sites @> array[$1])
         order by v.release_date desc, v.video_id desc limit $2 offset $3"
    ))
    .bind(&scope)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((rows.into_iter().map(CardRow::into_video).collect(), total))
}

// ----- search -----

/// Query words: lower-case, letters and digits, at most 8.
pub fn query_words(q: &str) -> Vec<String> {
    let mut out = crate::projections::words(q);
    out.truncate(8);
    out
}

/// For each query word, the known words it may have meant (itself first when known), by
/// trigram similarity over the search lexicon.
pub async fn expand_words(pool: &PgPool, words: &[String]) -> sqlx::Result<Vec<Vec<String>>> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "select w.i, s.term from unnest($1::text[]) with ordinality as w(word, i)
         cross join lateral (
             select term from search_term
             where term = w.word or (length(w.word) >= 3 and term operator(public.%) w.word)
             order by term = w.word desc, public.similarity(term, w.word) desc, term limit 6) s",
    )
    .bind(words)
    .fetch_all(pool)
    .await?;
    let mut out = vec![Vec::new(); words.len()];
    for (i, term) in rows {
        out[(i - 1) as usize].push(term);
    }
    Ok(out)
}

/// The hits of a search, off the postings: a video is a hit when it has a posting for some
/// candidate of every word; its rank is, summed over the words, the best of 4 (the word itself
/// in the title), 3 (a candidate in the title), 2 (the word itself in a name) and 1 (a
/// candidate in a name). Binds `$1` the candidate terms, `$2` the index of the word each
/// belongs to, `$3` whether it is the word itself, `$4` the number of words. When every word
/// has one candidate, a video has at most one posting per word and the per-word best is that
/// posting's score (`one_each`): one aggregation instead of two.
fn search_hits(one_each: bool) -> String {
    let score = "case when p.in_title then case when c.exact then 4 else 3 end
                      else case when c.exact then 2 else 1 end end";
    let per_word = if one_each {
        format!(
            "select p.video_id, p.release_date, {score} as score
             from unnest($1::text[], $2::int[], $3::bool[]) as c(term, i, exact)
             join search_posting p on p.term = c.term"
        )
    } else {
        format!(
            "select p.video_id, p.release_date, c.i, max({score}) as score
             from unnest($1::text[], $2::int[], $3::bool[]) as c(term, i, exact)
             join search_posting p on p.term = c.term
             group by p.video_id, p.release_date, c.i"
        )
    };
    format!(
        "hit as (select video_id, release_date, sum(score) as rank from ({per_word}) w
                 group by video_id, release_date having count(*) = $4)"
    )
}

/// A statement over [`search_hits`] with its four parameters bound.
fn hit_query<'q>(
    sql: &'q str,
    terms: &'q [String],
    index: &'q [i32],
    exact: &'q [bool],
    words: i64,
) -> sqlx::query::QueryAs<'q, Postgres, (Option<Uuid>, i64), sqlx::postgres::PgArguments> {
    sqlx::query_as(sql).bind(terms).bind(index).bind(exact).bind(words)
}

/// The candidates of every word as the parallel arrays [`search_hits`] binds, keyed to the
/// scope's postings (a brand's `vixen:golden`, the combined brand's plain words).
fn search_candidates(scope: &str, words: &[String], expanded: &[Vec<String>]) -> (Vec<String>, Vec<i32>, Vec<bool>) {
    let keyed = |w: &String| if scope == "*" { w.clone() } else { format!("{scope}:{w}") };
    let (mut terms, mut index, mut exact) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (word, cands)) in words.iter().zip(expanded).enumerate() {
        for cand in cands {
            terms.push(keyed(cand));
            index.push(i as i32);
            exact.push(cand == word);
        }
    }
    (terms, index, exact)
}

/// Videos matching every query word (or what it may have meant) in the title, performer
/// names or category names; ranked title matches first, exact matches above corrected ones,
/// then newest first. A page of the ranked ids, then their cards.
pub async fn search_videos(
    pool: &PgPool,
    site: &str,
    words: &[String],
    expanded: &[Vec<String>],
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Video>, i64)> {
    let (ids, total) = ranked_ids(pool, site, words, expanded, offset, limit).await?;
    Ok((videos_by_ids(pool, &ids).await?, total))
}

/// How many of a search's first hits its set keeps: twenty pages of twelve.
pub const SEARCH_SET_SIZE: i64 = 240;

/// What every page of one search on one site reads: the words as corrected, the first
/// [`SEARCH_SET_SIZE`] hits in rank order with their total, and the name suggestions. Kept in
/// the read cache per site and query (http.rs), so a reader paging through a search, or asking
/// it in other spellings of the same text, runs the ranking once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSet {
    pub expanded: Vec<Vec<String>>,
    pub ids: Vec<Uuid>,
    pub total: i64,
    pub performers: Vec<api::PerformerRef>,
    pub categories: Vec<api::CategoryRef>,
}

impl SearchSet {
    /// The ids of a page, when the set holds all of them (else the page is past what it keeps).
    /// Its cards are read like [`search_videos`] reads them: by id, whatever their state now
    /// (the postings, which the projection drops with the publication, decide what is a hit).
    pub fn page(&self, offset: i64, limit: i64) -> Option<&[Uuid]> {
        let kept = self.ids.len() as i64;
        if offset + limit <= kept || kept >= self.total {
            let from = offset.clamp(0, kept) as usize;
            let to = (offset + limit).clamp(0, kept) as usize;
            Some(&self.ids[from..to])
        } else {
            None
        }
    }
}

/// A search's set: corrects the words, ranks the first hits (the same ranking as
/// [`search_videos`]) and finds the name suggestions.
pub async fn search_set(pool: &PgPool, site: &str, q: &str, words: &[String]) -> sqlx::Result<SearchSet> {
    let expanded = expand_words(pool, words).await?;
    let ((ids, total), (performers, categories)) =
        tokio::try_join!(ranked_ids(pool, site, words, &expanded, 0, SEARCH_SET_SIZE), search_names(pool, site, q))?;
    Ok(SearchSet { expanded, ids, total, performers, categories })
}

/// The hits `offset..offset + limit` of a search, in rank order, and how many there are.
async fn ranked_ids(
    pool: &PgPool,
    site: &str,
    words: &[String],
    expanded: &[Vec<String>],
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<Uuid>, i64)> {
    if expanded.is_empty() || expanded.len() != words.len() || expanded.iter().any(Vec::is_empty) {
        return Ok((vec![], 0));
    }
    let (terms, index, exact) = search_candidates(&site_scope(site), words, expanded);
    if let [term] = terms.as_slice() {
        // One word with one candidate: every hit has one posting, whose key is the rank order
        // (title first, then newest), so the page is the first entries of the term's range.
        return sqlx::query_as(
            "select array(select video_id from search_posting where term = $1
                          order by in_title desc, release_date desc, video_id desc limit $2 offset $3),
                    (select count(*) from search_posting where term = $1)",
        )
        .bind(term)
        .bind(limit)
        .bind(offset)
        .fetch_one(pool)
        .await;
    }
    let hits = search_hits(terms.len() == words.len());
    let n = words.len() as i64;
    // The page, each row with the total; past the last page, the total alone.
    let page = format!(
        "with {hits} select video_id, count(*) over () from hit
         order by rank desc, release_date desc, video_id desc limit $5 offset $6"
    );
    let rows = hit_query(&page, &terms, &index, &exact, n).bind(limit).bind(offset).fetch_all(pool).await?;
    let total = match rows.first() {
        Some(r) => r.1,
        None if offset > 0 => {
            let count = format!("with {hits} select null::uuid, count(*) from hit");
            hit_query(&count, &terms, &index, &exact, n).fetch_one(pool).await?.1
        }
        None => 0,
    };
    Ok((rows.into_iter().filter_map(|r| r.0).collect(), total))
}

/// Performers and categories whose names match the query (typo-tolerant).
pub async fn search_names(
    pool: &PgPool,
    site: &str,
    q: &str,
) -> sqlx::Result<(Vec<api::PerformerRef>, Vec<api::CategoryRef>)> {
    let q = q.trim().to_lowercase();
    if q.is_empty() {
        return Ok((vec![], vec![]));
    }
    // Both lists in one round trip (a search miss makes few enough already).
    let rows: Vec<(i32, Option<Uuid>, String, String)> = sqlx::query_as(
        "select kind, id, slug, name from (
             (select 0 as kind, performer_id as id, slug, name,
                     row_number() over (order by public.word_similarity($1, lower(name)) desc, rating desc, slug) as n
              from performer
              where $1 operator(public.<%) lower(name) and video_count > 0 and ($2 = '*' or sites @> array[$2])
              order by n limit 6)
             union all
             (select 1, null, slug, name,
                     row_number() over (order by public.word_similarity($1, lower(name)) desc, slug)
              from category
              where ($2 = '*' or sites @> array[$2]) and public.word_similarity($1, lower(name)) >= 0.5
              order by 5 limit 6)
         ) found order by kind, n",
    )
    .bind(&q)
    .bind(site_scope(site))
    .fetch_all(pool)
    .await?;
    let (mut performers, mut categories) = (Vec::new(), Vec::new());
    for (kind, id, slug, name) in rows {
        match (kind, id) {
            (0, Some(id)) => performers.push(api::PerformerRef { id, slug, name }),
            _ => categories.push(api::CategoryRef { slug, name }),
        }
    }
    Ok((performers, categories))
}

// ----- comments -----

#[derive(sqlx::FromRow)]
struct CommentRow {
    comment_id: Uuid,
    video_id: Uuid,
    parent_comment_id: Option<Uuid>,
    user_id: Uuid,
    author_name: Option<String>,
    text: String,
    added_at: DateTime<Utc>,
    likes: i32,
    dislikes: i32,
    replies: i32,
    pinned: bool,
    user_vote: Option<String>,
}

impl CommentRow {
    fn into_api(self) -> api::Comment {
        api::Comment {
            id: self.comment_id,
            video_id: self.video_id,
            parent_id: self.parent_comment_id,
            user_id: self.user_id,
            author_name: self.author_name,
            text: self.text,
            created_at: self.added_at,
            likes: self.likes as i64,
            dislikes: self.dislikes as i64,
            reply_count: self.replies as i64,
            pinned: self.pinned,
            user_vote: self.user_vote,
        }
    }
}

const COMMENT_COLUMNS: &str = "c.comment_id, c.video_id, c.parent_comment_id, c.user_id, c.author_name, c.text, c.added_at,
    c.likes, c.dislikes, c.replies, c.pinned, (select vote from comment_vote cv where cv.comment_id = c.comment_id and cv.user_id = $1) as user_vote";

pub async fn comment(pool: &PgPool, viewer: Option<Uuid>, comment_id: Uuid) -> sqlx::Result<Option<api::Comment>> {
    let row: Option<CommentRow> =
        sqlx::query_as(&format!("select {COMMENT_COLUMNS} from comment c where c.comment_id = $2 and not c.removed"))
            .bind(viewer)
            .bind(comment_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(CommentRow::into_api))
}

/// How a thread is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentSort {
    Newest,
    Oldest,
    Top,
}

impl CommentSort {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "newest" | "new" => Some(CommentSort::Newest),
            "oldest" | "old" => Some(CommentSort::Oldest),
            "top" | "best" | "popular" => Some(CommentSort::Top),
            _ => None,
        }
    }
}

/// A page of a video's top-level comments (pinned first) or of a comment's replies
/// (oldest first), `offset` from the cursor.
pub async fn comments(
    pool: &PgPool,
    viewer: Option<Uuid>,
    video_id: Uuid,
    parent: Option<Uuid>,
    sort: CommentSort,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Comment>, i64)> {
    let (filter, order) = match parent {
        None => (
            "c.video_id = $2 and c.parent_comment_id is null and not c.removed",
            match sort {
                CommentSort::Newest => "c.pinned desc, c.pinned_at desc nulls last, c.added_at desc, c.comment_id desc",
                CommentSort::Oldest => "c.pinned desc, c.pinned_at desc nulls last, c.added_at asc, c.comment_id asc",
                CommentSort::Top => "c.pinned desc, c.pinned_at desc nulls last, c.likes - c.dislikes desc, c.added_at desc, c.comment_id desc",
            },
        ),
        Some(_) => ("c.parent_comment_id = $3 and not c.removed", "c.added_at asc, c.comment_id asc"),
    };
    let total: i64 = sqlx::query_scalar(&format!(
        "select count(*) from comment c where ($1::uuid is null or $1::uuid is not null) and {filter}"
    ))
    .bind(viewer)
    .bind(video_id)
    .bind(parent)
    .fetch_one(pool)
    .await?;
    let rows: Vec<CommentRow> = sqlx::query_as(&format!(
        "select {COMMENT_COLUMNS} from comment c where {filter} order by {order} limit $4 offset $5"
    ))
    .bind(viewer)
    .bind(video_id)
    .bind(parent)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((rows.into_iter().map(CommentRow::into_api).collect(), total))
}

// ----- ratings -----

pub async fn expert_review(pool: &PgPool, user_id: Uuid, video: &api::Video) -> sqlx::Result<api::ExpertReviewAnswer> {
    let rows: Vec<(String, i16)> =
        sqlx::query_as("select item, rating from expert_review where user_id = $1 and video_id = $2")
            .bind(user_id)
            .bind(video.uuid)
            .fetch_all(pool)
            .await?;
    let items: HashMap<String, i32> = rows.into_iter().map(|(k, r)| (k, r as i32)).collect();
    let overall =
        user_rating(pool, user_id, video.uuid).await?.map(|r| r as i32).unwrap_or(crate::domain::DEFAULT_USER_RATING);
    let video_rating: f64 =
        sqlx::query_scalar("select rating from video where video_id = $1").bind(video.uuid).fetch_one(pool).await?;
    let properties = CRITERIA
        .iter()
        .map(|(c, name, tooltip)| {
            let slug = crate::domain::criterion_slug(*c);
            api::ExpertProperty {
                name: (*name).into(),
                slug: slug.into(),
                tooltip: (*tooltip).into(),
                rating: items.get(&format!("property:{slug}")).copied().unwrap_or(-1),
            }
        })
        .collect();
    let models = video
        .performers
        .iter()
        .map(|p| api::ExpertModel {
            slug: p.slug.clone(),
            name: p.name.clone(),
            rating: items.get(&format!("model:{}", p.id)).copied().unwrap_or(-1),
        })
        .collect();
    Ok(api::ExpertReviewAnswer {
        expert_review: api::ExpertReview { global: overall, properties, models },
        user_video_ratings: api::UserVideoRating { video_id: video.uuid, rating: overall },
        video_rating: round1(video_rating),
    })
}

// ----- favourites -----

pub async fn favourite_ids(
    pool: &PgPool,
    user_id: Uuid,
    kind: &str,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<Uuid>, i64)> {
    let total: i64 = sqlx::query_scalar("select count(*) from favourite where user_id = $1 and kind = $2")
        .bind(user_id)
        .bind(kind)
        .fetch_one(pool)
        .await?;
    let ids = sqlx::query_scalar(
        "select target_id from favourite where user_id = $1 and kind = $2 order by added_at desc, target_id desc limit $3 offset $4",
    )
    .bind(user_id)
    .bind(kind)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((ids, total))
}

pub async fn favourites_among(pool: &PgPool, user_id: Uuid, kind: &str, ids: &[Uuid]) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "select target_id from favourite where user_id = $1 and kind = $2 and target_id = any($3) order by target_id",
    )
    .bind(user_id)
    .bind(kind)
    .bind(ids)
    .fetch_all(pool)
    .await
}

// ----- reels, showcases, angels, wall -----

#[derive(sqlx::FromRow)]
struct ReelRow {
    reel_id: Uuid,
    site: String,
    title: String,
    video_id: Uuid,
    video_slug: Option<String>,
    duration_seconds: i32,
    published_at: DateTime<Utc>,
    views: i64,
    bookmarks: i64,
    bookmarked: bool,
}

impl ReelRow {
    fn into_api(self) -> api::Reel {
        let key = self.reel_id.to_string();
        api::Reel {
            image: media::image("reel", &key, 720, 1280, &self.title),
            clip: api::Trailer {
                src: media::clip("reel-clip", &key, &self.title),
                poster: media::image("reel", &key, 720, 1280, &self.title).src,
            },
            uuid: self.reel_id,
            site: self.site,
            title: self.title,
            video_id: self.video_id,
            video_slug: self.video_slug,
            duration: self.duration_seconds.max(0) as u32,
            published_at: self.published_at,
            views: self.views,
            bookmarks: self.bookmarks,
            bookmarked: self.bookmarked,
        }
    }
}

const REEL_COLUMNS: &str =
    "r.reel_id, r.site, r.title, r.video_id, (select slug from video where video_id = r.video_id) as video_slug,
    r.duration_seconds, r.published_at, r.views, r.bookmarks,
    exists (select 1 from reel_bookmark b where b.reel_id = r.reel_id and b.user_id = $1) as bookmarked";

pub async fn reels(
    pool: &PgPool,
    viewer: Option<Uuid>,
    site: &str,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(Vec<api::Reel>, i64)> {
    let scope = site_scope(site);
    let total: i64 = sqlx::query_scalar("select count(*) from reel where $1 = '*' or site = $1")
        .bind(&scope)
        .fetch_one(pool)
        .await?;
    let rows: Vec<ReelRow> = sqlx::query_as(&format!(
        "select {REEL_COLUMNS} from reel r where $2 = '*' or r.site = $2 order by r.published_at desc, r.reel_id limit $3 offset $4"
    ))
    .bind(viewer)
    .bind(&scope)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((rows.into_iter().map(ReelRow::into_api).collect(), total))
}

pub async fn reel(pool: &PgPool, viewer: Option<Uuid>, reel_id: Uuid) -> sqlx::Result<Option<api::Reel>> {
    let row: Option<ReelRow> = sqlx::query_as(&format!("select {REEL_COLUMNS} from reel r where r.reel_id = $2"))
        .bind(viewer)
        .bind(reel_id)
        .fetch_optional(pool)
        .await?;
    Ok(row.map(ReelRow::into_api))
}

pub async fn reel_exists(pool: &PgPool, reel_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from reel where reel_id = $1)").bind(reel_id).fetch_one(pool).await
}

pub async fn showcases(pool: &PgPool, site: &str, slug: Option<&str>) -> sqlx::Result<Vec<api::Showcase>> {
    let rows: Vec<(String, String, String, Vec<Uuid>)> = sqlx::query_as(
        "select slug, title, description, video_ids from showcase
         where ($1 = '*' or sites @> array[$1]) and ($2::text is null or slug = $2) order by published_at desc, slug",
    )
    .bind(site_scope(site))
    .bind(slug)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::new();
    for (slug, title, description, ids) in rows {
        let videos = videos_by_ids(pool, &ids).await?.into_iter().filter(|v| v.published).collect();
        out.push(api::Showcase {
            image: media::image("showcase", &slug, 1280, 540, &title),
            slug,
            title,
            description,
            videos,
        });
    }
    Ok(out)
}

pub async fn angels(pool: &PgPool, site: &str, slug: Option<&str>, videos_each: i64) -> sqlx::Result<Vec<api::Angel>> {
    let rows: Vec<(String, String, String, Uuid, String)> = sqlx::query_as(
        "select a.slug, a.name, a.bio, p.performer_id, p.slug from angel a join performer p using (performer_id)
         where ($1 = '*' or a.sites @> array[$1]) and ($2::text is null or a.slug = $2) order by a.name, a.slug",
    )
    .bind(site_scope(site))
    .bind(slug)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::new();
    for (slug, name, bio, performer_id, performer_slug) in rows {
        let filter = VideoFilter { site: site.to_owned(), performer: Some(performer_id), ..Default::default() };
        let videos = list_videos(pool, &filter, VideoOrder::Newest, 0, videos_each).await?;
        out.push(api::Angel {
            image: media::image("angel", &slug, 600, 800, &name),
            performer: api::PerformerRef { id: performer_id, slug: performer_slug, name: name.clone() },
            slug,
            name,
            bio,
            videos,
        });
    }
    Ok(out)
}

pub async fn wall(pool: &PgPool, site: &str, limit: i64) -> sqlx::Result<Vec<api::CuratorPost>> {
    type Row = (Uuid, String, String, DateTime<Utc>, Option<Uuid>);
    let rows: Vec<Row> = sqlx::query_as(
        "select post_id, title, text, published_at, video_id from curator_post where $1 = '*' or site = $1
         order by published_at desc, post_id limit $2",
    )
    .bind(site_scope(site))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let ids: Vec<Uuid> = rows.iter().filter_map(|r| r.4).collect();
    let mut videos: HashMap<Uuid, api::Video> =
        videos_by_ids(pool, &ids).await?.into_iter().map(|v| (v.uuid, v)).collect();
    Ok(rows
        .into_iter()
        .map(|(id, title, text, published_at, video_id)| api::CuratorPost {
            id,
            title,
            text,
            published_at,
            video: video_id.and_then(|v| videos.remove(&v)),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(hits: usize) -> (Vec<Uuid>, SearchSet) {
        let all: Vec<Uuid> = (0..hits as u128).map(Uuid::from_u128).collect();
        let kept = hits.min(SEARCH_SET_SIZE as usize);
        let set = SearchSet {
            expanded: vec![],
            ids: all[..kept].to_vec(),
            total: hits as i64,
            performers: vec![],
            categories: vec![],
        };
        (all, set)
    }

    #[test]
    fn a_page_past_what_the_set_keeps_is_not_answered_from_it() {
        let (_, s) = set(500);
        assert_eq!(s.page(228, 12).map(<[Uuid]>::len), Some(12));
        assert_eq!(s.page(232, 12), None);
        assert_eq!(s.page(600, 12), None);
        // A set that keeps every hit answers every page, past the end with none.
        let (_, s) = set(30);
        assert_eq!(s.page(24, 12).map(<[Uuid]>::len), Some(6));
        assert_eq!(s.page(240, 12).map(<[Uuid]>::len), Some(0));
    }

    proptest! {
        #[test]
        fn a_page_from_the_set_is_that_page_of_every_hit(hits in 0usize..600, offset in 0i64..700, limit in 1i64..=100) {
            let (all, s) = set(hits);
            let expected = &all[(offset as usize).min(hits)..((offset + limit) as usize).min(hits)];
            match s.page(offset, limit) {
                Some(ids) => prop_assert_eq!(ids, expected),
                // Only pages reaching past the kept hits, while there are more, are left out.
                None => prop_assert!(offset + limit > SEARCH_SET_SIZE && hits as i64 > SEARCH_SET_SIZE),
            }
        }
    }
}
