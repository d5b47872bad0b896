//! The catalog service on its own: `catalog` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    catalog::SERVICE.run_alone().await
}
