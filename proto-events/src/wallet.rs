//! A user's gems and pay-per-video credits as a ledger: one stream per user
//! (`wallet-<user uuid>`, see [`stream_id`]).
//!
//! Every movement is one event with its amount, reason, reference and the balance after
//! it, so a reader never recomputes a balance and a reconciler can find a debit by its
//! reference. Balances are never negative: a debit above the balance is refused before it
//! becomes an event.
//!
//! References, by reason:
//! - `friday_gems`: `<subscription uuid>/<ISO week of the grant day>` (`…/2026-W53`)
//! - `retention_deal`, `ppv_purchase`: `<subscription uuid>/<biller transaction id>`
//! - `subscription_*` forfeits: `<subscription uuid>`
//! - `pack_unlock`, `video_unlock`: the debit's idempotency key (the unlock id)
//!
//! Readers: wallet (balance and transactions read models), unlocks (finishes a pack unlock
//! whose debit is recorded), gateway through wallet (gems modal).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::EventFamily;

/// The wallet stream of a user.
pub fn stream_id(user_id: Uuid) -> String {
    format!("wallet-{user_id}")
}

/// What a ledger counts: gems (unlock channel packs) or pay-per-video credits (unlock videos).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Asset {
    Gems,
    Credits,
}

/// Why gems arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GemsGrantReason {
    /// The weekly gems of an active site subscription.
    FridayGems,
    /// A retention deal's `offeredGems`, granted on reactivation.
    RetentionDeal,
}

/// What gems were spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GemsDebitReason {
    PackUnlock,
}

/// Why gems were lost: the end of a subscription, in any of its forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GemsForfeitReason {
    SubscriptionCancelled,
    SubscriptionChargedBack,
    SubscriptionRefunded,
    /// A subscription that ran out without a cancel first (a cancel has already forfeited).
    SubscriptionExpired,
}

/// Why credits arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreditsGrantReason {
    PpvPurchase,
}

/// What credits were spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreditsDebitReason {
    VideoUnlock,
}

macro_rules! wire_names {
    ($($ty:ty { $($variant:ident => $name:literal),+ $(,)? })+) => {$(
        impl $ty {
            /// The wire spelling, as in the event payload.
            pub fn as_str(self) -> &'static str {
                match self { $(<$ty>::$variant => $name),+ }
            }
        }
    )+};
}

wire_names! {
    Asset { Gems => "gems", Credits => "credits" }
    GemsGrantReason { FridayGems => "friday_gems", RetentionDeal => "retention_deal" }
    GemsDebitReason { PackUnlock => "pack_unlock" }
    GemsForfeitReason {
        SubscriptionCancelled => "subscription_cancelled",
        SubscriptionChargedBack => "subscription_charged_back",
        SubscriptionRefunded => "subscription_refunded",
        SubscriptionExpired => "subscription_expired",
    }
    CreditsGrantReason { PpvPurchase => "ppv_purchase" }
    CreditsDebitReason { VideoUnlock => "video_unlock" }
}

/// Events of the wallet service.
///
/// Amounts are positive; `balance_after` is the balance of the asset once the event applies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum WalletEvent {
    GemsGranted {
        user_id: Uuid,
        amount: u64,
        reason: GemsGrantReason,
        reference: String,
        balance_after: u64,
    },
    GemsDebited {
        user_id: Uuid,
        amount: u64,
        reason: GemsDebitReason,
        /// The idempotency key of the debit (for a pack unlock: the unlock id).
        reference: String,
        /// The channel pack the gems paid for (v2 on; a v1 event did not name it: `None`).
        channel_pack_id: Option<Uuid>,
        balance_after: u64,
    },
    /// The whole gems balance was lost (product.md, "Gems and the wallet": gems are lost on cancel).
    GemsForfeited {
        user_id: Uuid,
        amount: u64,
        reason: GemsForfeitReason,
        reference: String,
        balance_after: u64,
    },
    CreditsGranted {
        user_id: Uuid,
        amount: u64,
        reason: CreditsGrantReason,
        reference: String,
        balance_after: u64,
    },
    CreditsDebited {
        user_id: Uuid,
        amount: u64,
        reason: CreditsDebitReason,
        /// The idempotency key of the debit (for a video unlock: the unlock id).
        reference: String,
        balance_after: u64,
    },
    /// The user saw and closed the gems modal (`acknowledgeNewGemsBalance`);
    /// `at` is the profile's `gems.lastAcknowledgementDate`.
    NewGemsBalanceAcknowledged {
        user_id: Uuid,
        at: DateTime<Utc>,
    },
}

