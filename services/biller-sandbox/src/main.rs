//! The biller sandbox on its own: `biller-sandbox` (configuration from the environment).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    biller_sandbox::SERVICE.run_alone().await
}
