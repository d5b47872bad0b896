//! Debits against the real database: never overdrawn, once per key, whatever the concurrency.

mod support;

use std::time::Duration;

use proto_events::wallet::{stream_id, CreditsDebitReason, GemsDebitReason, WalletEvent};
use proto_events::{Actor, EventMeta};
use rand::{rngs::StdRng, Rng, SeedableRng};
use uuid::Uuid;
use wallet::commands::{self, retrying, Item, WalletStream};
use wallet::domain::{Command, DomainError};
use wallet::State;

use support::TestEnv;

fn spend_gems(key: &str, amount: u64) -> Command {
    Command::DebitGems {
        idempotency_key: key.to_owned(),
        amount,
        reason: GemsDebitReason::PackUnlock,
        channel_pack_id: Uuid::from_u128(0xc7),
        days_until_refresh_gems: 2,
    }
}

fn meta(user_id: Uuid) -> EventMeta {
    EventMeta::new(Actor::User(user_id))
}

/// How a debit reaches the wallet: through one of two processes' ledgers (batched), or
/// as a transaction of its own (a third writer that batches nothing).
#[derive(Clone, Copy, Debug)]
enum Path {
    LedgerA,
    LedgerB,
    Alone,
}

async fn debit(
    a: &State,
    b: &State,
    path: Path,
    user_id: Uuid,
    command: Command,
) -> Result<commands::Outcome, DomainError> {
    match path {
        Path::LedgerA => a.ledger.submit(user_id, command, meta(user_id)).await.expect("no store failure"),
        Path::LedgerB => b.ledger.submit(user_id, command, meta(user_id)).await.expect("no store failure"),
        Path::Alone => {
            let items = [Item::new(command, meta(user_id))];
            let items = &items;
            let mut outcomes = retrying(|| async move {
                let mut tx = b.pool.begin().await?;
                let outcomes = commands::run_in(&mut tx, &b.store, user_id, items).await?;
                tx.commit().await?;
                Ok(outcomes)
            })
            .await
            .expect("no store failure");
            outcomes.remove(0)
        }
    }
}

