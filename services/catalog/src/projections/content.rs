//! Listings, pages and search words of videos, performers, categories, channels, packs and
//! picture sets.

use super::*;

pub(super) async fn bump(tx: &mut PgConnection, counts: &BTreeMap<(String, String), i64>) -> sqlx::Result<()> {
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

pub(super) async fn add_terms(tx: &mut PgConnection, terms: &[String]) -> sqlx::Result<()> {
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
pub(super) async fn write_postings(tx: &mut PgConnection, ids: &[Uuid]) -> sqlx::Result<()> {
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

pub(super) async fn upsert_video(
    tx: &mut PgConnection,
    video: &Video,
    at: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<()> {
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

/// Writes what a content event changes in the read models (`super::apply` sends each
/// event to its subject; the others are not this file's).
pub(super) async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
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
        _ => {}
    }
    Ok(())
}
