//! Model-based test of the wallet: random lives of one user (subscribe, Friday ticks, cancel,
//! reactivate with or without a retention deal, spend, retry, buy and spend credits) run
//! through the subscriptions read model, `decide` and `evolve`, the way the service will.
//!
//! A tiny reference model of the subscriptions says which ones earn each week. After every
//! step: both balances are the sums of their ledgers and never below zero, every event's
//! `balance_after` is the running sum, retries change nothing, and each subscription earning
//! at a grant instant has exactly one grant for that week while others have none.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, TimeZone, Utc, Weekday};
use proptest::prelude::*;
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::wallet::{Asset, CreditsDebitReason, GemsDebitReason, WalletEvent};
use uuid::Uuid;

use super::*;
use crate::calendar::{GemsCalendar, WeekKey};
use crate::subscriptions::Subscriptions;

const USER: Uuid = Uuid::from_u128(0xa1);
/// The porn-portal subscription credits are bought on; it never earns gems.
const PORN_PORTAL: Uuid = Uuid::from_u128(0x99);

#[derive(Clone, Debug)]
enum Op {
    Subscribe,
    Wait {
        hours: i64,
    },
    FridayTick {
        late_minutes: i64,
    },
    /// The scheduler runs again at the current time (a retry, or a late catch-up).
    RerunScheduler,
    Cancel {
        pick: usize,
    },
    Reactivate {
        pick: usize,
        offered_gems: u32,
    },
    RedeliverRetentionDeal {
        pick: usize,
    },
    SpendGems {
        amount: u64,
    },
    RetryGems {
        pick: usize,
    },
    ReuseGemsKey {
        pick: usize,
        as_credits: bool,
    },
    BuyCredits {
        credits: u32,
    },
    RedeliverPurchase {
        pick: usize,
    },
    SpendCredits {
        amount: u64,
    },
    RetryCredits {
        pick: usize,
    },
    Acknowledge,
}

fn ops() -> impl Strategy<Value = Op> {
    let pick = any::<usize>();
    prop_oneof![
        3 => Just(Op::Subscribe),
        3 => (1i64..=60).prop_map(|hours| Op::Wait { hours }),
        4 => (0i64..=240).prop_map(|late_minutes| Op::FridayTick { late_minutes }),
        1 => Just(Op::RerunScheduler),
        2 => pick.prop_map(|pick| Op::Cancel { pick }),
        2 => (pick, prop_oneof![Just(0u32), 1u32..=30])
            .prop_map(|(pick, offered_gems)| Op::Reactivate { pick, offered_gems }),
        1 => pick.prop_map(|pick| Op::RedeliverRetentionDeal { pick }),
        4 => (1u64..=25).prop_map(|amount| Op::SpendGems { amount }),
        2 => pick.prop_map(|pick| Op::RetryGems { pick }),
        1 => (pick, any::<bool>())
            .prop_map(|(pick, as_credits)| Op::ReuseGemsKey { pick, as_credits }),
        2 => (1u32..=10).prop_map(|credits| Op::BuyCredits { credits }),
        1 => pick.prop_map(|pick| Op::RedeliverPurchase { pick }),
        2 => (1u64..=4).prop_map(|amount| Op::SpendCredits { amount }),
        1 => pick.prop_map(|pick| Op::RetryCredits { pick }),
        1 => Just(Op::Acknowledge),
    ]
}

fn calendars() -> impl Strategy<Value = GemsCalendar> {
    let weekday = prop_oneof![4 => Just(Weekday::Fri), 1 => Just(Weekday::Mon)];
    let offset = prop_oneof![3 => Just(0), 1 => Just(60), 1 => Just(-300), 1 => Just(330)];
    (weekday, offset).prop_map(|(day, minutes)| GemsCalendar::new(day, minutes).unwrap())
}

/// The reference model of one subscription: does it earn, and since when.
#[derive(Clone, Debug)]
struct ModelSubscription {
    id: Uuid,
    active: bool,
    since: DateTime<Utc>,
}

impl ModelSubscription {
    fn earns_week_starting(&self, starts_at: DateTime<Utc>) -> bool {
        self.active && self.since <= starts_at
    }
}

struct World {
    calendar: GemsCalendar,
    now: DateTime<Utc>,
    wallet: Wallet,
    history: Vec<WalletEvent>,
    read_model: Subscriptions,
    model: Vec<ModelSubscription>,
    serial: u128,
    gems_debits: Vec<(String, u64, DebitReceipt)>,
    credits_debits: Vec<(String, u64, DebitReceipt)>,
    retention_deals: Vec<Command>,
    purchases: Vec<SubscriptionEvent>,
    friday_grants: BTreeMap<(Uuid, WeekKey), u32>,
}