/// The gems balances after each gems event of a wallet's stream, in stream order.
async fn gems_trail(env: &TestEnv, user_id: Uuid) -> Vec<(String, u64)> {
    let events = env.store.load(&stream_id(user_id)).await.unwrap();
    events
        .iter()
        .filter_map(|e| match proto_events::decode::<WalletEvent>(e).unwrap() {
            WalletEvent::GemsGranted { balance_after, .. } => Some(("granted".to_owned(), balance_after)),
            WalletEvent::GemsDebited { balance_after, .. } => Some(("debited".to_owned(), balance_after)),
            WalletEvent::GemsForfeited { balance_after, .. } => Some(("forfeited".to_owned(), balance_after)),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_1000_concurrent_10_gem_debits_on_a_50_gem_wallet_exactly_5_succeed_over_20_seeds() {
    let env = TestEnv::new().await;
    let (a, b) = (env.state.clone(), env.another_process().await);
    for seed in 0..20u64 {
        let user_id = Uuid::now_v7();
        env.fund(user_id, 50).await;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut debits = tokio::task::JoinSet::new();
        for n in 0..1000 {
            let path = match rng.random_range(0..3) {
                0 => Path::LedgerA,
                1 => Path::LedgerB,
                _ => Path::Alone,
            };
            let delay = Duration::from_micros(rng.random_range(0..3_000));
            let (a, b) = (a.clone(), b.clone());
            debits.spawn(async move {
                tokio::time::sleep(delay).await;
                debit(&a, &b, path, user_id, spend_gems(&format!("unlock-{seed}-{n}"), 10)).await
            });
        }
        let (mut accepted, mut refused) = (vec![], 0);
        while let Some(answer) = debits.join_next().await {
            match answer.unwrap() {
                Ok(outcome) => accepted.push(outcome.events.len()),
                Err(DomainError::NotEnoughGems { balance, needed: 10, days_until_refresh_gems: 2 }) => {
                    assert!(balance < 10, "refused with {balance} gems held");
                    refused += 1;
                }
                Err(other) => panic!("seed {seed}: unexpected {other:?}"),
            }
        }
        assert_eq!((accepted.len(), refused), (5, 995), "seed {seed}");
        assert!(accepted.iter().all(|n| *n == 1), "each accepted debit recorded one event");
        let trail = gems_trail(&env, user_id).await;
        let expected: Vec<(String, u64)> = [("granted", 50), ("debited", 40), ("debited", 30), ("debited", 20)]
            .into_iter()
            .chain([("debited", 10), ("debited", 0)])
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        assert_eq!(trail, expected, "seed {seed}: the ledger runs 50 down to 0");
        let gems: i64 = sqlx::query_scalar("select gems from wallet where user_id = $1")
            .bind(user_id)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!(gems, 0);
    }
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_debits_with_one_key_debit_once_and_answer_the_same() {
    let env = TestEnv::new().await;
    let (a, b) = (env.state.clone(), env.another_process().await);
    let user_id = Uuid::now_v7();
    env.fund(user_id, 50).await;
    let mut debits = tokio::task::JoinSet::new();
    for n in 0..200 {
        let path = [Path::LedgerA, Path::LedgerB, Path::Alone][n % 3];
        let (a, b) = (a.clone(), b.clone());
        debits.spawn(async move { debit(&a, &b, path, user_id, spend_gems("unlock-the-one", 10)).await });
    }
    let mut receipts = vec![];
    let mut recorded = 0;
    while let Some(answer) = debits.join_next().await {
        let outcome = answer.unwrap().expect("every retry is answered like the first");
        recorded += outcome.events.len();
        receipts.push(outcome.receipt("unlock-the-one").cloned().unwrap());
    }
    assert_eq!(recorded, 1, "one debit recorded");
    assert!(receipts.iter().all(|r| r == &receipts[0]), "the same answer 200 times");
    assert_eq!(receipts[0].balance_after, 40);
    assert_eq!(gems_trail(&env, user_id).await.len(), 2);
    assert_eq!(env.scalar("select count(*) from ledger_entry where entry_type = 'debit'").await, 1);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn credits_bought_once_are_spent_once_per_video_and_never_overdrawn() {
    let env = TestEnv::new().await;
    let (subscription_id, user_id) = (Uuid::now_v7(), Uuid::now_v7());
    let purchase = support::credits_purchased(subscription_id, user_id, 3, "EPOCH-77");
    let first = env.envelope(&purchase);
    assert!(env.feed(&first).await);
    assert!(!env.feed(&first).await, "a redelivered event is applied once");
    // The same purchase told again under another event id grants nothing either.
    assert!(env.feed(&env.envelope(&purchase)).await);
    let credits: i64 = sqlx::query_scalar("select credits from wallet where user_id = $1")
        .bind(user_id)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(credits, 3);

    let (a, b) = (env.state.clone(), env.another_process().await);
    let mut debits = tokio::task::JoinSet::new();
    for n in 0..40 {
        let path = [Path::LedgerA, Path::LedgerB, Path::Alone][n % 3];
        // Ten videos, each unlock asked four times.
        let command = Command::DebitCredits {
            idempotency_key: format!("video-unlock-{}", n % 10),
            amount: 1,
            reason: CreditsDebitReason::VideoUnlock,
        };
        let (a, b) = (a.clone(), b.clone());
        debits.spawn(async move { debit(&a, &b, path, user_id, command).await });
    }
    let (mut accepted, mut refused) = (0, 0);
    while let Some(answer) = debits.join_next().await {
        match answer.unwrap() {
            Ok(_) => accepted += 1,
            Err(DomainError::NotEnoughCredits { balance: 0, needed: 1 }) => refused += 1,
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    let debited = env.scalar("select count(*) from ledger_entry where entry_type = 'debit'").await;
    assert_eq!(debited, 3, "three videos unlocked with three credits");
    assert_eq!(accepted, 12, "each of the three unlocks answered four times");
    assert_eq!(refused, 28);
    assert_eq!(env.scalar("select credits from wallet").await, 0);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_first_writers_of_a_new_wallet_race_and_none_is_lost() {
    let env = TestEnv::new().await;
    let (a, b) = (env.state.clone(), env.another_process().await);
    let user_id = Uuid::now_v7();
    let mut grants = tokio::task::JoinSet::new();
    for n in 0..30u64 {
        let path = [Path::LedgerA, Path::LedgerB, Path::Alone][n as usize % 3];
        let command = Command::GrantRetentionGems {
            subscription_id: Uuid::from_u128(7),
            transaction_id: format!("EPOCH-{n}"),
            amount: n + 1,
        };
        let (a, b) = (a.clone(), b.clone());
        grants.spawn(async move { debit(&a, &b, path, user_id, command).await });
    }
    while let Some(answer) = grants.join_next().await {
        assert_eq!(answer.unwrap().unwrap().events.len(), 1);
    }
    let gems = env.scalar("select gems from wallet").await;
    assert_eq!(gems, (1..=30).sum::<i64>());
    // The restored snapshot and the whole stream agree.
    let mut conn = env.pool.acquire().await.unwrap();
    let (folded, version) = env.store.state_of::<WalletStream>(&mut conn, &stream_id(user_id)).await.unwrap();
    assert_eq!((folded.unwrap().gems() as i64, version), (gems, 30));
    drop(conn);
    env.cleanup().await;
}
