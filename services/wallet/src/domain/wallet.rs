//! The state of one wallet ([`Wallet`]), what a store keeps of it ([`Snapshot`]) and how
//! its events change it ([`evolve`]).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Duration, Utc};
use proto_events::wallet::{Asset, CreditsDebitReason, GemsDebitReason, GemsGrantReason, WalletEvent};
use serde::Serialize;
use uuid::Uuid;

use super::command::{friday_gems_reference, Grant, Lookup};
use crate::calendar::WeekKey;

/// The gems modal shows at most once in this long (product.md, "Gems and the wallet": at most once per day).
pub const GEMS_MODAL_QUIET_PERIOD: Duration = Duration::milliseconds(86_400_000);

/// The gems modal shows at most once a day: not within a day of the last acknowledgement.
pub fn may_show_gems_modal(last_acknowledged_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_acknowledged_at.is_none_or(|last| now - last >= GEMS_MODAL_QUIET_PERIOD)
}

/// The outcome of a debit, kept under its idempotency key: a retry answers exactly this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DebitReceipt {
    pub asset: Asset,
    pub amount: u64,
    /// Wire spelling of the reason (`pack_unlock`, `video_unlock`).
    pub reason: &'static str,
    pub balance_after: u64,
}

/// The part of a wallet that a store keeps at hand instead of folding the whole stream:
/// balances, the acknowledgement, and the grants and receipts some commands look up.
///
/// A wallet restored from the snapshot for a list of commands decides those commands,
/// in order, exactly as the wallet folded from every event would (a property test below).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub gems: u64,
    pub credits: u64,
    pub last_acknowledged_at: Option<DateTime<Utc>>,
    pub gems_granted_since_acknowledgement: bool,
    /// The grants, among those looked up, that were made.
    pub grants: Vec<Grant>,
    /// The receipts, among the idempotency keys looked up, that exist.
    pub receipts: Vec<(String, DebitReceipt)>,
}

/// The wire spelling of a debit reason of `asset`, as a receipt keeps it.
pub fn debit_reason(asset: Asset, reason: &str) -> Option<&'static str> {
    let known: &[&'static str] = match asset {
        Asset::Gems => &[GemsDebitReason::PackUnlock.as_str()],
        Asset::Credits => &[CreditsDebitReason::VideoUnlock.as_str()],
    };
    known.iter().copied().find(|k| *k == reason)
}

/// The state of one user's wallet.
#[derive(Clone, Debug, PartialEq)]
pub struct Wallet {
    pub(super) user_id: Uuid,
    pub(super) gems: u64,
    pub(super) credits: u64,
    grants: BTreeSet<Grant>,
    pub(super) receipts: BTreeMap<String, DebitReceipt>,
    last_acknowledged_at: Option<DateTime<Utc>>,
    gems_granted_since_acknowledgement: bool,
}

impl Wallet {
    /// The empty wallet a user's stream starts from.
    pub fn new(user_id: Uuid) -> Self {
        Wallet {
            user_id,
            gems: 0,
            credits: 0,
            grants: BTreeSet::new(),
            receipts: BTreeMap::new(),
            last_acknowledged_at: None,
            gems_granted_since_acknowledgement: false,
        }
    }

    pub fn user_id(&self) -> Uuid {
        self.user_id
    }

    pub fn gems(&self) -> u64 {
        self.gems
    }

    pub fn credits(&self) -> u64 {
        self.credits
    }

    pub fn balance(&self, asset: Asset) -> u64 {
        match asset {
            Asset::Gems => self.gems,
            Asset::Credits => self.credits,
        }
    }

    /// The recorded outcome of the debit under `idempotency_key`, if there was one.
    pub fn receipt(&self, idempotency_key: &str) -> Option<&DebitReceipt> {
        self.receipts.get(idempotency_key)
    }

    /// The profile's `gems.lastAcknowledgementDate`.
    pub fn last_acknowledged_at(&self) -> Option<DateTime<Utc>> {
        self.last_acknowledged_at
    }

