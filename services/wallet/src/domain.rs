//! A user's wallet as a decider: two ledgers, gems and pay-per-video credits, on one stream.
//!
//! Balances are the sums of their ledger events and never go below zero. Every grant that
//! comes from outside is idempotent by its reference (a Friday grant by subscription and
//! week, a retention deal or purchase by its transaction); every debit by its idempotency
//! key, whose first outcome is kept as a [`DebitReceipt`] so a retry answers the same.
//!
//! The clock, the gems week, the subscription's standing and the configured amounts are
//! looked up by the caller and put in the command.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Duration, Utc};
use proto_events::wallet::{
    Asset, CreditsDebitReason, CreditsGrantReason, GemsDebitReason, GemsForfeitReason, GemsGrantReason, WalletEvent,
};
use serde::Serialize;
use uuid::Uuid;

use crate::calendar::{GemsWeek, WeekKey};

/// Gems per Friday per site subscription (spec §9); the default of the configured amount.
pub const FRIDAY_GEMS: u64 = 10;

/// The gems modal shows at most once in this long (spec §9: at most once per day).
pub const GEMS_MODAL_QUIET_PERIOD: Duration = Duration::milliseconds(86_400_000);

/// The gems modal shows at most once a day: not within a day of the last acknowledgement.
pub fn may_show_gems_modal(last_acknowledged_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_acknowledged_at.is_none_or(|last| now - last >= GEMS_MODAL_QUIET_PERIOD)
}

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

