//! What may be asked of a wallet ([`Command`]), what it looks up to decide
//! ([`Lookup`], [`Grant`]) and the answers that refuse ([`DomainError`]).

use chrono::{DateTime, Utc};
use proto_events::wallet::{
    Asset, CreditsDebitReason, CreditsGrantReason, GemsDebitReason, GemsForfeitReason, GemsGrantReason,
};
use uuid::Uuid;

use crate::calendar::{GemsWeek, WeekKey};

/// Whether a subscription earns Friday gems, as the subscriptions read model knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Earning {
    /// Active full membership since this instant (start, upgrade or reactivation).
    Since(DateTime<Utc>),
    NotEarning,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The weekly gems of one subscription.
    GrantFridayGems { subscription_id: Uuid, week: GemsWeek, amount: u64, earning: Earning },
    /// A retention deal's `offeredGems`, on the reactivation of `transaction_id`.
    GrantRetentionGems { subscription_id: Uuid, transaction_id: String, amount: u64 },
    /// Takes the whole gems balance: `subscription_id` ended.
    ForfeitGems { subscription_id: Uuid, reason: GemsForfeitReason },
    DebitGems {
        /// The same key twice debits once (for a pack unlock: the unlock id).
        idempotency_key: String,
        amount: u64,
        reason: GemsDebitReason,
        /// The channel pack the gems pay for (named in `GemsDebited`).
        channel_pack_id: Uuid,
        /// Told to the user when the gems do not suffice.
        days_until_refresh_gems: u32,
    },
    /// Pay-per-video credits bought in `transaction_id`.
    GrantPurchasedCredits { subscription_id: Uuid, transaction_id: String, amount: u64 },
    DebitCredits {
        /// The same key twice debits once (for a video unlock: the unlock id).
        idempotency_key: String,
        amount: u64,
        reason: CreditsDebitReason,
    },
    /// The user closed the gems modal (`acknowledgeNewGemsBalance`).
    AcknowledgeNewGemsBalance { now: DateTime<Utc> },
}

/// An answer, not a failure: the command is refused and nothing is recorded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("not enough gems: {balance} held, {needed} needed")]
    NotEnoughGems { balance: u64, needed: u64, days_until_refresh_gems: u32 },
    #[error("not enough credits: {balance} held, {needed} needed")]
    NotEnoughCredits { balance: u64, needed: u64 },
    #[error("idempotency key {key} was used for another debit")]
    IdempotencyKeyReused { key: String },
    #[error("a debit of nothing")]
    NothingToDebit,
    #[error("subscription {subscription_id} does not earn the gems of {week}")]
    NotEarningThisWeek { subscription_id: Uuid, week: WeekKey },
    #[error("the balance would overflow")]
    BalanceOverflow,
}

/// What a grant is idempotent by: its asset, reason and reference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grant {
    Gems(GemsGrantReason, String),
    Credits(CreditsGrantReason, String),
}

impl Grant {
    pub fn asset(&self) -> Asset {
        match self {
            Grant::Gems(..) => Asset::Gems,
            Grant::Credits(..) => Asset::Credits,
        }
    }

    /// The reason's wire spelling.
    pub fn reason(&self) -> &'static str {
        match self {
            Grant::Gems(reason, _) => reason.as_str(),
            Grant::Credits(reason, _) => reason.as_str(),
        }
    }

    pub fn reference(&self) -> &str {
        match self {
            Grant::Gems(_, reference) | Grant::Credits(_, reference) => reference,
        }
    }

    /// A grant read back from its wire spelling; `None` for a reason this code does not know.
    pub fn parse(asset: Asset, reason: &str, reference: String) -> Option<Grant> {
        let reason = serde_json::Value::String(reason.to_owned());
        match asset {
            Asset::Gems => serde_json::from_value(reason).ok().map(|r| Grant::Gems(r, reference)),
            Asset::Credits => serde_json::from_value(reason).ok().map(|r| Grant::Credits(r, reference)),
        }
    }
}

/// What deciding a command looks up in the wallet's history besides its balances.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lookup {
    /// Whether this grant was made.
    Grant(Grant),
    /// The receipt of the debit under this idempotency key.
    Debit(String),
}

impl Lookup {
    /// The ledger reference the lookup is about.
    pub fn reference(&self) -> &str {
        match self {
            Lookup::Grant(grant) => grant.reference(),
            Lookup::Debit(key) => key,
        }
    }
}

impl Command {
    /// The one thing of the past, besides balances and the acknowledgement, that deciding
    /// this command depends on.
    pub fn lookup(&self) -> Option<Lookup> {
        match self {
            Command::GrantFridayGems { subscription_id, week, .. } => Some(Lookup::Grant(Grant::Gems(
                GemsGrantReason::FridayGems,
                friday_gems_reference(*subscription_id, week.key),
            ))),
            Command::GrantRetentionGems { subscription_id, transaction_id, .. } => Some(Lookup::Grant(Grant::Gems(
                GemsGrantReason::RetentionDeal,
                transaction_reference(*subscription_id, transaction_id),
            ))),
            Command::GrantPurchasedCredits { subscription_id, transaction_id, .. } => {
                Some(Lookup::Grant(Grant::Credits(
                    CreditsGrantReason::PpvPurchase,
                    transaction_reference(*subscription_id, transaction_id),
                )))
            }
            Command::DebitGems { idempotency_key, .. } | Command::DebitCredits { idempotency_key, .. } => {
                Some(Lookup::Debit(idempotency_key.clone()))
            }
            Command::ForfeitGems { .. } | Command::AcknowledgeNewGemsBalance { .. } => None,
        }
    }
}

/// Reference of a Friday grant: `<subscription>/<week>`.
pub fn friday_gems_reference(subscription_id: Uuid, week: WeekKey) -> String {
    format!("{subscription_id}/{week}")
}

/// Reference of a grant caused by a subscription's transaction: `<subscription>/<transaction>`.
pub fn transaction_reference(subscription_id: Uuid, transaction_id: &str) -> String {
    format!("{subscription_id}/{transaction_id}")
}
