//! Liveness and readiness.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
    time::Duration,
};

use sqlx::PgPool;

fn broker_states() -> &'static Mutex<HashMap<String, bool>> {
    static STATES: OnceLock<Mutex<HashMap<String, bool>>> = OnceLock::new();
    STATES.get_or_init(Default::default)
}

/// Recorded by the relay as it connects to and loses the broker.
pub fn set_broker_up(service: &str, up: bool) {
    broker_states().lock().unwrap().insert(service.to_owned(), up);
}

fn broker_up(service: &str) -> Option<bool> {
    broker_states().lock().unwrap().get(service).copied()
}

/// What `/readyz` checks for one service.
#[derive(Clone)]
pub struct Readiness {
    pub service: String,
    pub pool: Option<PgPool>,
    /// Whether the service talks to the broker (has a relay).
    pub uses_broker: bool,
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
        if self.uses_broker {
            match broker_up(&self.service) {
                Some(true) => {}
                Some(false) => problems.push("broker: disconnected".to_owned()),
                None => problems.push("broker: not connected yet".to_owned()),
            }
        }
        problems
    }
}
