//! Per-account rate limits on the operations that cost money or invite abuse.
//!
//! A fixed window per (bucket, account), kept in this gateway's memory: with several
//! gateway replicas an account gets at most replicas × the limit, which still bounds abuse;
//! docs/decisions/ says why that is enough here.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use super::errors;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Spending gems or credits, asking for download tokens.
    Spend,
    /// One-click upsells and purchases.
    Upsell,
    /// Community writes: comments, votes, ratings, favourites.
    Write,
    /// Join forms sent, per e-mail address (one address sent again and again; each form
    /// hashes a password).
    Join,
}

impl Bucket {
    /// Operations allowed per window.
    pub fn limit(self) -> u32 {
        match self {
            Bucket::Spend => 30,
            Bucket::Upsell => 10,
            Bucket::Write => 120,
            Bucket::Join => 10,
        }
    }
}

pub const WINDOW: Duration = Duration::from_secs(60);

/// Per (bucket, account): when the window started and how many operations it has seen.
type Windows = HashMap<(Bucket, String), (Instant, u32)>;

#[derive(Clone, Default)]
pub struct RateLimiter {
    windows: Arc<Mutex<Windows>>,
}

impl RateLimiter {
    pub fn check(&self, bucket: Bucket, account: &str) -> async_graphql::Result<()> {
        self.check_at(bucket, account, Instant::now())
    }

    fn check_at(&self, bucket: Bucket, account: &str, now: Instant) -> async_graphql::Result<()> {
        let mut windows = self.windows.lock().expect("rate limiter lock");
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = windows.entry((bucket, account.to_owned())).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        if entry.1 >= bucket.limit() {
            let retry = WINDOW.saturating_sub(now.duration_since(entry.0)).as_secs().max(1);
            return Err(errors::coded("RATE_LIMITED", format!("Too many requests, try again in {retry} seconds")));
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_holds_per_account_and_resets_with_the_window() {
        let limiter = RateLimiter::default();
        let start = Instant::now();
        for _ in 0..Bucket::Upsell.limit() {
            limiter.check_at(Bucket::Upsell, "a", start).unwrap();
        }
        assert!(limiter.check_at(Bucket::Upsell, "a", start).is_err());
        assert!(limiter.check_at(Bucket::Upsell, "b", start).is_ok());
        assert!(limiter.check_at(Bucket::Spend, "a", start).is_ok());
        assert!(limiter.check_at(Bucket::Upsell, "a", start + WINDOW).is_ok());
    }
}
