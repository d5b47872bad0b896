//! Per-stream batching of commands: the hot write paths of the wallet and unlocks.
//!
//! Commands for one stream key (a wallet, a user's unlocks) that arrive while a transaction for
//! that key is running wait, then go together in the next one: at most [`MAX_BATCH`] commands,
//! in the order they arrived, each decided on what its predecessors left, as if alone. A hot
//! stream then commits once per batch instead of once per command, which keeps its latency
//! flat under concurrency. Different keys never wait for each other.
//!
//! The service says what a batch does inside its transaction through [`Batch::run_in`]: load
//! its state (a snapshot kept in its read models, restored under the stream's lock), decide
//! each command, append, and store the snapshot and read models. The batcher owns the rest:
//! the queues, the transaction, the retry of a lost race ([`crate::retry`]), the replies and
//! waking the relay.
//!
//! Each command gets its own answer: its refusal (a domain error) does not stop the others. A
//! store failure fails the whole batch; when it is not a lost race, one command may be its
//! cause, so each then runs alone and only the culprit fails.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use sqlx::PgConnection;
use tokio::sync::oneshot;

use crate::retry::{retrying, Retryable};
use crate::{EventStore, StoreError};

/// Most commands of one stream decided in one transaction.
pub const MAX_BATCH: usize = 64;

/// What a service's batched write path does inside a batch's transaction.
pub trait Batch: Send + Sync + 'static {
    /// The stream a command belongs to: commands of one key are batched and ordered.
    type Key: Eq + Hash + Clone + std::fmt::Display + Send + Sync + 'static;
    type Command: Send + Sync + 'static;
    /// An accepted command's answer.
    type Outcome: Send + 'static;
    /// A refused command's answer: it recorded nothing and did not stop the others.
    type Refusal: Send + 'static;

    /// The histogram of batch sizes (`paysite_<service>_batch_size`).
    const SIZE_METRIC: &'static str;

    /// Runs `commands` of stream `key`, in order, inside `conn`'s transaction: loads the state
    /// (the snapshot hook: restore it under the stream's lock), decides each command on what
    /// its predecessors left, appends, and writes the snapshot and read models. One answer per
    /// command, in order. An `Err` is a store failure: the transaction is rolled back.
    fn run_in<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        key: &'a Self::Key,
        commands: &'a [Self::Command],
    ) -> BoxFuture<'a, Result<Answers<Self>, StoreError>>;

    /// Whether the outcome recorded events (the relay is woken after the commit if any did).
    fn wrote_events(outcome: &Self::Outcome) -> bool;
}

/// A store failure handed to every command of a failed transaction.
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct Failure(pub Arc<StoreError>);

impl Failure {
    /// A new attempt (with the same idempotency key) may succeed.
    pub fn is_retryable(&self) -> bool {
        self.0.is_retryable()
    }

    /// The batch's server went away before answering (a panic, a runtime shutting down).
    fn lost() -> Self {
        Failure::from(StoreError::Database(sqlx::Error::WorkerCrashed))
    }
}

impl Retryable for Failure {
    fn is_retryable(&self) -> bool {
        Failure::is_retryable(self)
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Failure(Arc::new(e))
    }
}

/// One command's answer: accepted, refused, or a store failure.
pub type Reply<B> = Result<Result<<B as Batch>::Outcome, <B as Batch>::Refusal>, Failure>;

/// The commands answered by one transaction, each on its own.
pub type Answers<B> = Vec<Result<<B as Batch>::Outcome, <B as Batch>::Refusal>>;

/// Runs commands through `B`, batching those of one stream key (see the module docs).
pub struct Batcher<B: Batch> {
    inner: Arc<Inner<B>>,
}

impl<B: Batch> Clone for Batcher<B> {
    fn clone(&self) -> Self {
        Batcher { inner: self.inner.clone() }
    }
}

struct Inner<B: Batch> {
    batch: B,
    store: EventStore,
    max_batch: usize,
    /// Keys with a transaction running, and the commands waiting for the next one.
    waiting: Mutex<HashMap<B::Key, Vec<Queued<B>>>>,
}

struct Queued<B: Batch> {
    command: B::Command,
    reply: oneshot::Sender<Reply<B>>,
}

impl<B: Batch> Batcher<B> {
    /// Batches of at most [`MAX_BATCH`] commands, committed through `store`'s pool.
    pub fn new(store: EventStore, batch: B) -> Self {
        Self::with_max_batch(store, batch, MAX_BATCH)
    }

