//! Read-side SQL: what the gems modal and the transactions list show.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// A wallet's balances and acknowledgement; a user with no wallet event has none.
#[derive(Clone, Debug, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Balances {
    pub gems: i64,
    pub credits: i64,
    pub last_acknowledged_at: Option<DateTime<Utc>>,
    pub gems_unacknowledged: bool,
}

pub async fn balances(pool: &PgPool, user_id: Uuid) -> Result<Balances, sqlx::Error> {
    let row: Option<Balances> = sqlx::query_as(
        "select gems, credits, last_acknowledged_at, gems_unacknowledged from wallet where user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.unwrap_or_default())
}

/// One line of the ledger (a wallet transaction).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Transaction {
    pub amount: i64,
    /// `gems` or `credits`.
    pub currency: String,
    pub created_at: DateTime<Utc>,
    /// `grant`, `debit` or `forfeit`.
    pub transaction_type: String,
    /// `friday_gems`, `retention_deal`, `pack_unlock`, `subscription_cancelled`, ...
    pub transaction_reason: String,
    pub reference: String,
    pub balance_after: i64,
}

/// A wallet's transactions at or after `since`, newest first, at most `limit`.
pub async fn transactions(
    pool: &PgPool,
    user_id: Uuid,
    since: Option<DateTime<Utc>>,
    limit: i64,
) -> Result<Vec<Transaction>, sqlx::Error> {
    sqlx::query_as(
        "select amount, currency, created_at, entry_type as transaction_type, reason as transaction_reason,
                reference, balance_after
         from ledger_entry
         where user_id = $1 and ($2::timestamptz is null or created_at >= $2)
         order by created_at desc, stream_version desc
         limit $3",
    )
    .bind(user_id)
    .bind(since)
    .bind(limit)
    .fetch_all(pool)
    .await
}