impl World {
    fn new(calendar: GemsCalendar) -> Self {
        // Two weeks before the new year of 2026-W53, so long lives cross it.
        let now = Utc.with_ymd_and_hms(2026, 12, 14, 9, 30, 0).unwrap();
        let mut world = World {
            calendar,
            now,
            wallet: Wallet::new(USER),
            history: vec![],
            read_model: Subscriptions::default(),
            model: vec![],
            serial: 0,
            gems_debits: vec![],
            credits_debits: vec![],
            retention_deals: vec![],
            purchases: vec![],
            friday_grants: BTreeMap::new(),
        };
        let commands = world.read_model.apply(&SubscriptionEvent::SubscriptionStarted {
            subscription_id: PORN_PORTAL,
            user_id: USER,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: MembershipKind::PornPortal,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: "EPOCH-0".into(),
            active_since: now,
            nats_code: None,
        });
        assert!(commands.is_empty());
        world
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.serial += 1;
        format!("{prefix}-{}", self.serial)
    }

    /// Decides and appends, as the service's command handler will.
    fn run(&mut self, command: Command) -> Result<Vec<WalletEvent>, DomainError> {
        let events = decide(&self.wallet, command)?;
        for event in &events {
            self.wallet = evolve(self.wallet.clone(), event);
            self.history.push(event.clone());
        }
        Ok(events)
    }

    /// Runs a command that must be accepted and must change nothing.
    fn run_retry(&mut self, command: Command) -> Result<(), TestCaseError> {
        let before = self.wallet.clone();
        let events = self.run(command.clone());
        prop_assert_eq!(events, Ok(vec![]), "retrying {:?}", command);
        prop_assert_eq!(&self.wallet, &before);
        Ok(())
    }

    /// A subscription event, as the consumer will handle it.
    fn subscription_event(&mut self, event: &SubscriptionEvent) -> Result<Vec<WalletEvent>, TestCaseError> {
        let mut events = vec![];
        for command in self.read_model.apply(event) {
            match self.run(command) {
                Ok(more) => events.extend(more),
                Err(e) => prop_assert!(false, "a subscription event was refused: {e:?}"),
            }
        }
        Ok(events)
    }

