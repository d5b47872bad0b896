//! Reels and their tracking, recommendation clicks, showcases, angels and the curator wall.

use super::*;

/// Writes what a reel, recommendation, showcase, angel or wall event changes in the read
/// models (`super::apply` sends each event to its subject; the others are not this file's).
pub(super) async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
    match event {
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
        _ => {}
    }
    Ok(())
}
