//! Group commit of postbacks: submissions that arrive while a transaction is running wait and
//! go together in the next one (see [`crate::commands::apply_all_in`]).

use std::sync::Arc;

use runtime::{EventStore, StoreError};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::commands::{apply_all_in, begin_locking, record, wrote_events, Recorded, Submission};

type Reply = oneshot::Sender<Result<Recorded, StoreError>>;

/// Group commit of postbacks: submissions that arrive while a transaction is running wait and
/// go together in the next one, each decided as if alone. One commit then carries many
/// postbacks, in a fixed number of statements (see [`apply_all_in`] and docs/benchmarks.md).
///
/// A batch takes all its subscriptions' locks first, in one order (sorted), so two batches never
/// wait for each other in a circle. Should a batch fail, each of its submissions runs again alone, so one
/// bad postback never takes others with it.
#[derive(Clone)]
pub struct Batcher {
    queue: mpsc::Sender<(Submission, Reply)>,
    store: EventStore,
}

/// Submissions in one transaction at most.
pub const MAX_BATCH: usize = 64;
/// Transactions in flight at once, unless `SUBSCRIPTION_POSTBACK_WORKERS` says otherwise. A batch
/// costs the same few statements whatever its size, so fewer, larger batches do best on two cores
/// (docs/benchmarks.md).
pub const WORKERS: usize = 4;

/// [`WORKERS`], or `SUBSCRIPTION_POSTBACK_WORKERS` (1 to 64) when set.
pub fn workers() -> usize {
    std::env::var("SUBSCRIPTION_POSTBACK_WORKERS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| (1..=64).contains(n))
        .unwrap_or(WORKERS)
}

impl Batcher {
    /// Starts the workers (inside a Tokio runtime); they stop when every `Batcher` is dropped.
    pub fn start(store: EventStore) -> Self {
        let workers = workers();
        let (queue, receiver) = mpsc::channel::<(Submission, Reply)>(MAX_BATCH * workers * 4);
        let receiver = Arc::new(tokio::sync::Mutex::new(receiver));
        for _ in 0..workers {
            let (store, receiver) = (store.clone(), receiver.clone());
            // Workers end when the queue closes (every sender dropped).
            tokio::spawn(async move {
                loop {
                    let mut batch = Vec::new();
                    {
                        let mut receiver = receiver.lock().await;
                        match receiver.recv().await {
                            Some(first) => batch.push(first),
                            None => return,
                        }
                        while batch.len() < MAX_BATCH {
                            match receiver.try_recv() {
                                Ok(next) => batch.push(next),
                                Err(_) => break,
                            }
                        }
                    }
                    run_batch(&store, batch).await;
                }
            });
        }
        Batcher { queue, store }
    }

    /// Stores and decides `submission`, in the next batch.
    pub async fn submit(&self, submission: Submission) -> Result<Recorded, StoreError> {
        let (reply, answer) = oneshot::channel();
        if let Err(mpsc::error::SendError((submission, _))) = self.queue.send((submission, reply)).await {
            return record(&self.store, &submission).await;
        }
        match answer.await {
            Ok(result) => result,
            Err(_) => Err(StoreError::Database(sqlx::Error::WorkerCrashed)),
        }
    }
}

async fn run_batch(store: &EventStore, batch: Vec<(Submission, Reply)>) {
    metrics::histogram!("paysite_postback_batch_size").record(batch.len() as f64);
    let (submissions, replies): (Vec<Submission>, Vec<Reply>) = batch.into_iter().unzip();
    for (reply, outcome) in replies.into_iter().zip(apply_batch(store, &submissions).await) {
        let _ = reply.send(outcome);
    }
}

/// Applies `submissions` in one transaction ([`apply_all_in`]); should it fail, each runs
/// again alone ([`record`]), so one bad submission never takes the others with it. One outcome
/// per submission, in order.
pub async fn apply_batch(store: &EventStore, submissions: &[Submission]) -> Vec<Result<Recorded, StoreError>> {
    if submissions.len() == 1 {
        return vec![record(store, &submissions[0]).await];
    }
    let together = async {
        let ids: Vec<Uuid> = submissions.iter().flat_map(|s| s.records.iter().map(|r| r.subscription_id)).collect();
        let mut tx = begin_locking(store.pool(), &ids).await?;
        let outcomes = apply_all_in(&mut tx, store, submissions).await?;
        tx.commit().await?;
        Ok::<_, StoreError>(outcomes)
    }
    .await;
    match together {
        Ok(outcomes) => {
            if outcomes.iter().any(wrote_events) {
                store.wake_relay();
            }
            outcomes.into_iter().map(Ok).collect()
        }
        Err(e) => {
            tracing::debug!(error = %e, size = submissions.len(), "postback batch failed, each alone");
            let mut outcomes = Vec::with_capacity(submissions.len());
            for submission in submissions {
                outcomes.push(record(store, submission).await);
            }
            outcomes
        }
    }
}
