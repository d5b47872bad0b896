//! `paysite bench <name>`: measurements printed side by side with a baseline taken in
//! the same run, so the ratios mean something on whatever machine runs them.

mod events;
mod gateway;
mod postbacks;
mod refusals;

use runtime::Settings;

pub async fn run(settings: &Settings, name: &str) -> anyhow::Result<()> {
    crate::preflight::check(settings, crate::preflight::Needs::BOTH).await?;
    match name {
        "events" => events::run(settings).await,
        "wallet" => wallet::bench::run(settings).await,
        "profile" => profile::bench::run(settings).await,
        "deals" => deals::bench::run(settings).await,
        "catalog" => catalog::bench::run(settings).await,
        "unlocks" => unlocks::bench::run(settings).await,
        "gateway" => gateway::run(settings).await,
        "postbacks" => postbacks::run(settings).await,
        "refusals" => refusals::run(settings).await,
        other => {
            anyhow::bail!("unknown benchmark {other:?}; known: events, wallet, profile, catalog, deals, unlocks, gateway, postbacks, refusals")
        }
    }
}

/// p-th percentile (0–100) of sorted microseconds, in milliseconds.
pub fn percentile_ms(sorted_us: &[u64], p: f64) -> f64 {
    if sorted_us.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted_us.len() - 1) as f64).round() as usize;
    sorted_us[rank] as f64 / 1000.0
}