    /// Batches of at most `max_batch` commands (at least one).
    pub fn with_max_batch(store: EventStore, batch: B, max_batch: usize) -> Self {
        Batcher {
            inner: Arc::new(Inner { batch, store, max_batch: max_batch.max(1), waiting: Mutex::new(HashMap::new()) }),
        }
    }

    /// The service's side of the batches.
    pub fn batch(&self) -> &B {
        &self.inner.batch
    }

    /// Runs one command on stream `key` and answers once it is committed.
    pub async fn submit(&self, key: B::Key, command: B::Command) -> Reply<B> {
        let (reply, answer) = oneshot::channel();
        let queued = Queued { command, reply };
        let first = {
            let mut waiting = self.inner.waiting.lock().expect("batch queue lock");
            match waiting.get_mut(&key) {
                Some(queue) => {
                    queue.push(queued);
                    false
                }
                None => {
                    waiting.insert(key.clone(), vec![queued]);
                    true
                }
            }
        };
        // The batches run in a task of their own: a caller that goes away stops nobody else.
        if first {
            tokio::spawn(self.inner.clone().serve(key));
        }
        answer.await.unwrap_or_else(|_| Err(Failure::lost()))
    }

    /// One transaction for `commands` of `key`, run again when it lost a race; no batching.
    pub async fn transact(&self, key: &B::Key, commands: &[B::Command]) -> Result<Answers<B>, StoreError> {
        self.inner.transact(key, commands).await
    }
}

/// Forgets a key's queue if its server stops early (a panic, a runtime shutting down): the
/// waiting callers' replies drop, and they answer a failure instead of waiting forever.
struct ServeGuard<'a, B: Batch> {
    inner: &'a Inner<B>,
    key: B::Key,
    done: bool,
}

impl<B: Batch> Drop for ServeGuard<'_, B> {
    fn drop(&mut self) {
        if !self.done {
            if let Ok(mut waiting) = self.inner.waiting.lock() {
                waiting.remove(&self.key);
            }
        }
    }
}

impl<B: Batch> Inner<B> {
    async fn serve(self: Arc<Self>, key: B::Key) {
        let mut guard = ServeGuard { inner: &self, key: key.clone(), done: false };
        loop {
            let batch: Vec<Queued<B>> = {
                let mut waiting = self.waiting.lock().expect("batch queue lock");
                let queue = waiting.get_mut(&key).expect("a served key has a queue");
                if queue.is_empty() {
                    waiting.remove(&key);
                    guard.done = true;
                    return;
                }
                let n = queue.len().min(self.max_batch);
                queue.drain(..n).collect()
            };
            self.run_batch(&key, batch).await;
        }
    }

    async fn run_batch(&self, key: &B::Key, batch: Vec<Queued<B>>) {
        let (commands, replies): (Vec<B::Command>, Vec<oneshot::Sender<Reply<B>>>) =
            batch.into_iter().map(|q| (q.command, q.reply)).unzip();
        metrics::histogram!(B::SIZE_METRIC).record(commands.len() as f64);
        match self.transact(key, &commands).await {
            Ok(answers) => {
                for (reply, answer) in replies.into_iter().zip(answers) {
                    let _ = reply.send(Ok(answer));
                }
            }
            // One command may be what fails the batch: run each alone, so only it fails.
            Err(e) if commands.len() > 1 && !e.is_retryable() => {
                tracing::warn!(%key, error = %e, size = commands.len(), "batch failed, running each alone");
                for (command, reply) in commands.iter().zip(replies) {
                    let answer = match self.transact(key, std::slice::from_ref(command)).await {
                        Ok(mut answers) => Ok(answers.remove(0)),
                        Err(e) => Err(Failure::from(e)),
                    };
                    let _ = reply.send(answer);
                }
            }
            Err(e) => {
                tracing::warn!(%key, error = %e, "batch transaction failed");
                let failure = Failure::from(e);
                for reply in replies {
                    let _ = reply.send(Err(failure.clone()));
                }
            }
        }
    }

    async fn transact(&self, key: &B::Key, commands: &[B::Command]) -> Result<Answers<B>, StoreError> {
        let answers = retrying(|| async move {
            let mut tx = self.store.pool().begin().await?;
            let answers = self.batch.run_in(&mut tx, key, commands).await?;
            tx.commit().await?;
            Ok::<_, StoreError>(answers)
        })
        .await?;
        if answers.iter().any(|a| a.as_ref().is_ok_and(B::wrote_events)) {
            self.store.wake_relay();
        }
        Ok(answers)
    }
}
