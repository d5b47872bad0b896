//! What a brand's sitemaps list: the same sets its pages show (its published videos, the
//! performers, categories, channels and showcases of its site), oldest published first, and
//! the generation they were read under (migration `0009_sitemap_generation.sql`).

use super::*;
use crate::api::{SitemapEntry, SitemapKind, SitemapSection, SitemapVideo};

/// The read-generation scope every change to what a sitemap lists bumps.
pub const SITEMAP_SCOPE: &str = "sitemap";

/// The generation of everything the sitemaps list (it only grows).
pub async fn sitemap_generation(db: &mut sqlx::PgConnection) -> sqlx::Result<i64> {
    sqlx::query_scalar("select coalesce(sum(generation), 0)::bigint from read_generation where scope = $1")
        .bind(SITEMAP_SCOPE)
        .fetch_one(db)
        .await
}

/// The `from ... where` of a kind's rows for `site` (`$1` is its scope, `*` for the combined brand).
fn rows_of(kind: SitemapKind) -> &'static str {
    match kind {
        SitemapKind::Videos => {
            "from video v where v.published and (($1 = '*' and v.site <> 'channels') or v.site = $1)"
        }
        SitemapKind::Performers => "from performer v where v.video_count > 0 and ($1 = '*' or v.sites @> array[$1])",
        SitemapKind::Categories => {
            "from category v where ($1 = '*' or v.sites @> array[$1])
               and exists (select 1 from listing_count n where n.site = $1 and n.facet = 'category:' || v.slug and n.n > 0)"
        }
        SitemapKind::Channels => "from channel v where v.video_count > 0 and ($1 = '*' or v.sites @> array[$1])",
        SitemapKind::Showcases => "from showcase v where ($1 = '*' or v.sites @> array[$1])",
    }
}

/// When a row of the kind was published (its `lastmod`), and its order key.
fn published(kind: SitemapKind) -> (&'static str, &'static str) {
    match kind {
        SitemapKind::Videos => ("v.published_at", "v.video_id"),
        SitemapKind::Performers => ("v.published_at", "v.performer_id"),
        SitemapKind::Categories => ("v.defined_at", "v.category_id"),
        SitemapKind::Channels => ("v.published_at", "v.channel_id"),
        SitemapKind::Showcases => ("v.published_at", "v.showcase_id"),
    }
}

/// How many of each kind `site` has, with the newest publication of each.
pub async fn sitemap_sections(db: &mut sqlx::PgConnection, site: &str) -> sqlx::Result<Vec<SitemapSection>> {
    let scope = site_scope(site);
    let mut sections = Vec::with_capacity(SitemapKind::ALL.len());
    for kind in SitemapKind::ALL {
        let (at, _) = published(kind);
        let (count, last_modified): (i64, Option<DateTime<Utc>>) =
            sqlx::query_as(&format!("select count(*), max({at}) {}", rows_of(kind)))
                .bind(&scope)
                .fetch_one(&mut *db)
                .await?;
        sections.push(SitemapSection { kind, count: count.max(0) as u64, last_modified });
    }
    Ok(sections)
}

#[derive(sqlx::FromRow)]
struct EntryRow {
    slug: String,
    last_modified: DateTime<Utc>,
    title: Option<String>,
    description: Option<String>,
    duration_seconds: Option<i32>,
    release_date: Option<DateTime<Utc>>,
}

/// Up to `limit` entries of `kind` for `site` from `offset`, oldest published first.
pub async fn sitemap_entries(
    db: &mut sqlx::PgConnection,
    site: &str,
    kind: SitemapKind,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<SitemapEntry>> {
    let (at, id) = published(kind);
    let video_columns = if kind == SitemapKind::Videos {
        "v.title, v.description, v.duration_seconds, v.release_date"
    } else {
        "null::text as title, null::text as description, null::int as duration_seconds,
         null::timestamptz as release_date"
    };
    let sql = format!(
        "select v.slug, {at} as last_modified, {video_columns} {} order by {at}, {id} limit $2 offset $3",
        rows_of(kind)
    );
    let rows: Vec<EntryRow> =
        sqlx::query_as(&sql).bind(site_scope(site)).bind(limit).bind(offset).fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let video = (kind == SitemapKind::Videos).then(|| {
                let title = r.title.unwrap_or_default();
                SitemapVideo {
                    thumbnail: media::image("video", &r.slug, 1280, 720, &title).src,
                    trailer: media::trailer(&r.slug),
                    description: r.description.unwrap_or_default(),
                    duration: r.duration_seconds.unwrap_or(0).max(0) as u32,
                    release_date: r.release_date.unwrap_or(r.last_modified),
                    title,
                }
            });
            SitemapEntry { slug: r.slug, last_modified: r.last_modified, video }
        })
        .collect())
}