    /// The gems modal shows at most once a day: not within a day of the last acknowledgement.
    pub fn may_show_gems_modal(&self, now: DateTime<Utc>) -> bool {
        may_show_gems_modal(self.last_acknowledged_at, now)
    }

    /// Gems arrived since the user last acknowledged the balance (or ever, if never).
    pub fn has_unacknowledged_gems(&self) -> bool {
        self.gems_granted_since_acknowledgement
    }

    pub fn has_friday_gems(&self, subscription_id: Uuid, week: WeekKey) -> bool {
        self.grants.contains(&Grant::Gems(GemsGrantReason::FridayGems, friday_gems_reference(subscription_id, week)))
    }

    pub(super) fn granted(&self, grant: &Grant) -> bool {
        self.grants.contains(grant)
    }

    /// A wallet from what its store kept (see [`Snapshot`]).
    pub fn restore(user_id: Uuid, snapshot: Snapshot) -> Self {
        Wallet {
            user_id,
            gems: snapshot.gems,
            credits: snapshot.credits,
            grants: snapshot.grants.into_iter().collect(),
            receipts: snapshot.receipts.into_iter().collect(),
            last_acknowledged_at: snapshot.last_acknowledged_at,
            gems_granted_since_acknowledgement: snapshot.gems_granted_since_acknowledgement,
        }
    }

    /// What a store must give back to decide commands with these lookups.
    pub fn snapshot_for<'a>(&self, lookups: impl IntoIterator<Item = &'a Lookup>) -> Snapshot {
        let mut snapshot = Snapshot {
            gems: self.gems,
            credits: self.credits,
            last_acknowledged_at: self.last_acknowledged_at,
            gems_granted_since_acknowledgement: self.gems_granted_since_acknowledgement,
            grants: vec![],
            receipts: vec![],
        };
        for lookup in lookups {
            match lookup {
                Lookup::Grant(grant) if self.granted(grant) => snapshot.grants.push(grant.clone()),
                Lookup::Debit(key) => {
                    if let Some(receipt) = self.receipts.get(key) {
                        snapshot.receipts.push((key.clone(), receipt.clone()));
                    }
                }
                Lookup::Grant(_) => {}
            }
        }
        snapshot
    }
}

pub fn evolve(mut wallet: Wallet, event: &WalletEvent) -> Wallet {
    match event {
        WalletEvent::GemsGranted { amount, reason, reference, .. } => {
            wallet.gems = wallet.gems.saturating_add(*amount);
            wallet.grants.insert(Grant::Gems(*reason, reference.clone()));
            wallet.gems_granted_since_acknowledgement = true;
        }
        WalletEvent::GemsDebited { amount, reason, reference, balance_after, .. } => {
            wallet.gems = wallet.gems.saturating_sub(*amount);
            wallet.receipts.insert(
                reference.clone(),
                DebitReceipt {
                    asset: Asset::Gems,
                    amount: *amount,
                    reason: reason.as_str(),
                    balance_after: *balance_after,
                },
            );
        }
        WalletEvent::GemsForfeited { amount, .. } => {
            wallet.gems = wallet.gems.saturating_sub(*amount);
        }
        WalletEvent::CreditsGranted { amount, reason, reference, .. } => {
            wallet.credits = wallet.credits.saturating_add(*amount);
            wallet.grants.insert(Grant::Credits(*reason, reference.clone()));
        }
        WalletEvent::CreditsDebited { amount, reason, reference, balance_after, .. } => {
            wallet.credits = wallet.credits.saturating_sub(*amount);
            wallet.receipts.insert(
                reference.clone(),
                DebitReceipt {
                    asset: Asset::Credits,
                    amount: *amount,
                    reason: reason.as_str(),
                    balance_after: *balance_after,
                },
            );
        }
        WalletEvent::NewGemsBalanceAcknowledged { at, .. } => {
            wallet.last_acknowledged_at = Some(*at);
            wallet.gems_granted_since_acknowledgement = false;
        }
    }
    if let Some(entry) = event.ledger_entry() {
        debug_assert_eq!(wallet.balance(entry.asset), entry.balance_after, "the ledger disagrees with {event:?}");
    }
    wallet
}
