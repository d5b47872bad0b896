//! Search (query words, the ranked search set, names) and the curated shelves: reels,
//! showcases, angels and the curator wall.

use super::*;

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
