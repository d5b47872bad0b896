//! `paysite bench wallet`: gem debits per second and their latency, on distinct wallets and
//! on one hot wallet, against the real database, in a scratch schema dropped afterwards.

use proto_events::wallet::GemsDebitReason;
use proto_events::{Actor, EventMeta};
use runtime::{db, EventStore};
use uuid::Uuid;

use crate::commands::{self, Item};
use crate::domain::Command;
use crate::{State, WalletConfig, MIGRATIONS};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub database_url: String,
    /// Clients debiting at once, each one debit after another.
    pub concurrency: usize,
    /// Debits per scenario.
    pub debits: usize,
    /// Database connections of the service under test.
    pub pool_size: u32,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            database_url: runtime::config::DEFAULT_DATABASE_URL.to_owned(),
            concurrency: 50,
            debits: 5_000,
            pool_size: 20,
        }
    }
}

#[derive(Clone, Debug)]
pub struct BenchRow {
    pub scenario: &'static str,
    pub debits: u64,
    pub failed: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
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

/// Runs the scenarios, prints a table, and returns its rows.
pub async fn bench(options: &BenchOptions) -> anyhow::Result<Vec<BenchRow>> {
    let schema = format!("bench_wallet_{}", &Uuid::new_v4().simple().to_string()[..12]);
    db::ensure_database(&options.database_url).await?;
    let pool = db::connect(&options.database_url, &schema, options.pool_size).await?;
    let result = async {
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS), ("wallet", &MIGRATIONS)]).await?;
        let state = State::new(pool.clone(), EventStore::new(pool.clone(), &schema), WalletConfig::default());
        warm_up(&state, options).await?;
        let mut rows = Vec::new();
        for scenario in [Scenario::DistinctWallets, Scenario::HotWallet, Scenario::HotWalletUnbatched] {
            rows.push(run(&state, options, scenario).await?);
        }
        anyhow::Ok(rows)
    }
    .await;
    let _ = sqlx::query(&format!("drop schema {schema} cascade")).execute(&pool).await;
    pool.close().await;
    let rows = result?;
    println!(
        "wallet debits: {} clients, {} debits per scenario, {} connections",
        options.concurrency, options.debits, options.pool_size
    );
    println!(
        "{:<36} {:>7} {:>6} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "scenario", "debits", "failed", "debits/s", "p50 ms", "p95 ms", "p99 ms", "max ms"
    );
    for r in &rows {
        println!(
            "{:<36} {:>7} {:>6} {:>10.0} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            r.scenario, r.debits, r.failed, r.per_second, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms
        );
    }
    Ok(rows)
}

async fn run(state: &State, options: &BenchOptions, scenario: Scenario) -> anyhow::Result<BenchRow> {
    let wallets: Vec<Uuid> = match scenario {
        Scenario::DistinctWallets => (0..options.concurrency).map(|_| Uuid::now_v7()).collect(),
        Scenario::HotWallet | Scenario::HotWalletUnbatched => vec![Uuid::now_v7()],
    };
    for user_id in &wallets {
        fund(state, *user_id, options.debits as u64).await?;
    }
    let shared = state.clone();
    let stats = runtime::bench::closed_loop(options.concurrency, options.debits, move |client| {
        let (state, user_id) = (shared.clone(), wallets[client % wallets.len()]);
        async move { debit(&state, user_id, scenario).await }
    })
    .await?;
    Ok(BenchRow {
        scenario: scenario.name(),
        debits: stats.requests,
        failed: stats.failed,
        per_second: stats.per_second,
        p50_ms: stats.p50_ms,
        p95_ms: stats.p95_ms,
        p99_ms: stats.p99_ms,
        max_ms: stats.max_ms,
    })
}

/// A service's tables have statistics: a few debits, then what autovacuum would do, so that
/// the plans the connections cache are those of a live database, not of empty tables.
async fn warm_up(state: &State, options: &BenchOptions) -> anyhow::Result<()> {
    let warm = BenchOptions { debits: 1_000, ..options.clone() };
    run(state, &warm, Scenario::DistinctWallets).await?;
    run(state, &warm, Scenario::HotWallet).await?;
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
