//! The wallet service on its own: `wallet` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    wallet::SERVICE.run_alone().await
}
