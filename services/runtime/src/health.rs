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
    /// What it is still doing before it serves (migrating, waiting for the release's
    /// migration Job); nothing once started.
    pub starting: Starting,
}

/// Why a process that already answers its probes does not serve yet: its operations routes
/// bind first, so a slow start (a migration, a wait for the migration Job) shows as
/// `/readyz` 503 with the reason while `/healthz` answers, and no startup probe kills it.
#[derive(Clone, Default)]
pub struct Starting(std::sync::Arc<std::sync::RwLock<Option<String>>>);

impl Starting {
    /// Starting, for `reason`.
    pub fn new(reason: impl Into<String>) -> Self {
        Starting(std::sync::Arc::new(std::sync::RwLock::new(Some(reason.into()))))
    }

    /// Says what it is doing now.
    pub fn set(&self, reason: impl Into<String>) {
        *self.0.write().expect("starting lock") = Some(reason.into());
    }

    /// Started: nothing keeps it from being ready any more.
    pub fn done(&self) {
        *self.0.write().expect("starting lock") = None;
    }

    pub fn reason(&self) -> Option<String> {
        self.0.read().expect("starting lock").clone()
    }
}

impl Readiness {
    /// A process ready as soon as its database answers (or at once, without one).
    pub fn new(service: impl Into<String>, pool: Option<PgPool>) -> Self {
        Readiness { service: service.into(), pool, starting: Starting::default() }
    }

    /// Problems that make the service unready; empty when ready.
    pub async fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(reason) = self.starting.reason() {
            problems.push(format!("starting: {reason}"));
        }
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
