//! `paysite bench wallet`: gem debits per second and their latency, on distinct wallets and
//! on one hot wallet, against the real database, in a scratch schema dropped afterwards.

use proto_events::wallet::GemsDebitReason;
use proto_events::{Actor, EventMeta};
use runtime::bench::{LoadOptions, Row, Table};
use runtime::{EventStore, Settings};
use uuid::Uuid;

use crate::commands::{self, Item};
use crate::domain::Command;
use crate::{State, WalletConfig, MIGRATIONS};

/// How `paysite bench wallet` prints its rows.
const TABLE: Table = Table::new("wallet debits", "debits", "debits/s");

/// The defaults of `paysite bench wallet`: 50 clients, 5,000 debits per scenario, 20 connections.
pub fn options(database_url: &str) -> LoadOptions {
    LoadOptions { database_url: database_url.to_owned(), concurrency: 50, total: 5_000, pool_size: 20 }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    /// Each client its own wallet, through the service's ledger.
    DistinctWallets,
    /// Every client on one wallet, through the service's ledger (batched per wallet).
    HotWallet,
    /// Every client on one wallet, one transaction per debit (as many processes would).
    HotWalletUnbatched,
}

impl Scenario {
    fn name(self) -> &'static str {
        match self {
            Scenario::DistinctWallets => "distinct wallets",
            Scenario::HotWallet => "hot wallet",
            Scenario::HotWalletUnbatched => "hot wallet, a transaction per debit",
        }
    }
}

/// `paysite bench wallet` with the defaults and the database of `settings`.
pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    bench(&options(settings.database_url.expose())).await.map(|_| ())
}

/// Runs the scenarios in a scratch schema, prints a table, and returns its rows.
pub async fn bench(options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    TABLE.run_in_scratch(options, "wallet", &[("wallet", &MIGRATIONS)], |store| scenarios(store, options)).await
}

async fn scenarios(store: EventStore, options: &LoadOptions) -> anyhow::Result<Vec<Row>> {
    let state = State::new(store.pool().clone(), store, WalletConfig::default());
    warm_up(&state, options).await?;
    let mut rows = Vec::new();
    for scenario in [Scenario::DistinctWallets, Scenario::HotWallet, Scenario::HotWalletUnbatched] {
        rows.push(measure(&state, options, scenario).await?);
    }
    Ok(rows)
}

async fn measure(state: &State, options: &LoadOptions, scenario: Scenario) -> anyhow::Result<Row> {
    let wallets: Vec<Uuid> = match scenario {
        Scenario::DistinctWallets => (0..options.concurrency).map(|_| Uuid::now_v7()).collect(),
        Scenario::HotWallet | Scenario::HotWalletUnbatched => vec![Uuid::now_v7()],
    };
    for user_id in &wallets {
        fund(state, *user_id, options.total as u64).await?;
    }
    let shared = state.clone();
    options
        .measure(scenario.name(), move |turn| {
            let (state, user_id) = (shared.clone(), wallets[turn.client % wallets.len()]);
            async move { debit(&state, user_id, scenario).await }
        })
        .await
}

/// A service's tables have statistics: a few debits, then what autovacuum would do, so that
/// the plans the connections cache are those of a live database, not of empty tables.
async fn warm_up(state: &State, options: &LoadOptions) -> anyhow::Result<()> {
    let warm = options.with_total(1_000);
    measure(state, &warm, Scenario::DistinctWallets).await?;
    measure(state, &warm, Scenario::HotWallet).await?;
    sqlx::query("analyze event, outbox, wallet, ledger_entry").execute(&state.pool).await?;
    Ok(())
}

fn meta() -> EventMeta {
    EventMeta::new(Actor::System("wallet.bench".into()))
}

async fn fund(state: &State, user_id: Uuid, gems: u64) -> anyhow::Result<()> {
    let command = Command::GrantRetentionGems {
        subscription_id: Uuid::now_v7(),
        transaction_id: "bench".into(),
        amount: gems.max(1),
    };
    let mut tx = state.pool.begin().await?;
    commands::run_in(&mut tx, &state.store, user_id, &[Item::new(command, meta())]).await?.remove(0)?;
    tx.commit().await?;
    Ok(())
}

/// One debit of one gem under a fresh key; true when it was accepted.
async fn debit(state: &State, user_id: Uuid, scenario: Scenario) -> bool {
    let command = Command::DebitGems {
        idempotency_key: Uuid::now_v7().to_string(),
        amount: 1,
        reason: GemsDebitReason::PackUnlock,
        channel_pack_id: Uuid::now_v7(),
        days_until_refresh_gems: 7,
    };
    match scenario {
        Scenario::DistinctWallets | Scenario::HotWallet => {
            matches!(state.ledger.submit(user_id, command, meta()).await, Ok(Ok(_)))
        }
        Scenario::HotWalletUnbatched => {
            let items = [Item::new(command, meta())];
            let done = state.ledger.transact(user_id, &items).await;
            matches!(done.as_deref(), Ok([Ok(_)]))
        }
    }
}
