//! Read-side SQL: findDeals, the operators' listing, the interstitial and who is a
//! porn-portal subscriber.

use chrono::{DateTime, Utc};
use proto_events::deals::{Deal, DealType};
use sqlx::PgPool;
use uuid::Uuid;

use crate::domain::Viewer;

fn deals_of(bodies: Vec<serde_json::Value>) -> Result<Vec<Deal>, sqlx::Error> {
    bodies.into_iter().map(|b| serde_json::from_value(b).map_err(|e| sqlx::Error::Decode(Box::new(e)))).collect()
}

/// findDeals: the deals of `site` enabled for `deal_type`, special offers only for
/// porn-portal subscribers, by the type's rank then id, at most `limit`. The same rule as
/// [`crate::domain::find_deals`].
pub async fn find_deals(
    pool: &PgPool,
    site: &str,
    deal_type: DealType,
    viewer: Viewer,
    limit: u32,
) -> Result<Vec<Deal>, sqlx::Error> {
    // One statement per type, so each reads its own partial index.
    let sql = match deal_type {
        DealType::Carousel => {
            "select body from deal where site = $1 and enabled and (not special_offer or $2)
             order by rank, deal_id limit $3"
        }
        DealType::Listing => {
            "select body from deal where site = $1 and enabled_list and (not special_offer or $2)
             order by rank_listing, deal_id limit $3"
        }
        DealType::Interstitial => {
            "select body from deal where site = $1 and enabled_interstitial and (not special_offer or $2)
             order by rank_interstitial, deal_id limit $3"
        }
    };
    let bodies = sqlx::query_scalar(sql)
        .bind(site)
        .bind(viewer == Viewer::PornPortalSubscriber)
        .bind(i64::from(limit))
        .fetch_all(pool)
        .await?;
    deals_of(bodies)
}

/// [`find_deals`] as the API answers it: the JSON array of the deals' views, built by the
/// database from the stored answers, so the hottest read parses and writes no JSON here.
pub async fn find_deals_json(
    pool: &PgPool,
    site: &str,
    deal_type: DealType,
    viewer: Viewer,
    limit: u32,
) -> Result<String, sqlx::Error> {
    let sql = match deal_type {
        DealType::Carousel => {
            "select coalesce(json_agg(view order by rank, deal_id), '[]')::text from (
                 select view, rank, deal_id from deal where site = $1 and enabled and (not special_offer or $2)
                 order by rank, deal_id limit $3) d"
        }
        DealType::Listing => {
            "select coalesce(json_agg(view order by rank_listing, deal_id), '[]')::text from (
                 select view, rank_listing, deal_id from deal
                 where site = $1 and enabled_list and (not special_offer or $2)
                 order by rank_listing, deal_id limit $3) d"
        }
        DealType::Interstitial => {
            "select coalesce(json_agg(view order by rank_interstitial, deal_id), '[]')::text from (
                 select view, rank_interstitial, deal_id from deal
                 where site = $1 and enabled_interstitial and (not special_offer or $2)
                 order by rank_interstitial, deal_id limit $3) d"
        }
    };
    sqlx::query_scalar(sql)
        .bind(site)
        .bind(viewer == Viewer::PornPortalSubscriber)
        .bind(i64::from(limit))
        .fetch_one(pool)
        .await
}

/// Every deal of a site, enabled or not, by carousel rank then id (the operators' list).
pub async fn site_deals(pool: &PgPool, site: &str) -> Result<Vec<Deal>, sqlx::Error> {
    let bodies = sqlx::query_scalar("select body from deal where site = $1 order by rank, deal_id")
        .bind(site)
        .fetch_all(pool)
        .await?;
    deals_of(bodies)
}

pub async fn deal(pool: &PgPool, deal_id: Uuid) -> Result<Option<Deal>, sqlx::Error> {
    let body: Option<serde_json::Value> =
        sqlx::query_scalar("select body from deal where deal_id = $1").bind(deal_id).fetch_optional(pool).await?;
    Ok(deals_of(body.into_iter().collect())?.pop())
}

/// When the user's last snooze of the interstitial on `site` ends, if they ever snoozed it.
pub async fn snoozed_until(pool: &PgPool, user_id: Uuid, site: &str) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar("select snoozed_until from interstitial_snooze where user_id = $1 and site = $2")
        .bind(user_id)
        .bind(site)
        .fetch_optional(pool)
        .await
}

/// Who sees special offers: a user with a porn-portal subscription that has not ended
/// (see [`crate::projections::is_porn_portal_subscriber`]).
pub async fn viewer(pool: &PgPool, user_id: Option<Uuid>) -> Result<Viewer, sqlx::Error> {
    let Some(user_id) = user_id else { return Ok(Viewer::Everyone) };
    let subscriber: bool = sqlx::query_scalar(
        "select exists (select 1 from portal_subscription
                        where user_id = $1 and kind = 'porn-portal' and status <> 'ended')",
    )
    .bind(user_id)
    .fetch_one(pool)
    .await?;
    Ok(if subscriber { Viewer::PornPortalSubscriber } else { Viewer::Everyone })
}
