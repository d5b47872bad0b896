//! `paysite bench postbacks`: biller postbacks applied per second with their signatures checked,
//! and p99, beside the same run's baselines (the signature check alone, the raw insert). The
//! scenarios live with the service (`subscription::bench`), next to what they measure.

use runtime::Settings;

pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    subscription::bench::run(settings).await
}
