//! Read-side SQL.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use crate::view::{self, FullRead, SubscriptionRow};

const COLUMNS: &str =
    "subscription_id, user_id, site, sites, kind, is_free_limited_trial, biller, active_since, join_date,
    active, cancelled, ended, ended_at, nats_code, updated_at";

/// The tandem parent of a child account, if the user is one.
pub async fn tandem_parent(pool: &PgPool, user_id: Uuid) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<Uuid>>("select tandem_parent_user_id from account where user_id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await
        .map(Option::flatten)
}

/// A user's own subscriptions, most recently changed first.
pub async fn own_subscriptions(pool: &PgPool, user_id: Uuid) -> Result<Vec<SubscriptionRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "select {COLUMNS} from member_subscription where user_id = $1 order by updated_at desc, active_since desc"
    ))
    .bind(user_id)
    .fetch_all(pool)
    .await
}

/// The subscription read of a user on a tenant (a tandem child reads its parent's).
pub async fn read(pool: &PgPool, user_id: Uuid, tenant: &str, now: DateTime<Utc>) -> Result<FullRead, sqlx::Error> {
    let parent = tandem_parent(pool, user_id).await?;
    let subs = own_subscriptions(pool, parent.unwrap_or(user_id)).await?;
    Ok(view::read(user_id, &subs, parent, tenant, now))
}

/// Whether the e-mail has an account or is about to: an approved signup's account is made at
/// approval, but reaches this service's `account` table only by event, a moment later.
pub async fn email_taken(pool: &PgPool, email: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from account where email = $1)
             or exists (select 1 from signup where email = $1 and status = 'approved')",
    )
    .bind(email)
    .fetch_one(pool)
    .await
}

/// What was bought and how it rebills, for a subscription.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Terms {
    pub subscription_id: Uuid,
    pub biller: String,
    pub subscription_ref: String,
    pub join_option_id: Option<i32>,
}

pub async fn terms(pool: &PgPool, subscription_id: Uuid) -> Result<Option<Terms>, sqlx::Error> {
    sqlx::query_as(
        "select subscription_id, biller, subscription_ref, join_option_id from billing_subscription where subscription_id = $1",
    )
    .bind(subscription_id)
    .fetch_optional(pool)
    .await
}