/// Whether a ledger entry adds to or takes from its balance (`transactionType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Movement {
    Grant,
    Debit,
    Forfeit,
}

/// One line of a ledger, the same shape for every asset and reason (a wallet transaction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerEntry<'a> {
    pub asset: Asset,
    pub movement: Movement,
    /// The reason's wire spelling (`friday_gems`, `pack_unlock`, ...): `transactionReason`.
    pub reason: &'static str,
    pub amount: u64,
    pub reference: &'a str,
    pub balance_after: u64,
}

impl LedgerEntry<'_> {
    /// The signed change of the balance.
    pub fn delta(&self) -> i128 {
        match self.movement {
            Movement::Grant => i128::from(self.amount),
            Movement::Debit | Movement::Forfeit => -i128::from(self.amount),
        }
    }
}

impl WalletEvent {
    pub fn user_id(&self) -> Uuid {
        match self {
            WalletEvent::GemsGranted { user_id, .. }
            | WalletEvent::GemsDebited { user_id, .. }
            | WalletEvent::GemsForfeited { user_id, .. }
            | WalletEvent::CreditsGranted { user_id, .. }
            | WalletEvent::CreditsDebited { user_id, .. }
            | WalletEvent::NewGemsBalanceAcknowledged { user_id, .. } => *user_id,
        }
    }

    /// The event as a ledger line; `None` for events that move no balance.
    pub fn ledger_entry(&self) -> Option<LedgerEntry<'_>> {
        use {Asset::*, Movement::*};
        let (asset, movement, reason, amount, reference, balance_after) = match self {
            WalletEvent::GemsGranted { amount, reason, reference, balance_after, .. } => {
                (Gems, Grant, reason.as_str(), amount, reference, balance_after)
            }
            WalletEvent::GemsDebited { amount, reason, reference, balance_after, .. } => {
                (Gems, Debit, reason.as_str(), amount, reference, balance_after)
            }
            WalletEvent::GemsForfeited { amount, reason, reference, balance_after, .. } => {
                (Gems, Forfeit, reason.as_str(), amount, reference, balance_after)
            }
            WalletEvent::CreditsGranted { amount, reason, reference, balance_after, .. } => {
                (Credits, Grant, reason.as_str(), amount, reference, balance_after)
            }
            WalletEvent::CreditsDebited { amount, reason, reference, balance_after, .. } => {
                (Credits, Debit, reason.as_str(), amount, reference, balance_after)
            }
            WalletEvent::NewGemsBalanceAcknowledged { .. } => return None,
        };
        Some(LedgerEntry { asset, movement, reason, amount: *amount, reference, balance_after: *balance_after })
    }
}

impl EventFamily for WalletEvent {
    const DOMAIN: &'static str = "wallet";
    const TYPES: &'static [(&'static str, u32)] = &[
        ("GemsGranted", 1),
        ("GemsDebited", 2),
        ("GemsForfeited", 1),
        ("CreditsGranted", 1),
        ("CreditsDebited", 1),
        ("NewGemsBalanceAcknowledged", 1),
    ];

    fn upcast_step(
        event_type: &str,
        version: u32,
        payload: serde_json::Value,
    ) -> Result<serde_json::Value, crate::DecodeError> {
        match (event_type, version) {
            // v1 did not name the pack a gems debit paid for (its reference, the unlock id, did).
            ("GemsDebited", 1) => {
                let mut payload = payload;
                if let serde_json::Value::Object(map) = &mut payload {
                    map.entry("channel_pack_id").or_insert(serde_json::Value::Null);
                }
                Ok(payload)
            }
            _ => Err(crate::DecodeError::NoUpcaster { event_type: event_type.to_owned(), version }),
        }
    }
}
