//! The bulk seed's writer: many new videos and first ratings as a few set statements, the
//! same rows as [`super::apply`] one event at a time.

use super::community::set_overall;
use super::content::{add_terms, bump, upsert_video, write_postings};
use super::*;

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
    fn a_pg_array_literal_quotes_its_items() {
        assert_eq!(pg_array(&["a", "b\"c"]), r#"{"a","b\"c"}"#);
    }
}
