//! A member's favourites.

use super::*;

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