/// The outcome of a debit, kept under its idempotency key: a retry answers exactly this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DebitReceipt {
    pub asset: Asset,
    pub amount: u64,
    /// Wire spelling of the reason (`pack_unlock`, `video_unlock`).
    pub reason: &'static str,
    pub balance_after: u64,
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
    user_id: Uuid,
    gems: u64,
    credits: u64,
    grants: BTreeSet<Grant>,
    receipts: BTreeMap<String, DebitReceipt>,
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

    fn granted(&self, grant: &Grant) -> bool {
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

/// Reference of a Friday grant: `<subscription>/<week>`.
pub fn friday_gems_reference(subscription_id: Uuid, week: WeekKey) -> String {
    format!("{subscription_id}/{week}")
}

/// Reference of a grant caused by a subscription's transaction: `<subscription>/<transaction>`.
pub fn transaction_reference(subscription_id: Uuid, transaction_id: &str) -> String {
    format!("{subscription_id}/{transaction_id}")
}

pub fn decide(wallet: &Wallet, command: Command) -> Result<Vec<WalletEvent>, DomainError> {
    let user_id = wallet.user_id;
    match command {
        Command::GrantFridayGems { subscription_id, week, amount, earning } => {
            let reference = friday_gems_reference(subscription_id, week.key);
            if wallet.granted(&Grant::Gems(GemsGrantReason::FridayGems, reference.clone())) {
                return Ok(vec![]);
            }
            // A week's gems belong to the subscriptions earning at its grant instant.
            match earning {
                Earning::Since(since) if since <= week.starts_at => {}
                _ => return Err(DomainError::NotEarningThisWeek { subscription_id, week: week.key }),
            }
            grant_gems(wallet, amount, GemsGrantReason::FridayGems, reference)
        }
        Command::GrantRetentionGems { subscription_id, transaction_id, amount } => {
            let reference = transaction_reference(subscription_id, &transaction_id);
            grant_gems(wallet, amount, GemsGrantReason::RetentionDeal, reference)
        }
        Command::ForfeitGems { subscription_id, reason } => Ok(match wallet.gems {
            0 => vec![],
            amount => vec![WalletEvent::GemsForfeited {
                user_id,
                amount,
                reason,
                reference: subscription_id.to_string(),
                balance_after: 0,
            }],
        }),
        Command::DebitGems { idempotency_key, amount, reason, days_until_refresh_gems } => {
            let wanted = DebitWanted { asset: Asset::Gems, amount, reason: reason.as_str() };
            if already_debited(wallet, &idempotency_key, &wanted)? {
                return Ok(vec![]);
            }
            let balance_after = wallet.gems.checked_sub(amount).ok_or(DomainError::NotEnoughGems {
                balance: wallet.gems,
                needed: amount,
                days_until_refresh_gems,
            })?;
            Ok(vec![WalletEvent::GemsDebited { user_id, amount, reason, reference: idempotency_key, balance_after }])
        }
        Command::GrantPurchasedCredits { subscription_id, transaction_id, amount } => {
            let reference = transaction_reference(subscription_id, &transaction_id);
            let reason = CreditsGrantReason::PpvPurchase;
            if amount == 0 || wallet.granted(&Grant::Credits(reason, reference.clone())) {
                return Ok(vec![]);
            }
            let balance_after = wallet.credits.checked_add(amount).ok_or(DomainError::BalanceOverflow)?;
            Ok(vec![WalletEvent::CreditsGranted { user_id, amount, reason, reference, balance_after }])
        }
        Command::DebitCredits { idempotency_key, amount, reason } => {
            let wanted = DebitWanted { asset: Asset::Credits, amount, reason: reason.as_str() };
            if already_debited(wallet, &idempotency_key, &wanted)? {
                return Ok(vec![]);
            }
            let balance_after = wallet
                .credits
                .checked_sub(amount)
                .ok_or(DomainError::NotEnoughCredits { balance: wallet.credits, needed: amount })?;
            Ok(vec![WalletEvent::CreditsDebited { user_id, amount, reason, reference: idempotency_key, balance_after }])
        }
        Command::AcknowledgeNewGemsBalance { now } => {
            // Within a day of the last one, another acknowledgement says nothing new.
            if !wallet.may_show_gems_modal(now) {
                return Ok(vec![]);
            }
            Ok(vec![WalletEvent::NewGemsBalanceAcknowledged { user_id, at: now }])
        }
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

/// Decides and answers a debit: the events to append and the receipt to give back, the same
/// receipt for the first call and every retry with its key.
///
/// # Panics
///
/// If `command` is not a debit: a caller's mistake, not a user's.
pub fn debit(wallet: &Wallet, command: Command) -> Result<(Vec<WalletEvent>, DebitReceipt), DomainError> {
    let key = match &command {
        Command::DebitGems { idempotency_key, .. } | Command::DebitCredits { idempotency_key, .. } => {
            idempotency_key.clone()
        }
        other => panic!("debit() answers debits only, not {other:?}"),
    };
    let events = decide(wallet, command)?;
    let after = events.iter().fold(wallet.clone(), evolve);
    let receipt = after.receipt(&key).cloned().expect("an accepted debit leaves its receipt");
    Ok((events, receipt))
}

struct DebitWanted {
    asset: Asset,
    amount: u64,
    reason: &'static str,
}

/// `true` if `key` already debited exactly this; an error if it debited something else.
fn already_debited(wallet: &Wallet, key: &str, wanted: &DebitWanted) -> Result<bool, DomainError> {
    if wanted.amount == 0 {
        return Err(DomainError::NothingToDebit);
    }
    match wallet.receipts.get(key) {
        None => Ok(false),
        Some(receipt)
            if receipt.asset == wanted.asset && receipt.amount == wanted.amount && receipt.reason == wanted.reason =>
        {
            Ok(true)
        }
        Some(_) => Err(DomainError::IdempotencyKeyReused { key: key.to_owned() }),
    }
}

fn grant_gems(
    wallet: &Wallet,
    amount: u64,
    reason: GemsGrantReason,
    reference: String,
) -> Result<Vec<WalletEvent>, DomainError> {
    if amount == 0 || wallet.granted(&Grant::Gems(reason, reference.clone())) {
        return Ok(vec![]);
    }
    let balance_after = wallet.gems.checked_add(amount).ok_or(DomainError::BalanceOverflow)?;
    Ok(vec![WalletEvent::GemsGranted { user_id: wallet.user_id, amount, reason, reference, balance_after }])
}

#[cfg(test)]
mod model_based;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::GemsCalendar;
    use chrono::TimeZone;
    use proptest::prelude::*;

    const USER: Uuid = Uuid::from_u128(0xa1);
    const VIXEN: Uuid = Uuid::from_u128(0x5b);
    const TUSHY: Uuid = Uuid::from_u128(0x5c);

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, day, hour, 0, 0).unwrap()
    }

    /// The gems week of 2026-01-09 (a Friday).
    fn week() -> GemsWeek {
        GemsCalendar::default().week_of(at(9, 12))
    }

    fn next_week() -> GemsWeek {
        GemsCalendar::default().week_of(at(16, 12))
    }

    /// Runs `commands` in order from an empty wallet; every one must be accepted.
    fn given(commands: impl IntoIterator<Item = Command>) -> Wallet {
        commands.into_iter().fold(Wallet::new(USER), |wallet, c| {
            let events = decide(&wallet, c).expect("given commands are accepted");
            events.iter().fold(wallet, evolve)
        })
    }

    fn then(wallet: &Wallet, command: Command) -> (Wallet, Vec<WalletEvent>) {
        let events = decide(wallet, command).expect("accepted");
        let after = events.iter().fold(wallet.clone(), evolve);
        (after, events)
    }

    fn friday(subscription_id: Uuid, week: GemsWeek) -> Command {
        Command::GrantFridayGems { subscription_id, week, amount: FRIDAY_GEMS, earning: Earning::Since(at(1, 0)) }
    }

    fn retention(amount: u64) -> Command {
        Command::GrantRetentionGems { subscription_id: VIXEN, transaction_id: "EPOCH-9".into(), amount }
    }

    fn spend_gems(key: &str, amount: u64) -> Command {
        Command::DebitGems {
            idempotency_key: key.into(),
            amount,
            reason: GemsDebitReason::PackUnlock,
            days_until_refresh_gems: 3,
        }
    }

    fn buy_credits(transaction_id: &str, amount: u64) -> Command {
        Command::GrantPurchasedCredits { subscription_id: VIXEN, transaction_id: transaction_id.into(), amount }
    }

    fn spend_credits(key: &str, amount: u64) -> Command {
        Command::DebitCredits { idempotency_key: key.into(), amount, reason: CreditsDebitReason::VideoUnlock }
    }

    fn cancel(subscription_id: Uuid) -> Command {
        Command::ForfeitGems { subscription_id, reason: GemsForfeitReason::SubscriptionCancelled }
    }

    #[test]
    fn friday_gems_arrive_once_per_subscription_and_week() {
        let (wallet, events) = then(&Wallet::new(USER), friday(VIXEN, week()));
        assert_eq!(
            events,
            vec![WalletEvent::GemsGranted {
                user_id: USER,
                amount: 10,
                reason: GemsGrantReason::FridayGems,
                reference: format!("{VIXEN}/2026-W02"),
                balance_after: 10,
            }]
        );
        assert!(wallet.has_friday_gems(VIXEN, week().key));
        let (wallet, events) = then(&wallet, friday(VIXEN, next_week()));
        assert_eq!(events.len(), 1);
        assert_eq!(wallet.gems(), 20);
    }

    #[test]
    fn a_retried_friday_grant_changes_nothing() {
        let wallet = given([friday(VIXEN, week())]);
        let (after, events) = then(&wallet, friday(VIXEN, week()));
        assert_eq!(events, vec![]);
        assert_eq!(after, wallet);
    }

    #[test]
    fn each_site_subscription_earns_its_own_friday_gems() {
        let wallet = given([friday(VIXEN, week()), friday(TUSHY, week())]);
        assert_eq!(wallet.gems(), 20);
    }

    #[test]
    fn a_subscription_not_earning_gets_no_friday_gems() {
        let refused = decide(
            &Wallet::new(USER),
            Command::GrantFridayGems {
                subscription_id: VIXEN,
                week: week(),
                amount: FRIDAY_GEMS,
                earning: Earning::NotEarning,
            },
        );
        assert_eq!(refused, Err(DomainError::NotEarningThisWeek { subscription_id: VIXEN, week: week().key }));
    }

    #[test]
    fn a_subscription_that_starts_after_the_grant_instant_waits_for_next_friday() {
        let earning = Earning::Since(at(9, 8));
        let command = |week| Command::GrantFridayGems { subscription_id: VIXEN, week, amount: FRIDAY_GEMS, earning };
        assert!(matches!(decide(&Wallet::new(USER), command(week())), Err(DomainError::NotEarningThisWeek { .. })));
        assert_eq!(decide(&Wallet::new(USER), command(next_week())).unwrap().len(), 1);
    }

    #[test]
    fn cancelling_forfeits_all_gems_and_references_the_subscription() {
        let wallet = given([friday(VIXEN, week()), friday(TUSHY, week())]);
        let (wallet, events) = then(&wallet, cancel(VIXEN));
        assert_eq!(
            events,
            vec![WalletEvent::GemsForfeited {
                user_id: USER,
                amount: 20,
                reason: GemsForfeitReason::SubscriptionCancelled,
                reference: VIXEN.to_string(),
                balance_after: 0,
            }]
        );
        assert_eq!(wallet.gems(), 0);
    }

    #[test]
    fn forfeiting_nothing_records_nothing() {
        assert_eq!(decide(&Wallet::new(USER), cancel(VIXEN)), Ok(vec![]));
    }

    #[test]
    fn a_forfeit_leaves_the_credits_alone() {
        let wallet = given([friday(VIXEN, week()), buy_credits("EPOCH-1", 5)]);
        let (wallet, _) = then(&wallet, cancel(VIXEN));
        assert_eq!((wallet.gems(), wallet.credits()), (0, 5));
    }

    #[test]
    fn a_retention_deal_grants_its_offered_gems_once() {
        let (wallet, events) = then(&Wallet::new(USER), retention(20));
        assert_eq!(
            events,
            vec![WalletEvent::GemsGranted {
                user_id: USER,
                amount: 20,
                reason: GemsGrantReason::RetentionDeal,
                reference: format!("{VIXEN}/EPOCH-9"),
                balance_after: 20,
            }]
        );
        assert_eq!(then(&wallet, retention(20)).1, vec![]);
    }

    #[test]
    fn a_retention_deal_without_gems_records_nothing() {
        assert_eq!(decide(&Wallet::new(USER), retention(0)), Ok(vec![]));
    }

    #[test]
    fn it_debits_gems_and_answers_the_balance_after() {
        let wallet = given([friday(VIXEN, week()), friday(TUSHY, week())]);
        let (events, receipt) = debit(&wallet, spend_gems("unlock-1", 10)).unwrap();
        assert_eq!(
            events,
            vec![WalletEvent::GemsDebited {
                user_id: USER,
                amount: 10,
                reason: GemsDebitReason::PackUnlock,
                reference: "unlock-1".into(),
                balance_after: 10,
            }]
        );
        assert_eq!(receipt, DebitReceipt { asset: Asset::Gems, amount: 10, reason: "pack_unlock", balance_after: 10 });
    }

    #[test]
    fn it_refuses_a_debit_below_zero() {
        let wallet = given([retention(5)]);
        assert_eq!(
            decide(&wallet, spend_gems("unlock-1", 10)),
            Err(DomainError::NotEnoughGems { balance: 5, needed: 10, days_until_refresh_gems: 3 })
        );
    }

    #[test]
    fn the_same_key_twice_debits_once_and_answers_the_same() {
        let wallet = given([friday(VIXEN, week())]);
        let (events, first) = debit(&wallet, spend_gems("unlock-1", 10)).unwrap();
        let wallet = events.iter().fold(wallet, evolve);
        let (events, second) = debit(&wallet, spend_gems("unlock-1", 10)).unwrap();
        assert_eq!(events, vec![]);
        assert_eq!(second, first);
        assert_eq!(wallet.gems(), 0);
    }

    #[test]
    fn a_retry_answers_the_first_balance_after_even_once_the_balance_moved() {
        let wallet = given([friday(VIXEN, week()), spend_gems("unlock-1", 4), friday(VIXEN, next_week())]);
        let (_, receipt) = debit(&wallet, spend_gems("unlock-1", 4)).unwrap();
        assert_eq!(receipt.balance_after, 6);
        assert_eq!(wallet.gems(), 16);
    }

    #[test]
    fn a_key_reused_for_another_amount_or_asset_is_refused() {
        let wallet = given([friday(VIXEN, week()), buy_credits("EPOCH-1", 5), spend_gems("unlock-1", 4)]);
        let reused = Err(DomainError::IdempotencyKeyReused { key: "unlock-1".into() });
        assert_eq!(decide(&wallet, spend_gems("unlock-1", 5)), reused);
        assert_eq!(decide(&wallet, spend_credits("unlock-1", 4)), reused);
    }

    #[test]
    fn a_refused_debit_is_not_recorded_and_may_succeed_later() {
        let wallet = given([retention(5)]);
        assert!(decide(&wallet, spend_gems("unlock-1", 10)).is_err());
        assert_eq!(wallet.receipt("unlock-1"), None);
        let wallet = given([retention(5), friday(VIXEN, week())]);
        assert_eq!(decide(&wallet, spend_gems("unlock-1", 10)).unwrap().len(), 1);
    }

    #[test]
    fn a_debit_of_nothing_is_refused() {
        let wallet = given([retention(5)]);
        assert_eq!(decide(&wallet, spend_gems("unlock-1", 0)), Err(DomainError::NothingToDebit));
        assert_eq!(decide(&wallet, spend_credits("unlock-2", 0)), Err(DomainError::NothingToDebit));
    }

    #[test]
    fn a_credits_purchase_is_granted_once_per_transaction() {
        let (wallet, events) = then(&Wallet::new(USER), buy_credits("EPOCH-1", 5));
        assert_eq!(
            events,
            vec![WalletEvent::CreditsGranted {
                user_id: USER,
                amount: 5,
                reason: CreditsGrantReason::PpvPurchase,
                reference: format!("{VIXEN}/EPOCH-1"),
                balance_after: 5,
            }]
        );
        assert_eq!(then(&wallet, buy_credits("EPOCH-1", 5)).1, vec![]);
        assert_eq!(then(&wallet, buy_credits("EPOCH-2", 5)).0.credits(), 10);
    }

    #[test]
    fn a_video_unlock_spends_credits_once_per_key() {
        let wallet = given([buy_credits("EPOCH-1", 2)]);
        let (events, first) = debit(&wallet, spend_credits("video-1", 1)).unwrap();
        let wallet = events.iter().fold(wallet, evolve);
        let (events, second) = debit(&wallet, spend_credits("video-1", 1)).unwrap();
        assert_eq!((events, first.balance_after), (vec![], 1));
        assert_eq!(second, first);
    }

    #[test]
    fn it_refuses_a_video_unlock_without_enough_credits() {
        let wallet = given([buy_credits("EPOCH-1", 1), friday(VIXEN, week())]);
        assert_eq!(
            decide(&wallet, spend_credits("video-1", 2)),
            Err(DomainError::NotEnoughCredits { balance: 1, needed: 2 })
        );
    }

    #[test]
    fn the_gems_modal_may_show_once_a_day() {
        let wallet = given([Command::AcknowledgeNewGemsBalance { now: at(9, 12) }]);
        assert_eq!(wallet.last_acknowledged_at(), Some(at(9, 12)));
        assert!(!wallet.may_show_gems_modal(at(10, 11)));
        assert!(wallet.may_show_gems_modal(at(10, 12)));
        assert!(Wallet::new(USER).may_show_gems_modal(at(9, 12)));
    }

    #[test]
    fn acknowledging_twice_in_a_day_records_once() {
        let wallet = given([Command::AcknowledgeNewGemsBalance { now: at(9, 12) }]);
        let again = Command::AcknowledgeNewGemsBalance { now: at(9, 20) };
        assert_eq!(decide(&wallet, again), Ok(vec![]));
        let next_day = Command::AcknowledgeNewGemsBalance { now: at(10, 12) };
        assert_eq!(decide(&wallet, next_day).unwrap().len(), 1);
    }

    #[test]
    fn gems_granted_after_an_acknowledgement_are_unacknowledged() {
        let wallet = given([friday(VIXEN, week()), Command::AcknowledgeNewGemsBalance { now: at(9, 12) }]);
        assert!(!wallet.has_unacknowledged_gems());
        let (wallet, _) = then(&wallet, friday(VIXEN, next_week()));
        assert!(wallet.has_unacknowledged_gems());
    }

    #[test]
    fn a_grant_that_would_overflow_is_refused() {
        let wallet = given([retention(u64::MAX)]);
        assert_eq!(decide(&wallet, friday(VIXEN, week())), Err(DomainError::BalanceOverflow));
    }

    fn commands() -> impl Strategy<Value = Command> {
        let key = (0u8..6).prop_map(|k| format!("unlock-{k}"));
        let transaction = (0u8..4).prop_map(|t| format!("EPOCH-{t}"));
        let subscription = prop_oneof![Just(VIXEN), Just(TUSHY)];
        prop_oneof![
            (subscription.clone(), 0i64..4).prop_map(|(s, w)| {
                let week = GemsCalendar::default().week_of(at(9, 12) + Duration::weeks(w));
                friday(s, week)
            }),
            (transaction.clone(), 0u64..30).prop_map(|(t, amount)| Command::GrantRetentionGems {
                subscription_id: VIXEN,
                transaction_id: t,
                amount,
            }),
            subscription.prop_map(cancel),
            (key.clone(), 0u64..25).prop_map(|(k, amount)| spend_gems(&k, amount)),
            (transaction, 0u64..6).prop_map(|(t, amount)| buy_credits(&t, amount)),
            (key, 0u64..6).prop_map(|(k, amount)| spend_credits(&k, amount)),
            (9u32..20, 0u32..24).prop_map(|(d, h)| Command::AcknowledgeNewGemsBalance { now: at(d, h) }),
        ]
    }

    proptest! {
        /// Whatever was asked before, a debit either leaves `balance - amount` or is refused
        /// for want of funds, and a refusal records nothing.
        #[test]
        fn a_debit_never_overdraws(
            history in proptest::collection::vec(commands(), 0..30),
            asset in prop_oneof![Just(Asset::Gems), Just(Asset::Credits)],
            amount in 1u64..40,
        ) {
            let wallet = history.into_iter().fold(Wallet::new(USER), |w, c| match decide(&w, c) {
                Ok(events) => events.iter().fold(w, evolve),
                Err(_) => w,
            });
            let balance = wallet.balance(asset);
            let command = match asset {
                Asset::Gems => spend_gems("fresh", amount),
                Asset::Credits => spend_credits("fresh", amount),
            };
            match debit(&wallet, command) {
                Ok((events, receipt)) => {
                    prop_assert!(amount <= balance);
                    prop_assert_eq!(events.len(), 1);
                    prop_assert_eq!(receipt.balance_after, balance - amount);
                }
                Err(DomainError::NotEnoughGems { balance: b, needed, .. })
                | Err(DomainError::NotEnoughCredits { balance: b, needed }) => {
                    prop_assert!(amount > balance);
                    prop_assert_eq!((b, needed), (balance, amount));
                }
                Err(other) => prop_assert!(false, "unexpected {other:?}"),
            }
        }

        /// Every event decided carries the balance its evolution leaves, and no command,
        /// accepted or not, is decided differently when asked again right after.
        #[test]
        fn decided_events_carry_their_balance_after_and_retries_change_nothing(
            history in proptest::collection::vec(commands(), 0..40),
        ) {
            let mut wallet = Wallet::new(USER);
            for command in history {
                let Ok(events) = decide(&wallet, command.clone()) else { continue };
                for event in &events {
                    wallet = evolve(wallet, event);
                    if let Some(entry) = event.ledger_entry() {
                        prop_assert_eq!(wallet.balance(entry.asset), entry.balance_after);
                    }
                }
                let retry = decide(&wallet, command.clone());
                prop_assert_eq!(retry, Ok(vec![]), "retrying {:?}", command);
            }
        }

        /// A wallet restored from the snapshot a store keeps for a batch of commands decides
        /// the batch, in order, exactly as the wallet folded from its whole history.
        #[test]
        fn a_restored_snapshot_decides_like_the_whole_history(
            history in proptest::collection::vec(commands(), 0..40),
            batch in proptest::collection::vec(commands(), 1..8),
        ) {
            let mut full = history.into_iter().fold(Wallet::new(USER), |w, c| match decide(&w, c) {
                Ok(events) => events.iter().fold(w, evolve),
                Err(_) => w,
            });
            let lookups: Vec<Lookup> = batch.iter().filter_map(Command::lookup).collect();
            let mut restored = Wallet::restore(USER, full.snapshot_for(&lookups));
            for command in batch {
                let expected = decide(&full, command.clone());
                prop_assert_eq!(&decide(&restored, command), &expected);
                if let Ok(events) = expected {
                    full = events.iter().fold(full, evolve);
                    restored = events.iter().fold(restored, evolve);
                }
                prop_assert_eq!((restored.gems(), restored.credits()), (full.gems(), full.credits()));
            }
        }
    }
}
