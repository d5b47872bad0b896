//! The one retry mechanism: work that may succeed when run again (a transaction that lost a
//! race, an idempotent call to another service that got no answer) runs again after a pause
//! that doubles with each attempt, a bounded number of times; then the failure is surfaced,
//! still marked retryable, for the caller to answer "busy" or "outcome unknown".
//!
//! What differs between uses is a [`Policy`] value, not the code:
//! - [`RACE`]: optimistic-concurrency retries against our own database (a stream moved on, a
//!   serialization failure, a deadlock): 8 attempts, 4 ms doubling, jitter so the racers
//!   spread out, at most 200 ms.
//! - [`IDEMPOTENT_CALL`]: the internal client's idempotent calls (`crate::client`): 3 attempts,
//!   100 ms then 200 ms, no jitter (few callers race, and the reconciler's wait is exact).

use std::future::Future;
use std::time::Duration;

/// How often and how long to wait: attempts in all, the pause after the first failure
/// (doubling after each further one), the cap of a pause, and the jitter (up to this fraction
/// of the pause again, drawn afresh each time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub attempts: usize,
    pub first_pause: Duration,
    pub max_pause: Duration,
    pub jitter: f64,
}

/// Transactions that lost a race.
pub const RACE: Policy =
    Policy { attempts: 8, first_pause: Duration::from_millis(4), max_pause: Duration::from_millis(200), jitter: 1.0 };

/// Idempotent calls to another process (a read, or a write with an idempotency key).
pub const IDEMPOTENT_CALL: Policy =
    Policy { attempts: 3, first_pause: Duration::from_millis(100), max_pause: Duration::from_secs(5), jitter: 0.0 };

/// [`RACE`]'s attempts: the first and up to seven more.
pub const ATTEMPTS: usize = RACE.attempts;

impl Policy {
    /// The pause after failed attempt `failures` (1-based), with `jitter` drawn in `0.0..=1.0`.
    pub fn pause_with(&self, failures: usize, jitter: f64) -> Duration {
        let doublings = failures.saturating_sub(1).min(20) as u32;
        let base = self.first_pause.saturating_mul(1 << doublings);
        let extra = base.mul_f64(self.jitter * jitter.clamp(0.0, 1.0));
        (base + extra).min(self.max_pause)
    }

    /// The pause after failed attempt `failures`, with fresh jitter.
    pub fn pause(&self, failures: usize) -> Duration {
        let jitter = if self.jitter > 0.0 { rand::random_range(0.0..=1.0) } else { 0.0 };
        self.pause_with(failures, jitter)
    }

    /// The longest the pauses of one run can add up to (every attempt failing).
    pub fn longest_pauses(&self) -> Duration {
        (1..self.attempts).map(|f| self.pause_with(f, 1.0)).sum()
    }
}

/// [`RACE`]'s pause after failed attempt `attempt` (1-based).
pub fn backoff(attempt: usize) -> Duration {
    RACE.pause(attempt)
}

/// A failure that may go away when the same work runs again.
pub trait Retryable: std::fmt::Display {
    fn is_retryable(&self) -> bool;
}

#[cfg(feature = "store")]
impl Retryable for crate::StoreError {
    fn is_retryable(&self) -> bool {
        crate::StoreError::is_retryable(self)
    }
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
#[derive(Debug)]
pub struct Retry {
    policy: Policy,
    failed: usize,
}

impl Default for Retry {
    fn default() -> Self {
        Retry::new()
    }
}

impl Retry {
    /// A loop under [`RACE`].
    pub fn new() -> Self {
        Retry::with(RACE)
    }

    pub fn with(policy: Policy) -> Self {
        Retry { policy, failed: 0 }
    }

    /// Records a failure: true when it is retryable and attempts are left.
    pub fn worth(&mut self, error: &impl Retryable) -> bool {
        self.failed += 1;
        let again = error.is_retryable() && self.failed < self.policy.attempts;
        if again {
            tracing::debug!(attempt = self.failed, error = %error, "trying again");
        }
        again
    }

