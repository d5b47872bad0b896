//! The subscription service on its own: `subscription` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    subscription::SERVICE.run_alone().await
}
