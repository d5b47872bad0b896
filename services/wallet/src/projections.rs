//! Read models kept from events: the wallet's own (balances and the ledger, written in the
//! append's transaction) and the subscriptions it hears of (written by the consumer).
//!
//! The live writers call the same functions as a rebuild, so a rebuilt model equals the live one.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent, SubscriptionStanding};
use proto_events::wallet::WalletEvent;
use proto_events::Envelope;
use runtime::projection::{decode_known, ReadModel};
use runtime::StoreError;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::subscriptions::{self, Status, Subscription};

/// Balances (`wallet`) and the ledger (`ledger_entry`), from the wallet's own events.
pub const LEDGER: ReadModel = ReadModel::own_events("wallet.ledger", &["wallet", "ledger_entry"], |tx, event| {
    Box::pin(async move { Ok(apply_wallet_events(tx, std::slice::from_ref(event)).await?) })
});

fn decode_wallet_event(envelope: &Envelope) -> Result<WalletEvent, StoreError> {
    runtime::event_store::decode(envelope)
}

fn to_i64(envelope: &Envelope, n: u64) -> Result<i64, StoreError> {
    i64::try_from(n)
        .map_err(|_| StoreError::Corrupt { event_id: envelope.event_id, reason: format!("{n} does not fit a bigint") })
}

/// What a run of events leaves in a wallet row; `None` keeps the column as it is.
#[derive(Default)]
struct RowChange {
    version: i64,
    gems: Option<i64>,
    credits: Option<i64>,
    last_acknowledged_at: Option<DateTime<Utc>>,
    gems_unacknowledged: Option<bool>,
}

