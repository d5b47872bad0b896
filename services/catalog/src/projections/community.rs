//! Comments, votes, pins, ratings and expert reviews, and the averages they move.

use super::*;

/// Sets a member's overall rating of a video and moves the video's and its performers' averages.
pub(super) async fn set_overall(
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

/// Writes what a community event changes in the read models (`super::apply` sends each
/// event to its subject; the others are not this file's).
pub(super) async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
    match event {
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
        _ => {}
    }
    Ok(())
}
