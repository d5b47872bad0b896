//! A member's favourites.

use super::*;

/// Writes what a favourite added or removed changes in the read models (`super::apply`
/// sends each event to its subject; the others are not this file's).
pub(super) async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
    match event {
        CatalogEvent::FavouriteAdded { user_id, target, added_at } => {
            let (kind, id) = favourite_parts(target);
            sqlx::query(
                "insert into favourite (user_id, kind, target_id, added_at) values ($1, $2, $3, $4) on conflict do nothing",
            )
            .bind(user_id)
            .bind(kind)
            .bind(id)
            .bind(added_at)
            .execute(&mut *tx)
            .await?;
        }
        CatalogEvent::FavouriteRemoved { user_id, target, .. } => {
            let (kind, id) = favourite_parts(target);
            sqlx::query("delete from favourite where user_id = $1 and kind = $2 and target_id = $3")
                .bind(user_id)
                .bind(kind)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        _ => {}
    }
    Ok(())
}