/// Writes the read models of wallet events: one statement per wallet.
pub async fn apply_wallet_events(conn: &mut PgConnection, envelopes: &[Envelope]) -> Result<(), StoreError> {
    let mut wallets: BTreeMap<Uuid, (RowChange, LedgerColumns)> = BTreeMap::new();
    for envelope in envelopes {
        let event = decode_wallet_event(envelope)?;
        let (row, ledger) = wallets.entry(event.user_id()).or_default();
        row.version = envelope.stream_version;
        if let Some(entry) = event.ledger_entry() {
            let balance = Some(to_i64(envelope, entry.balance_after)?);
            match entry.asset {
                proto_events::wallet::Asset::Gems => row.gems = balance,
                proto_events::wallet::Asset::Credits => row.credits = balance,
            }
            ledger.event_id.push(envelope.event_id);
            ledger.stream_version.push(envelope.stream_version);
            ledger.currency.push(entry.asset.as_str());
            ledger.entry_type.push(movement_name(entry.movement));
            ledger.reason.push(entry.reason);
            ledger.reference.push(entry.reference.to_owned());
            ledger.amount.push(to_i64(envelope, entry.amount)?);
            ledger.balance_after.push(to_i64(envelope, entry.balance_after)?);
            ledger.created_at.push(envelope.occurred_at);
        }
        match event {
            WalletEvent::GemsGranted { .. } => row.gems_unacknowledged = Some(true),
            WalletEvent::NewGemsBalanceAcknowledged { at, .. } => {
                row.last_acknowledged_at = Some(at);
                row.gems_unacknowledged = Some(false);
            }
            _ => {}
        }
    }
    for (user_id, (row, ledger)) in wallets {
        sqlx::query(
            "with entry as (
                 insert into ledger_entry (event_id, user_id, stream_version, currency, entry_type, reason,
                     reference, amount, balance_after, created_at, lookup)
                 select e.event_id, $1, e.stream_version, e.currency, e.entry_type, e.reason, e.reference,
                     e.amount, e.balance_after, e.created_at, $1::text || ' ' || e.reference
                 from unnest($7::uuid[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[],
                     $13::bigint[], $14::bigint[], $15::timestamptz[])
                     as e(event_id, stream_version, currency, entry_type, reason, reference, amount,
                          balance_after, created_at)
             )
             insert into wallet (user_id, version, gems, credits, last_acknowledged_at, gems_unacknowledged)
             values ($1, $2, coalesce($3, 0), coalesce($4, 0), $5, coalesce($6, false))
             on conflict (user_id) do update set
                 version = excluded.version,
                 gems = coalesce($3, wallet.gems),
                 credits = coalesce($4, wallet.credits),
                 last_acknowledged_at = coalesce($5, wallet.last_acknowledged_at),
                 gems_unacknowledged = coalesce($6, wallet.gems_unacknowledged)",
        )
        .bind(user_id)
        .bind(row.version)
        .bind(row.gems)
        .bind(row.credits)
        .bind(row.last_acknowledged_at)
        .bind(row.gems_unacknowledged)
        .bind(&ledger.event_id)
        .bind(&ledger.stream_version)
        .bind(&ledger.currency)
        .bind(&ledger.entry_type)
        .bind(&ledger.reason)
        .bind(&ledger.reference)
        .bind(&ledger.amount)
        .bind(&ledger.balance_after)
        .bind(&ledger.created_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

#[derive(Default)]
struct LedgerColumns {
    event_id: Vec<Uuid>,
    stream_version: Vec<i64>,
    currency: Vec<&'static str>,
    entry_type: Vec<&'static str>,
    reason: Vec<&'static str>,
    reference: Vec<String>,
    amount: Vec<i64>,
    balance_after: Vec<i64>,
    created_at: Vec<DateTime<Utc>>,
}

/// The `lookup` column of a ledger entry: what [`crate::commands`] finds a grant or debit by.
pub fn lookup_key(user_id: Uuid, reference: &str) -> String {
    format!("{user_id} {reference}")
}

/// `transactionType`: grant, debit or forfeit.
pub fn movement_name(movement: proto_events::wallet::Movement) -> &'static str {
    use proto_events::wallet::Movement;
    match movement {
        Movement::Grant => "grant",
        Movement::Debit => "debit",
        Movement::Forfeit => "forfeit",
    }
}

/// The subscriptions read model (`subscription`), rebuilt from the inbox of the consumer
/// reading `queue` (a type added after this wallet was built is passed over).
pub fn subscriptions(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox("wallet.subscriptions", queue, &["subscription"], |tx, envelope| {
        Box::pin(async move {
            if let Some(event) = decode_known::<SubscriptionEvent>(envelope)? {
                apply_subscription_event(tx, &event).await?;
            }
            Ok(())
        })
    })
}

/// Folds `event` into its subscription's row, which it locks first (`for update`), and
/// returns the subscription as it was before.
pub async fn apply_subscription_event(
    conn: &mut PgConnection,
    event: &SubscriptionEvent,
) -> Result<Option<Subscription>, sqlx::Error> {
    let id = event.subscription_id();
    let before = subscription(conn, id, Lock::ForUpdate).await?;
    if let Some(after) = subscriptions::evolve(before.clone(), event) {
        sqlx::query(
            "insert into subscription (subscription_id, user_id, kind, status, cancelled, member_since)
             values ($1, $2, $3, $4, $5, $6)
             on conflict (subscription_id) do update set
                 user_id = excluded.user_id, kind = excluded.kind, status = excluded.status,
                 cancelled = excluded.cancelled, member_since = excluded.member_since",
        )
        .bind(id)
        .bind(after.user_id)
        .bind(after.kind.as_str())
        .bind(after.status().as_str())
        .bind(after.standing.cancelled)
        .bind(after.member_since)
        .execute(&mut *conn)
        .await?;
    }
    Ok(before)
}

/// A `subscription` row as stored.
#[derive(sqlx::FromRow)]
struct SubscriptionRow {
    user_id: Uuid,
    kind: String,
    status: String,
    cancelled: bool,
    member_since: Option<DateTime<Utc>>,
}

/// How a reader of the subscriptions read model locks the row it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lock {
    /// A writer: the consumer folding an event in.
    ForUpdate,
    /// A reader that must not race a writer: a Friday grant, so it serialises with a cancel.
    ForShare,
}

pub async fn subscription(conn: &mut PgConnection, id: Uuid, lock: Lock) -> Result<Option<Subscription>, sqlx::Error> {
    let sql = match lock {
        Lock::ForUpdate => {
            "select user_id, kind, status, cancelled, member_since from subscription where subscription_id = $1 for update"
        }
        Lock::ForShare => {
            "select user_id, kind, status, cancelled, member_since from subscription where subscription_id = $1 for share"
        }
    };
    let row: Option<SubscriptionRow> = sqlx::query_as(sql).bind(id).fetch_optional(&mut *conn).await?;
    row.map(|SubscriptionRow { user_id, kind, status, cancelled, member_since }| {
        let decode = |what: &str, value: &str| sqlx::Error::Decode(format!("subscription {what} {value:?}").into());
        Ok(Subscription {
            user_id,
            kind: MembershipKind::from_name(&kind).ok_or_else(|| decode("kind", &kind))?,
            standing: SubscriptionStanding::stored(
                Status::from_name(&status).ok_or_else(|| decode("status", &status))?,
                cancelled,
            ),
            member_since,
        })
    })
    .transpose()
}