    /// The Friday scheduler: tries every subscription it ever heard of, not only earning ones,
    /// so that the decider's own refusal is what keeps cancelled ones out.
    fn scheduler(&mut self) -> Result<(), TestCaseError> {
        let week = self.calendar.week_of(self.now);
        let ids: Vec<Uuid> = self.read_model.ids().collect();
        for id in ids {
            let earning = self.read_model.earning(id);
            let outcome =
                self.run(Command::GrantFridayGems { subscription_id: id, week, amount: FRIDAY_GEMS, earning });
            let count = self.friday_grants.entry((id, week.key)).or_default();
            let earns = self.model.iter().any(|s| s.id == id && s.earns_week_starting(week.starts_at));
            match outcome {
                Ok(events) if *count > 0 => prop_assert_eq!(events, vec![]),
                Ok(events) => {
                    prop_assert!(earns, "{id} got the gems of {} while not earning", week.key);
                    prop_assert_eq!(events.len(), 1);
                    *count += 1;
                }
                Err(DomainError::NotEarningThisWeek { .. }) => {
                    prop_assert!(!earns, "{id} earning in {} was refused", week.key)
                }
                Err(other) => prop_assert!(false, "unexpected {other:?}"),
            }
        }
        // Exactly one grant for each subscription that earns this week.
        for subscription in &self.model {
            if subscription.earns_week_starting(week.starts_at) {
                prop_assert_eq!(self.friday_grants.get(&(subscription.id, week.key)), Some(&1));
            }
        }
        Ok(())
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match *op {
            Op::Subscribe => {
                let id = Uuid::from_u128(0x5b00 + self.serial);
                let transaction_id = self.fresh("EPOCH");
                let events = self.subscription_event(&SubscriptionEvent::SubscriptionStarted {
                    subscription_id: id,
                    user_id: USER,
                    site: "vixen".into(),
                    sites: vec!["vixen".into()],
                    kind: MembershipKind::Member,
                    is_free_limited_trial: false,
                    biller: "EPOCH".into(),
                    transaction_id,
                    active_since: self.now,
                    nats_code: None,
                })?;
                prop_assert_eq!(events, vec![]);
                self.model.push(ModelSubscription { id, active: true, since: self.now });
            }
            Op::Wait { hours } => self.now += Duration::hours(hours),
            Op::FridayTick { late_minutes } => {
                self.now = self.calendar.next_grant_at(self.now) + Duration::minutes(late_minutes);
                self.scheduler()?;
            }
            Op::RerunScheduler => self.scheduler()?,
            Op::Cancel { pick } => {
                let active: Vec<usize> = (0..self.model.len()).filter(|&i| self.model[i].active).collect();
                if active.is_empty() {
                    return Ok(());
                }
                let index = active[pick % active.len()];
                let gems_before = self.wallet.gems();
                let transaction_id = self.fresh("EPOCH");
                let events = self.subscription_event(&SubscriptionEvent::SubscriptionCancelled {
                    subscription_id: self.model[index].id,
                    user_id: USER,
                    transaction_id,
                    cancelled_at: self.now,
                })?;
                prop_assert_eq!(events.len(), usize::from(gems_before > 0));
                prop_assert_eq!(self.wallet.gems(), 0);
                self.model[index].active = false;
            }
            Op::Reactivate { pick, offered_gems } => {
                let cancelled: Vec<usize> = (0..self.model.len()).filter(|&i| !self.model[i].active).collect();
                if cancelled.is_empty() {
                    return Ok(());
                }
                let index = cancelled[pick % cancelled.len()];
                let id = self.model[index].id;
                let gems_before = self.wallet.gems();
                let transaction_id = self.fresh("EPOCH");
                let events = self.subscription_event(&SubscriptionEvent::SubscriptionReactivated {
                    subscription_id: id,
                    user_id: USER,
                    transaction_id: transaction_id.clone(),
                    reactivated_at: self.now,
                    retention_offer_name: (offered_gems > 0).then(|| "stay-with-gems".into()),
                    offered_gems,
                })?;
                prop_assert_eq!(events.len(), usize::from(offered_gems > 0));
                prop_assert_eq!(self.wallet.gems(), gems_before + u64::from(offered_gems));
                if offered_gems > 0 {
                    self.retention_deals.push(Command::GrantRetentionGems {
                        subscription_id: id,
                        transaction_id,
                        amount: offered_gems.into(),
                    });
                }
                self.model[index] = ModelSubscription { id, active: true, since: self.now };
            }
            Op::RedeliverRetentionDeal { pick } => {
                if let Some(command) = pick_one(&self.retention_deals, pick).cloned() {
                    self.run_retry(command)?;
                }
            }
            Op::SpendGems { amount } => {
                let key = self.fresh("unlock");
                let days = self.calendar.days_until_refresh_gems(self.now);
                let gems = self.wallet.gems();
                let command = Command::DebitGems {
                    idempotency_key: key.clone(),
                    amount,
                    reason: GemsDebitReason::PackUnlock,
                    channel_pack_id: Uuid::from_u128(0xc7),
                    days_until_refresh_gems: days,
                };
                match debit(&self.wallet, command) {
                    Ok((events, receipt)) => {
                        prop_assert!(amount <= gems);
                        prop_assert_eq!(receipt.balance_after, gems - amount);
                        for event in &events {
                            self.wallet = evolve(self.wallet.clone(), event);
                            self.history.push(event.clone());
                        }
                        prop_assert_eq!(self.wallet.receipt(&key), Some(&receipt));
                        self.gems_debits.push((key, amount, receipt));
                    }
                    Err(refusal) => prop_assert_eq!(
                        refusal,
                        DomainError::NotEnoughGems { balance: gems, needed: amount, days_until_refresh_gems: days }
                    ),
                }
            }
            Op::RetryGems { pick } => {
                if let Some((key, amount, first)) = pick_one(&self.gems_debits, pick).cloned() {
                    let command = Command::DebitGems {
                        idempotency_key: key,
                        amount,
                        reason: GemsDebitReason::PackUnlock,
                        channel_pack_id: Uuid::from_u128(0xc7),
                        days_until_refresh_gems: self.calendar.days_until_refresh_gems(self.now),
                    };
                    let answer = debit(&self.wallet, command.clone());
                    prop_assert_eq!(answer, Ok((vec![], first)));
                    self.run_retry(command)?;
                }
            }
            Op::ReuseGemsKey { pick, as_credits } => {
                if let Some((key, amount, _)) = pick_one(&self.gems_debits, pick).cloned() {
                    let command = if as_credits {
                        Command::DebitCredits {
                            idempotency_key: key.clone(),
                            amount,
                            reason: CreditsDebitReason::VideoUnlock,
                        }
                    } else {
                        Command::DebitGems {
                            idempotency_key: key.clone(),
                            amount: amount + 1,
                            reason: GemsDebitReason::PackUnlock,
                            channel_pack_id: Uuid::from_u128(0xc7),
                            days_until_refresh_gems: 1,
                        }
                    };
                    prop_assert_eq!(self.run(command), Err(DomainError::IdempotencyKeyReused { key }));
                }
            }
            Op::BuyCredits { credits } => {
                let credits_before = self.wallet.credits();
                let transaction_id = self.fresh("EPOCH");
                let purchase = SubscriptionEvent::PayPerVideoCreditsPurchased {
                    subscription_id: PORN_PORTAL,
                    user_id: USER,
                    credits,
                    transaction_id,
                    purchased_at: self.now,
                };
                let events = self.subscription_event(&purchase)?;
                prop_assert_eq!(events.len(), 1);
                prop_assert_eq!(self.wallet.credits(), credits_before + u64::from(credits));
                self.purchases.push(purchase);
            }
            Op::RedeliverPurchase { pick } => {
                if let Some(purchase) = pick_one(&self.purchases, pick).cloned() {
                    let before = self.wallet.clone();
                    let events = self.subscription_event(&purchase)?;
                    prop_assert_eq!(events, vec![]);
                    prop_assert_eq!(&self.wallet, &before);
                }
            }
            Op::SpendCredits { amount } => {
                let key = self.fresh("video-unlock");
                let credits = self.wallet.credits();
                let command = Command::DebitCredits {
                    idempotency_key: key.clone(),
                    amount,
                    reason: CreditsDebitReason::VideoUnlock,
                };
                match debit(&self.wallet, command) {
                    Ok((events, receipt)) => {
                        prop_assert!(amount <= credits);
                        prop_assert_eq!(receipt.balance_after, credits - amount);
                        for event in &events {
                            self.wallet = evolve(self.wallet.clone(), event);
                            self.history.push(event.clone());
                        }
                        self.credits_debits.push((key, amount, receipt));
                    }
                    Err(refusal) => {
                        prop_assert_eq!(refusal, DomainError::NotEnoughCredits { balance: credits, needed: amount })
                    }
                }
            }
            Op::RetryCredits { pick } => {
                if let Some((key, amount, first)) = pick_one(&self.credits_debits, pick).cloned() {
                    let command =
                        Command::DebitCredits { idempotency_key: key, amount, reason: CreditsDebitReason::VideoUnlock };
                    prop_assert_eq!(debit(&self.wallet, command.clone()), Ok((vec![], first)));
                    self.run_retry(command)?;
                }
            }
            Op::Acknowledge => {
                let may_show = self.wallet.may_show_gems_modal(self.now);
                let events = self.run(Command::AcknowledgeNewGemsBalance { now: self.now });
                prop_assert_eq!(events.map(|e| e.len()), Ok(usize::from(may_show)));
                prop_assert!(!self.wallet.may_show_gems_modal(self.now));
            }
        }
        Ok(())
    }

