//! The closed-loop load every service benchmark runs: a number of clients, each sending its
//! next request as soon as the last one answered, until a total is reached; latencies in a
//! histogram, throughput over the whole run.

use std::{
    future::Future,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use hdrhistogram::Histogram;

/// What one closed-loop run measured.
#[derive(Clone, Debug)]
pub struct LoadStats {
    pub requests: u64,
    /// Requests whose future answered `false`.
    pub failed: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// Runs `total` requests from `concurrency` clients; `request(client)` makes one request of
/// that client and answers whether it succeeded.
pub async fn closed_loop<F, Fut>(concurrency: usize, total: usize, request: F) -> anyhow::Result<LoadStats>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send + 'static,
{
    let request = Arc::new(request);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for client in 0..concurrency {
        let (request, next) = (request.clone(), next.clone());
        clients.spawn(async move {
            let mut latencies = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds");
            let mut failed = 0u64;
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let t = Instant::now();
                if !request(client).await {
                    failed += 1;
                }
                latencies.saturating_record(t.elapsed().as_micros() as u64);
            }
            (latencies, failed)
        });
    }
    let mut latencies = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?;
    let mut failed = 0;
    while let Some(done) = clients.join_next().await {
        let (h, f) = done?;
        latencies.add(h)?;
        failed += f;
    }
    let elapsed = started.elapsed();
    let ms = |q: f64| Duration::from_micros(latencies.value_at_quantile(q)).as_secs_f64() * 1e3;
    Ok(LoadStats {
        requests: latencies.len(),
        failed,
        per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50_ms: ms(0.50),
        p95_ms: ms(0.95),
        p99_ms: ms(0.99),
        max_ms: latencies.max() as f64 / 1e3,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_request_runs_once_and_failures_are_counted() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let stats = closed_loop(4, 100, move |_| {
            let n = counted.fetch_add(1, Ordering::Relaxed);
            async move { !n.is_multiple_of(10) }
        })
        .await
        .unwrap();
        assert_eq!(stats.requests, 100);
        assert_eq!(calls.load(Ordering::Relaxed), 100);
        assert_eq!(stats.failed, 10);
        assert!(stats.p50_ms <= stats.p99_ms && stats.p99_ms <= stats.max_ms + 1.0);
    }
}
