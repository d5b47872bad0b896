//! The unlocks service on its own: `unlocks` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    unlocks::SERVICE.run_alone().await
}
