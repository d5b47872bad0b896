//! Where "now" comes from: the system clock in service, a hand-set one in tests.

use std::sync::Arc;

use chrono::{DateTime, SubsecRound, Utc};

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock, to the microsecond Postgres keeps.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now().trunc_subsecs(6)
    }
}

/// Any closure is a clock: `Arc::new(move || fixed)`.
impl<F: Fn() -> DateTime<Utc> + Send + Sync + 'static> Clock for F {
    fn now(&self) -> DateTime<Utc> {
        self()
    }
}

pub fn system() -> Arc<dyn Clock> {
    Arc::new(SystemClock)
}
