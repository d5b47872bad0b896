//! Videos (cards, lists, pages, picture sets), performers, categories and filters, and channels.

use super::*;

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
    /// Only the free limited trial's videos (flagged, outside a third party's channel) of
    /// these sites: the ones a user's trial covers ("free for your trial").
    pub free_trial_of: Option<Vec<String>>,
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
    if let Some(sites) = &f.free_trial_of {
        q.push(" and v.is_free_limited_trial and not v.is_third_party_channel and v.site = any(")
            .push_bind(sites.clone())
            .push(")");
    }
}

/// A brand's page of one category (and nothing else): read from `video_category`.
fn one_category(f: &VideoFilter) -> Option<(String, String)> {
    let scope = site_scope(&f.site);
    match (f.categories.as_slice(), f.performer, f.channel, f.award_only, &f.ids, f.exclude) {
        ([c], None, None, false, None, None) if scope != "*" && f.free_trial_of.is_none() => Some((scope, c.clone())),
        _ => None,
    }
}

/// The facet a filter's total is kept under, when it has one.
fn facet_of(f: &VideoFilter) -> Option<(String, String)> {
    if f.ids.is_some() || f.exclude.is_some() || f.free_trial_of.is_some() {
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

/// A video by slug on a site (the combined brand finds any brand's); a channel's video only on
/// the brands that carry its channel.
pub async fn video_by_slug(pool: &PgPool, site: &str, slug: &str) -> sqlx::Result<Option<api::Video>> {
    let row: Option<CardRow> = sqlx::query_as(&format!(
        "select {CARD_COLUMNS} from video v where v.slug = $2 and v.published
           and (v.site = $1 or $3 or (v.site = 'channels' and exists (
                 select 1 from channel c where c.channel_id = v.channel_id and c.sites @> array[$1])))
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

/// The cross-navigation shelf: videos of the sister sites (any brand but the video's and
/// `site`'s when none are named), those sharing the most performers and categories with `video`
/// first, then the best rated.
pub async fn from_sisters(
    pool: &PgPool,
    video: Option<&api::Video>,
    site: &str,
    sisters: &[String],
    count: i64,
) -> sqlx::Result<Vec<api::Video>> {
    if count <= 0 {
        return Ok(vec![]);
    }
    let categories: Vec<String> =
        video.map(|v| v.categories.iter().map(|c| c.slug.clone()).collect()).unwrap_or_default();
    let performers: Vec<Uuid> = video.map(|v| v.performers.iter().map(|p| p.id).collect()).unwrap_or_default();
    let own = video.map_or(site, |v| v.site.as_str());
    let rows: Vec<CardRow> = sqlx::query_as(&format!(
        "with candidate as (
             select video_id, release_date, rating,
                    (select count(*) from unnest(performer_ids) p where p = any($3)) * 3
                  + (select count(*) from unnest(category_slugs) c where c = any($4)) as score
             from video
             where published and site <> 'channels' and site <> $1 and site <> $2
               and (cardinality($5::text[]) = 0 or site = any($5))
             order by (performer_ids && $3 or category_slugs && $4) desc, rating desc, release_date desc
             limit 400
         ), picked as (
             select video_id, score, rating, release_date from candidate
             order by score desc, rating desc, release_date desc, video_id limit $6
         )
         select {CARD_COLUMNS} from picked join video v using (video_id)
         order by picked.score desc, picked.rating desc, v.release_date desc, v.video_id"
    ))
    .bind(own)
    .bind(site)
    .bind(&performers)
    .bind(&categories)
    .bind(sisters)
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
