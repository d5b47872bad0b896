//! The one retry policy of every optimistic-concurrency retry: a transaction that lost a race
//! (a stream moved on, a serialization failure, a deadlock) runs again on fresh state after a
//! short pause that doubles with each attempt, with jitter so the racers spread out, a few
//! times; then the failure is surfaced, still marked retryable, for the caller to answer "busy".
//!
//! Calls to other processes over HTTP have their own policy (the internal client's): this
//! one is for transactions against our own database.

use std::future::Future;
use std::time::Duration;

/// Attempts in all: the first and up to seven more.
pub const ATTEMPTS: usize = 8;
/// The pause after the first failed attempt is `2 * BASE` to `4 * BASE`, doubling after each.
const BASE_MS: u64 = 2;
/// No pause is longer.
const CAP_MS: u64 = 200;

/// A failure that may go away when the same work runs again on fresh state.
pub trait Retryable: std::fmt::Display {
    fn is_retryable(&self) -> bool;
}

impl Retryable for crate::StoreError {
    fn is_retryable(&self) -> bool {
        crate::StoreError::is_retryable(self)
    }
}

/// The pause after failed attempt `attempt` (1-based): `2 << attempt` ms plus up to as much
/// again of jitter, at most 200 ms.
pub fn backoff(attempt: usize) -> Duration {
    backoff_with(attempt, rand::random_range(0.0..=1.0))
}

/// [`backoff`] with the jitter given as a fraction in `0.0..=1.0`.
fn backoff_with(attempt: usize, jitter: f64) -> Duration {
    let base = BASE_MS << attempt.clamp(1, 7);
    let jitter = (base as f64 * jitter.clamp(0.0, 1.0)) as u64;
    Duration::from_millis((base + jitter).min(CAP_MS))
}

/// Where a retry loop stands: count the failures, wait between attempts.
///
/// ```ignore
/// let mut retry = Retry::new();
/// loop {
///     match attempt().await {
///         Err(e) if retry.worth(&e) => retry.wait().await,
///         other => return other,
///     }
/// }
/// ```
#[derive(Debug, Default)]
pub struct Retry {
    failed: usize,
}

impl Retry {
    pub fn new() -> Self {
        Retry::default()
    }

    /// Records a failure: true when it is retryable and attempts are left.
    pub fn worth(&mut self, error: &impl Retryable) -> bool {
        self.failed += 1;
        let again = error.is_retryable() && self.failed < ATTEMPTS;
        if again {
            tracing::debug!(attempt = self.failed, error = %error, "lost a race, trying again");
        }
        again
    }

    /// The pause before the next attempt.
    pub async fn wait(&self) {
        tokio::time::sleep(backoff(self.failed)).await;
    }

    /// Failed attempts so far.
    pub fn failures(&self) -> usize {
        self.failed
    }
}

/// Runs a transaction (`attempt`) until it succeeds, fails for good, or has failed
/// [`ATTEMPTS`] times.
pub async fn retrying<T, F, Fut>(attempt: F) -> Result<T, crate::StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, crate::StoreError>>,
{
    retrying_any(attempt).await
}

/// [`retrying`] for work with an error of its own that knows which failures are races.
pub async fn retrying_any<T, E, F, Fut>(mut attempt: F) -> Result<T, E>
where
    E: Retryable,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut retry = Retry::new();
    loop {
        match attempt().await {
            Err(e) if retry.worth(&e) => retry.wait().await,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use proptest::prelude::*;

    use super::*;

    #[derive(Debug)]
    struct Lost(bool);

    impl std::fmt::Display for Lost {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "lost (retryable: {})", self.0)
        }
    }

    impl Retryable for Lost {
        fn is_retryable(&self) -> bool {
            self.0
        }
    }

    #[test]
    fn it_waits_4_to_8_ms_after_the_first_failure() {
        assert_eq!(backoff_with(1, 0.0), Duration::from_millis(4));
        assert_eq!(backoff_with(1, 1.0), Duration::from_millis(8));
        assert_eq!(backoff_with(2, 0.0), Duration::from_millis(8));
    }

    #[test]
    fn it_never_waits_more_than_200_ms() {
        assert_eq!(backoff_with(7, 1.0), Duration::from_millis(200));
        assert_eq!(backoff_with(usize::MAX, 1.0), Duration::from_millis(200));
    }

    proptest! {
        #[test]
        fn the_pause_doubles_until_the_cap(attempt in 1usize..20, jitter in 0.0f64..=1.0) {
            let pause = backoff_with(attempt, jitter);
            let floor = Duration::from_millis((BASE_MS << attempt.min(7)).min(CAP_MS));
            prop_assert!(pause >= floor, "{pause:?} below {floor:?}");
            prop_assert!(pause <= Duration::from_millis(CAP_MS));
            prop_assert!(pause <= floor * 2);
            prop_assert!(backoff_with(attempt + 1, 0.0) >= backoff_with(attempt, 0.0));
        }
    }

    #[tokio::test]
    async fn a_retryable_failure_is_tried_again_until_attempts_run_out() {
        for fails in [0, 1, 3, ATTEMPTS - 1, ATTEMPTS, ATTEMPTS + 3] {
            let calls = AtomicUsize::new(0);
            let result = retrying_any(|| {
                let n = calls.fetch_add(1, Ordering::SeqCst);
                async move {
                    if n < fails {
                        Err(Lost(true))
                    } else {
                        Ok(n)
                    }
                }
            })
            .await;
            let calls = calls.load(Ordering::SeqCst);
            if fails < ATTEMPTS {
                assert_eq!(result.unwrap(), fails);
                assert_eq!(calls, fails + 1);
            } else {
                assert!(matches!(result, Err(Lost(true))));
                assert_eq!(calls, ATTEMPTS, "{fails} failures");
            }
        }
    }

    #[tokio::test]
    async fn a_failure_for_good_is_not_tried_again() {
        let calls = AtomicUsize::new(0);
        let result: Result<(), Lost> = retrying_any(|| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(Lost(false)) }
        })
        .await;
        assert!(matches!(result, Err(Lost(false))));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
