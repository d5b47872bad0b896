//! Recommendation shelves (product.md, "Recommendations"): each shelf picks videos (or performers) by a rule of
//! its own from the read models; every answer carries a fresh recommId that the tracking
//! calls refer back to.

use sqlx::PgPool;
use uuid::Uuid;

use crate::api;
use crate::queries::{self, site_scope, VideoFilter, VideoOrder};

pub const SHELVES: [&str; 11] = [
    "HOME_RECOMMENDATIONS",
    "HOME_TAG_RECOMMENDATIONS",
    "HOME_CHANNELS_RECOMMENDATIONS",
    "RECOMMENDED_MODELS",
    "HOME_RECOMMENDED_VMG",
    "HOME_RECOMMENDED_INTERNAL_CHANNELS",
    "EXTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS",
    "INTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS",
    "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION",
    "VIDEO_PAGE_RECOMMENDATIONS",
    "RECOMMENDED_VIDEOS",
];

/// Shelves that need the video the page shows.
pub fn needs_video(shelf: &str) -> bool {
    shelf.contains("VIDEO_PAGE")
}

/// Channel videos of the channels the site carries, of one kind (`internal`, `third_party`) or any.
async fn channel_videos(
    pool: &PgPool,
    site: &str,
    kind: Option<&str>,
    exclude: &[Uuid],
    limit: i64,
) -> sqlx::Result<Vec<api::Video>> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "select v.video_id from video v join channel ch using (channel_id)
         where v.published and v.site = 'channels' and ($1 = '*' or ch.sites @> array[$1])
           and ($2::text is null or ch.kind = $2) and not (v.video_id = any($3))
         order by v.rating desc, v.release_date desc, v.video_id limit $4",
    )
    .bind(site_scope(site))
    .bind(kind)
    .bind(exclude)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    queries::videos_by_ids(pool, &ids).await
}

/// The categories a member likes most: from the videos they rated 7 or more and favourited.
async fn liked_categories(pool: &PgPool, user: Option<Uuid>) -> sqlx::Result<Vec<String>> {
    let Some(user) = user else { return Ok(vec![]) };
    sqlx::query_scalar(
        "select c from (
             select unnest(v.category_slugs) as c from video_rating r join video v using (video_id) where r.user_id = $1 and r.rating >= 7
             union all
             select unnest(v.category_slugs) from favourite f join video v on v.video_id = f.target_id where f.user_id = $1 and f.kind = 'video'
         ) liked group by c order by count(*) desc, c limit 3",
    )
    .bind(user)
    .fetch_all(pool)
    .await
}

/// Videos the member already rated, left out of personal shelves.
async fn seen(pool: &PgPool, user: Option<Uuid>) -> sqlx::Result<Vec<Uuid>> {
    let Some(user) = user else { return Ok(vec![]) };
    sqlx::query_scalar("select video_id from video_rating where user_id = $1").bind(user).fetch_all(pool).await
}

pub struct Ask<'a> {
    pub shelf: &'a str,
    pub site: &'a str,
    pub video: Option<&'a api::Video>,
    pub limit: i64,
    pub user: Option<Uuid>,
    /// The brand's sister sites (the cross-navigation shelf's).
    pub sisters: &'a [String],
}

/// The shelf's videos (or performers).
pub async fn recommend(pool: &PgPool, ask: Ask<'_>) -> sqlx::Result<api::Recommendations> {
    let Ask { shelf, site, video, limit, user, sisters } = ask;
    let mut performers = Vec::new();
    let top = |f: VideoFilter| async move { queries::list_videos(pool, &f, VideoOrder::Rating, 0, limit).await };
    let base = VideoFilter { site: site.to_owned(), ..Default::default() };
    let videos = match shelf {
        "HOME_RECOMMENDATIONS" | "RECOMMENDED_VIDEOS" => {
            let seen = seen(pool, user).await?;
            let mut picked = Vec::new();
            for v in queries::list_videos(pool, &base, VideoOrder::Rating, 0, limit + seen.len() as i64).await? {
                if !seen.contains(&v.uuid) && (picked.len() as i64) < limit {
                    picked.push(v);
                }
            }
            picked
        }
        "HOME_TAG_RECOMMENDATIONS" => {
            let liked = liked_categories(pool, user).await?;
            let mut out = Vec::new();
            for c in liked {
                let f = VideoFilter { categories: vec![c], ..base.clone() };
                for v in queries::list_videos(pool, &f, VideoOrder::Rating, 0, limit).await? {
                    if !out.iter().any(|o: &api::Video| o.uuid == v.uuid) && (out.len() as i64) < limit {
                        out.push(v);
                    }
                }
            }
            if out.is_empty() {
                out = queries::list_videos(pool, &base, VideoOrder::Newest, 0, limit).await?;
            }
            out
        }
        "HOME_CHANNELS_RECOMMENDATIONS" => channel_videos(pool, site, None, &[], limit).await?,
        "HOME_RECOMMENDED_INTERNAL_CHANNELS" => channel_videos(pool, site, Some("internal"), &[], limit).await?,
        "HOME_RECOMMENDED_VMG" => {
            // The network's best from the sister brands.
            let ids: Vec<Uuid> = sqlx::query_scalar(
                "select video_id from video where published and site <> $1 and site <> 'channels'
                 order by rating desc, release_date desc, video_id limit $2",
            )
            .bind(site)
            .bind(limit)
            .fetch_all(pool)
            .await?;
            queries::videos_by_ids(pool, &ids).await?
        }
        "RECOMMENDED_MODELS" => {
            let (list, _) =
                queries::list_performers(pool, site, None, queries::PerformerOrder::Rating, 0, limit).await?;
            performers = list;
            vec![]
        }
        "EXTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS" | "INTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS" => {
            let kind = if shelf.starts_with("EXTERNAL") { "third_party" } else { "internal" };
            let exclude: Vec<Uuid> = video.map(|v| vec![v.uuid]).unwrap_or_default();
            match video.and_then(|v| v.channel.as_ref()) {
                Some(ch) => {
                    let f =
                        VideoFilter { channel: Some(ch.channel_id), exclude: video.map(|v| v.uuid), ..base.clone() };
                    let mut out = top(f).await?;
                    if (out.len() as i64) < limit {
                        let mut skip = exclude.clone();
                        skip.extend(out.iter().map(|v| v.uuid));
                        out.extend(channel_videos(pool, site, Some(kind), &skip, limit - out.len() as i64).await?);
                    }
                    out
                }
                None => channel_videos(pool, site, Some(kind), &exclude, limit).await?,
            }
        }
        // "More from our sites": the sister brands' videos most like this one, never this
        // brand's (the related shelf shows those).
        "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION" => {
            queries::from_sisters(pool, video, site, sisters, limit).await?
        }
        "VIDEO_PAGE_RECOMMENDATIONS" => match video {
            Some(v) => queries::related(pool, v, limit, false).await?,
            None => top(base.clone()).await?,
        },
        _ => vec![],
    };
    Ok(api::Recommendations {
        recomm_id: format!("rc-{}", Uuid::now_v7().simple()),
        shelf: shelf.to_owned(),
        videos,
        performers,
    })
}
