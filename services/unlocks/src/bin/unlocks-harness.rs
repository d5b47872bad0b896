//! Runs the unlocks service's API and reconciler against a test schema as a process of its
//! own, so the crash test can kill it with SIGKILL between a debit and its record. Not part
//! of the service.
//!
//! unlocks-harness --schema S
//!
//! Environment: `DATABASE_URL`, `PAYSITE_WALLET_URL`, the `UNLOCKS_*` settings,
//! `UNLOCKS_HARNESS_SIGNER_SEED` (base64url of the 32-byte seed of the test's token signer)
//! and `UNLOCKS_HARNESS_HANG_AFTER_DEBIT=1` to print `DEBITED <unlock id>` and stop there.

use std::io::Write;

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use clap::Parser;
use runtime::auth::Signer;
use runtime::{EventStore, Settings};
use tokio_util::sync::CancellationToken;
use unlocks::{State, UnlocksConfig};

#[derive(Parser)]
struct Args {
    #[arg(long)]
    schema: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let settings = Settings::from_env()?;
    let _telemetry = runtime::telemetry::init("unlocks-harness", None);
    let pool = runtime::db::connect(settings.database_url.expose(), &args.schema, 8).await?;
    let store = EventStore::new(pool.clone(), &args.schema);
    let seed = std::env::var("UNLOCKS_HARNESS_SIGNER_SEED")?;
    let seed: [u8; 32] = URL_SAFE_NO_PAD
        .decode(seed)?
        .try_into()
        .map_err(|_| anyhow::anyhow!("UNLOCKS_HARNESS_SIGNER_SEED must be 32 bytes"))?;
    let verifier = Signer::from_seed("test", seed).verifier();
    let mut state = State::new(pool, store, UnlocksConfig::from_env()?, verifier);
    if std::env::var("UNLOCKS_HARNESS_HANG_AFTER_DEBIT").is_ok_and(|v| v == "1") {
        state = state.with_after_debit(|unlock_id| {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "DEBITED {unlock_id}");
            let _ = out.flush();
            drop(out);
            // Stop between the debit and the record until killed.
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        });
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("LISTENING {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let cancel = CancellationToken::new();
    let reconciler = tokio::spawn(unlocks::domain::process::Reconciler::new(state.clone()).job()(cancel.clone()));
    let app = unlocks::router(state).layer(axum::middleware::from_fn(runtime::http::correlate));
    let stop = cancel.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            runtime::http::shutdown_signal().await;
            stop.cancel();
        })
        .await?;
    reconciler.await?;
    Ok(())
}
