//! The wallet decider's examples and properties.

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;
use proto_events::wallet::{
    Asset, CreditsDebitReason, CreditsGrantReason, GemsDebitReason, GemsForfeitReason, GemsGrantReason, WalletEvent,
};
use uuid::Uuid;

use super::*;
use crate::calendar::{GemsCalendar, GemsWeek};

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
        channel_pack_id: Uuid::from_u128(0xc7),
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
            channel_pack_id: Some(Uuid::from_u128(0xc7)),
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