    /// Both balances are the sums of their ledgers, and never below zero at any line.
    fn check_ledgers(&self) -> Result<(), TestCaseError> {
        let mut sums: BTreeMap<Asset, i128> = BTreeMap::new();
        for event in &self.history {
            let Some(entry) = event.ledger_entry() else {
                continue;
            };
            let sum = sums.entry(entry.asset).or_default();
            *sum += entry.delta();
            prop_assert!(*sum >= 0, "{:?} below zero at {event:?}", entry.asset);
            prop_assert_eq!(*sum, i128::from(entry.balance_after));
        }
        for asset in [Asset::Gems, Asset::Credits] {
            let sum = sums.get(&asset).copied().unwrap_or(0);
            prop_assert_eq!(sum, i128::from(self.wallet.balance(asset)));
        }
        prop_assert!(self.friday_grants.values().all(|&n| n <= 1));
        Ok(())
    }
}

fn pick_one<T>(items: &[T], pick: usize) -> Option<&T> {
    (!items.is_empty()).then(|| &items[pick % items.len()])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_wallet_stays_a_true_ledger_through_any_life(
        calendar in calendars(),
        life in proptest::collection::vec(ops(), 1..80),
    ) {
        let mut world = World::new(calendar);
        for op in &life {
            world.step(op)?;
            world.check_ledgers()?;
        }
        // The state is its history: rebuilding from the events gives the same wallet.
        let rebuilt = world.history.iter().fold(Wallet::new(USER), evolve);
        prop_assert_eq!(rebuilt, world.wallet);
    }
}