    /// The pause before the next attempt.
    pub async fn wait(&self) {
        tokio::time::sleep(self.policy.pause(self.failed)).await;
    }

    /// Failed attempts so far.
    pub fn failures(&self) -> usize {
        self.failed
    }
}

/// Runs a transaction (`attempt`) until it succeeds, fails for good, or has failed
/// [`ATTEMPTS`] times.
#[cfg(feature = "store")]
pub async fn retrying<T, F, Fut>(attempt: F) -> Result<T, crate::StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, crate::StoreError>>,
{
    retrying_any(attempt).await
}

/// [`retrying`] for work with an error of its own that knows which failures are races.
pub async fn retrying_any<T, E, F, Fut>(attempt: F) -> Result<T, E>
where
    E: Retryable,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    retrying_with(RACE, attempt).await
}

/// Runs `attempt` under `policy` until it succeeds, fails for good, or runs out of attempts.
pub async fn retrying_with<T, E, F, Fut>(policy: Policy, mut attempt: F) -> Result<T, E>
where
    E: Retryable,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut retry = Retry::with(policy);
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
    fn a_race_waits_4_to_8_ms_after_the_first_failure() {
        assert_eq!(RACE.pause_with(1, 0.0), Duration::from_millis(4));
        assert_eq!(RACE.pause_with(1, 1.0), Duration::from_millis(8));
        assert_eq!(RACE.pause_with(2, 0.0), Duration::from_millis(8));
    }

    #[test]
    fn a_race_never_waits_more_than_200_ms() {
        assert_eq!(RACE.pause_with(7, 1.0), Duration::from_millis(200));
        assert_eq!(RACE.pause_with(usize::MAX, 1.0), Duration::from_millis(200));
    }

    #[test]
    fn an_idempotent_call_waits_100_then_200_ms_without_jitter() {
        assert_eq!(IDEMPOTENT_CALL.pause_with(1, 1.0), Duration::from_millis(100));
        assert_eq!(IDEMPOTENT_CALL.pause_with(2, 0.5), Duration::from_millis(200));
        assert_eq!(IDEMPOTENT_CALL.longest_pauses(), Duration::from_millis(300));
        assert_eq!(IDEMPOTENT_CALL.pause(1), Duration::from_millis(100), "no jitter is drawn");
    }

    proptest! {
        #[test]
        fn the_pause_doubles_until_the_cap(
            failures in 1usize..40,
            jitter in 0.0f64..=1.0,
            first_ms in 1u64..500,
            cap_ms in 1u64..10_000,
            spread in 0.0f64..=1.0,
        ) {
            let policy = Policy {
                attempts: 5,
                first_pause: Duration::from_millis(first_ms),
                max_pause: Duration::from_millis(cap_ms),
                jitter: spread,
            };
            let pause = policy.pause_with(failures, jitter);
            let floor = policy.pause_with(failures, 0.0);
            prop_assert!(pause >= floor, "{pause:?} below {floor:?}");
            prop_assert!(pause <= policy.max_pause);
            prop_assert!(pause <= floor * 2);
            prop_assert!(policy.pause_with(failures + 1, 0.0) >= floor);
            prop_assert!(policy.longest_pauses() <= policy.max_pause * 4);
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
    async fn a_policy_sets_the_attempts_and_the_pauses() {
        let calls = AtomicUsize::new(0);
        let started = std::time::Instant::now();
        let result: Result<(), Lost> = retrying_with(IDEMPOTENT_CALL, || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(Lost(true)) }
        })
        .await;
        assert!(matches!(result, Err(Lost(true))));
        assert_eq!(calls.load(Ordering::SeqCst), IDEMPOTENT_CALL.attempts);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(300), "100 ms, then 200 ms: {waited:?}");
        assert!(waited < Duration::from_secs(3), "{waited:?}");
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
