//! The profile service on its own: `profile` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    profile::SERVICE.run_alone().await
}
