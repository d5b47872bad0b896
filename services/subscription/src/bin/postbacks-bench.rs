//! `postbacks-bench`: the postbacks benchmark without the `paysite` command (same as
//! `paysite bench postbacks`). `DATABASE_URL` as for the services.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = runtime::Settings::from_env()?;
    subscription::bench::run(&settings).await
}
