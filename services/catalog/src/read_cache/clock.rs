//! The generation check shared by concurrent requests: each request is answered by a check
//! that started after it arrived, and one check answers every request that arrived before it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::PgPool;
use tokio::sync::watch;

use super::Generations;

#[derive(Clone)]
struct Published {
    /// The check read the generations after this many requests had arrived.
    covers: u64,
    generations: Arc<Generations>,
}

/// Reads the generations for concurrent requests: each request gets the result of a check
/// that started after it arrived; a check serves every request that arrived before it began.
pub struct Clock {
    arrived: AtomicU64,
    published: watch::Sender<Published>,
    leader: tokio::sync::Mutex<()>,
    checks: AtomicU64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            arrived: AtomicU64::new(0),
            published: watch::Sender::new(Published { covers: 0, generations: Arc::default() }),
            leader: tokio::sync::Mutex::new(()),
            checks: AtomicU64::new(0),
        }
    }
}

/// The running check: whatever way it ends, the lock goes first, then the waiters wake (so
/// one of them can take the lock when this check did not cover it).
struct Lead<'a> {
    clock: &'a Clock,
    guard: Option<tokio::sync::MutexGuard<'a, ()>>,
    result: Option<Published>,
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        let result = self.result.take();
        // Always notify (a waiter this check did not cover takes the lock next); keep the
        // newest result when two checks finish out of order.
        self.clock.published.send_modify(|p| match result {
            Some(r) if r.covers > p.covers => *p = r,
            _ => {}
        });
    }
}

impl Clock {
    /// The generations now: read after this call began.
    pub async fn now(&self, pool: &PgPool) -> sqlx::Result<Arc<Generations>> {
        let ticket = self.arrived.fetch_add(1, Ordering::SeqCst) + 1;
        let mut rx = self.published.subscribe();
        loop {
            {
                let p = rx.borrow_and_update();
                if p.covers >= ticket {
                    return Ok(p.generations.clone());
                }
            }
            let Ok(guard) = self.leader.try_lock() else {
                // A check is running; it or the one after it covers this request.
                let _ = rx.changed().await;
                continue;
            };
            let mut lead = Lead { clock: self, guard: Some(guard), result: None };
            {
                let p = self.published.borrow();
                if p.covers >= ticket {
                    return Ok(p.generations.clone());
                }
            }
            let covers = self.arrived.load(Ordering::SeqCst);
            self.checks.fetch_add(1, Ordering::Relaxed);
            metrics::counter!("paysite_catalog_read_cache_checks_total").increment(1);
            let generations = Arc::new(Generations::read(pool).await?);
            lead.result = Some(Published { covers, generations: generations.clone() });
            return Ok(generations);
        }
    }

    /// Checks run so far (each one a query).
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }
}
