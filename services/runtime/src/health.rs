//! Liveness and readiness.
//!
//! A service is ready when its database answers: that is where every write goes (events
//! and their outbox rows in one transaction). The broker is not a condition: while it is
//! away the outbox absorbs the events, the relay publishes them once it is back, and the
//! outage shows as relay lag (`paysite_relay_oldest_unpublished_seconds`) and
//! `paysite_broker_connected 0`, which alert, rather than as every replica leaving its
//! Service at once.

use std::time::Duration;

use sqlx::PgPool;

/// Recorded by the relay as it connects to and loses the broker: the gauge
/// `paysite_broker_connected{service}` (1 connected, 0 not).
pub fn set_broker_up(service: &str, up: bool) {
    metrics::gauge!("paysite_broker_connected", "service" => service.to_owned()).set(if up { 1.0 } else { 0.0 });
}

/// What `/readyz` checks for one service.
#[derive(Clone)]
pub struct Readiness {
    pub service: String,
    /// Its database; none for the gateway, which keeps no state.
    pub pool: Option<PgPool>,
}

impl Readiness {
    /// Problems that make the service unready; empty when ready.
    pub async fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(pool) = &self.pool {
            let ping = tokio::time::timeout(Duration::from_secs(2), sqlx::query("select 1").execute(pool)).await;
            match ping {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => problems.push(format!("database: {e}")),
                Err(_) => problems.push("database: no answer within 2 s".to_owned()),
            }
        }
        problems
    }
}
