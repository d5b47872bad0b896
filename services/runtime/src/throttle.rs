//! Rate limits per key (a client address, a biller), with governor's GCRA: a sustained rate
//! and a burst, answered with 429 and `Retry-After` when spent.
//!
//! The state is this process's memory: with several replicas a key gets at most replicas ×
//! the rate, which still bounds a flood from one address (docs/decisions/).

use std::{num::NonZeroU32, time::Duration};

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use governor::{clock::Clock, DefaultKeyedRateLimiter, Quota, RateLimiter};

/// How many keys are remembered before the ones whose bucket has refilled are forgotten.
const RETAIN_ABOVE: usize = 100_000;

/// A rate: `per_minute` on average, at most `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub per_minute: u32,
    pub burst: u32,
}

impl Rate {
    /// `NAME_PER_MINUTE` and `NAME_BURST` from the environment, else `default`; a per-minute
    /// of 0 turns the limit off (benchmarks measuring the gateway itself).
    pub fn from_env(name: &str, default: Rate) -> anyhow::Result<Option<Rate>> {
        let read = |suffix: &str, fallback: u32| -> anyhow::Result<u32> {
            let key = format!("{name}_{suffix}");
            match std::env::var(&key) {
                Ok(value) => value.trim().parse().map_err(|e| anyhow::anyhow!("{key}={value:?}: {e}")),
                Err(_) => Ok(fallback),
            }
        };
        let per_minute = read("PER_MINUTE", default.per_minute)?;
        let burst = read("BURST", default.burst)?;
        Ok((per_minute > 0).then_some(Rate { per_minute, burst: burst.max(1) }))
    }
}

/// A keyed limiter; `None` inside means the limit is off.
pub struct Throttle {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
}

impl Throttle {
    pub fn new(rate: Option<Rate>) -> Self {
        let limiter = rate.map(|rate| {
            let per_minute = NonZeroU32::new(rate.per_minute.max(1)).expect("non-zero");
            let burst = NonZeroU32::new(rate.burst.max(1)).expect("non-zero");
            RateLimiter::keyed(Quota::per_minute(per_minute).allow_burst(burst))
        });
        Throttle { limiter }
    }

    pub fn off() -> Self {
        Throttle { limiter: None }
    }

    /// Takes one cell for `key`; `Err(wait)` when the key has spent its burst.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else { return Ok(()) };
        if limiter.len() > RETAIN_ABOVE {
            limiter.retain_recent();
        }
        limiter.check_key(&key.to_owned()).map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
    }
}

/// Whole seconds to wait, rounded up, at least 1.
pub fn retry_after_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// The 429 answer: `Retry-After` in seconds and a JSON body with the code the clients read.
pub fn too_many_requests(wait: Duration) -> Response {
    let secs = retry_after_secs(wait);
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(serde_json::json!({
            "code": "RATE_LIMITED",
            "message": format!("Too many requests. Please try again in {secs} seconds."),
        })),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The same for a page a person reads (a form sent by the browser): plain text.
pub fn too_many_requests_text(wait: Duration) -> Response {
    let secs = retry_after_secs(wait);
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"))],
        format!("Too many requests. Please try again in {secs} seconds."),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_burst_then_waits_and_others_are_untouched() {
        let throttle = Throttle::new(Some(Rate { per_minute: 60, burst: 3 }));
        for _ in 0..3 {
            throttle.check("10.0.0.1").unwrap();
        }
        let wait = throttle.check("10.0.0.1").unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1), "{wait:?}");
        throttle.check("10.0.0.2").unwrap();
    }

    #[test]
    fn off_never_refuses() {
        let throttle = Throttle::new(None);
        for _ in 0..10_000 {
            throttle.check("a").unwrap();
        }
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1_500)), 2);
        assert_eq!(retry_after_secs(Duration::from_secs(3)), 3);
    }

    #[test]
    fn the_answer_carries_retry_after() {
        let response = too_many_requests(Duration::from_millis(2_100));
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::RETRY_AFTER], "3");
    }
}
