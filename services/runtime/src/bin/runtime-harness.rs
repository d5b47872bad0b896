//! Runs one piece of the runtime against a scratch schema, as its own process, so the
//! fault tests can kill it with SIGKILL and start it again. Not part of any service.
//!
//! runtime-harness relay   --schema S --exchange X
//! runtime-harness consume --schema S --exchange X --queue Q

#[path = "../../tests/support/probe.rs"]
mod probe;

use std::sync::Arc;

use clap::Parser;
use runtime::{consumer, relay, Settings};
use tokio_util::sync::CancellationToken;

#[derive(Parser)]
struct Args {
    /// relay or consume
    role: String,
    #[arg(long)]
    schema: String,
    #[arg(long)]
    exchange: String,
    #[arg(long, default_value = "")]
    queue: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let settings = Settings::from_env()?;
    let _telemetry = runtime::telemetry::init("runtime-harness", None);
    let pool = runtime::db::connect(settings.database_url.expose(), &args.schema, 8).await?;
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        runtime::http::shutdown_signal().await;
        stop.cancel();
    });
    match args.role.as_str() {
        "relay" => {
            let mut s = relay::RelaySettings::new("probe", &args.schema, &settings);
            s.exchange = args.exchange;
            relay::run(pool, s, cancel).await;
        }
        "consume" => {
            let mut s = consumer::ConsumerSettings::new(&settings);
            s.exchange = args.exchange;
            let spec = consumer::ConsumerSpec {
                queue: args.queue,
                bindings: vec!["probe.#".into()],
                handler: Arc::new(probe::ProbeHandler),
            };
            consumer::run(pool, spec, s, cancel).await;
        }
        other => anyhow::bail!("unknown role {other}"),
    }
    Ok(())
}
