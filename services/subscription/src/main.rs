//! The subscription service on its own: `subscription` (configuration from the environment).

use runtime::{http::shutdown_signal, telemetry, Settings};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::from_env()?;
    let _telemetry = telemetry::init(subscription::SERVICE.name, settings.otlp_endpoint.as_deref());
    let ctx = subscription::SERVICE.prepare(&settings, 16).await?;
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(subscription::SERVICE.port);
    let (cancel, mut tasks) = (CancellationToken::new(), tokio::task::JoinSet::new());
    let service = subscription::SERVICE.build(&ctx).await?;
    subscription::SERVICE.start(ctx, service, ([0, 0, 0, 0], port).into(), cancel.clone(), &mut tasks).await?;
    shutdown_signal().await;
    cancel.cancel();
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(())
}
