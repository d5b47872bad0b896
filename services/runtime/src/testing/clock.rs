//! A clock a test sets by hand, and the moments it is set to.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, TimeZone, Utc};

use crate::clock::Clock;

/// A clock the test sets by hand; its clones (and the clock it gives a service's state) all
/// tell the same time.
#[derive(Clone)]
pub struct TestClock(Arc<Mutex<DateTime<Utc>>>);

impl TestClock {
    /// A clock standing at `now`.
    pub fn at(now: DateTime<Utc>) -> Self {
        TestClock(Arc::new(Mutex::new(now)))
    }

    /// Moves the clock to `now`.
    pub fn set(&self, now: DateTime<Utc>) {
        *self.0.lock().unwrap() = now;
    }

    /// The time the clock stands at.
    pub fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap()
    }

    /// The clock as a service's state takes it (`State::with_clock`).
    pub fn as_clock(&self) -> Arc<dyn Clock> {
        let inner = self.0.clone();
        Arc::new(move || *inner.lock().unwrap())
    }
}

/// `y-m-d h:min:00` UTC.
pub fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
}
