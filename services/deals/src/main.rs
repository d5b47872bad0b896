//! The deals service on its own: `deals` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    deals::SERVICE.run_alone().await
}
