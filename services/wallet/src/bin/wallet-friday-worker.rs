//! A Friday gems worker for the wallet's own tests: runs the scheduler in a scratch schema,
//! telling time by a file the test rewrites, and prints a line per grant so the test knows
//! when to kill it.
//!
//! `wallet-friday-worker --schema S --clock-file F [--interval-ms N]`, with DATABASE_URL set.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use runtime::{db, EventStore};
use tokio_util::sync::CancellationToken;
use wallet::scheduler::Scheduler;
use wallet::{State, WalletConfig};

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let schema = arg("--schema").ok_or_else(|| anyhow::anyhow!("--schema is required"))?;
    let clock_file = arg("--clock-file").ok_or_else(|| anyhow::anyhow!("--clock-file is required"))?;
    let interval = Duration::from_millis(arg("--interval-ms").map(|v| v.parse()).transpose()?.unwrap_or(20));
    let url = std::env::var("DATABASE_URL")?;
    let pool = db::connect(&url, &schema, 4).await?;
    let config = WalletConfig { scheduler_interval: interval, ..WalletConfig::default() };
    let clock = move || -> DateTime<Utc> {
        let text = std::fs::read_to_string(&clock_file).expect("the clock file is readable");
        text.trim().parse().expect("the clock file holds an RFC 3339 instant")
    };
    let state = State::new(pool.clone(), EventStore::new(pool, &schema), config).with_clock(Arc::new(clock));
    println!("ready");
    let scheduler = Scheduler::new(state).on_grant(|subscription_id, week| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "granted {subscription_id} {week}");
        let _ = out.flush();
    });
    scheduler.run(CancellationToken::new()).await;
    Ok(())
}
