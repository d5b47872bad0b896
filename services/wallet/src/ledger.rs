//! The write side: a wallet's commands decided and appended, one wallet at a time.
//!
//! [`run_in`] runs commands of one wallet inside a caller's transaction (the consumer's,
//! the scheduler's, or the [`Ledger`]'s own). It locks the wallet's row `for update`, so
//! every writer of a wallet, in any process, waits its turn; restores the wallet from its
//! read models (balances plus the grants and debits the commands look up) instead of folding
//! a stream that grows without end; decides each command; appends what was decided with the
//! expected version; and writes the read models in the same transaction.
//!
//! A wallet with no event yet has no row to lock: two first writers both decide on the empty
//! wallet, and the unique stream version makes the second fail cleanly and retry.
//!
//! [`Ledger`] is the HTTP side's entry: commands for one wallet that arrive while a
//! transaction for it is running wait and then go together in the next one, decided one
//! after another as if alone. A hot wallet then commits once per batch instead of once per
//! debit, which is what keeps its latency flat under concurrency.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proto_events::wallet::{stream_id, Asset, WalletEvent};
use proto_events::{Envelope, EventMeta};
use runtime::{Decider, EventStore, StoreError};
use sqlx::{PgConnection, PgPool};
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::domain::{self, debit_reason, Command, DebitReceipt, DomainError, Grant, Lookup, Snapshot, Wallet};
use crate::projections::{apply_wallet_events, lookup_key};
use runtime::Pending;

/// One command with its causal metadata and the span of the request that asked for it.
#[derive(Clone, Debug)]
pub struct Item {
    pub command: Command,
    pub meta: EventMeta,
    pub span: tracing::Span,
}

impl Item {
    /// A command asked for in the current span.
    pub fn new(command: Command, meta: EventMeta) -> Self {
        Item { command, meta, span: tracing::Span::current() }
    }
}

/// An accepted command: the events it recorded (none when it changed nothing, a retry)
/// and the wallet after it.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub events: Vec<Envelope>,
    pub wallet: Wallet,
}

impl Outcome {
    /// The receipt of the debit under `idempotency_key`: the first answer, for every retry.
    pub fn receipt(&self, idempotency_key: &str) -> Option<&DebitReceipt> {
        self.wallet.receipt(idempotency_key)
    }
}

/// Runs `items` on the wallet of `user_id`, in order, inside `conn`'s transaction.
///
/// Each item is answered on its own: an `Err` inside is a refusal that recorded nothing and
/// did not stop the others. The outer error is a store failure: the transaction must be
/// rolled back (and, when retryable, run again).
#[tracing::instrument(name = "wallet_commands", skip_all, fields(%user_id, commands = items.len()))]
pub async fn run_in(
    conn: &mut PgConnection,
    store: &EventStore,
    user_id: Uuid,
    items: &[Item],
) -> Result<Vec<Result<Outcome, DomainError>>, StoreError> {
    let lookups: Vec<Lookup> = items.iter().filter_map(|i| i.command.lookup()).collect();
    let (mut wallet, version) = restore(conn, user_id, &lookups).await?;
    // Decide each command on the wallet its predecessors left, then append all at once.
    let mut decided: Vec<Result<(Vec<WalletEvent>, Wallet), DomainError>> = Vec::with_capacity(items.len());
    for item in items {
        match domain::decide(&wallet, item.command.clone()) {
            Ok(events) => {
                wallet = events.iter().fold(wallet, domain::evolve);
                decided.push(Ok((events, wallet.clone())));
            }
            Err(refused) => decided.push(Err(refused)),
        }
    }
    let pending: Vec<Pending<'_, WalletEvent>> = items
        .iter()
        .zip(&decided)
        .filter_map(|(item, d)| d.as_ref().ok().map(|(events, _)| (item, events)))
        .flat_map(|(item, events)| {
            let trace_context = item.span.in_scope(runtime::telemetry::current_traceparent);
            events.iter().map(move |event| Pending { event, meta: &item.meta, trace_context: trace_context.clone() })
        })
        .collect();
    let written = store.append_each(conn, &stream_id(user_id), version, &pending).await?;
    apply_wallet_events(conn, &written).await?;
    let mut written = written.into_iter();
    Ok(decided
        .into_iter()
        .map(|d| d.map(|(events, wallet)| Outcome { events: written.by_ref().take(events.len()).collect(), wallet }))
        .collect())
}

#[derive(sqlx::FromRow)]
struct WalletRow {
    version: i64,
    gems: i64,
    credits: i64,
    last_acknowledged_at: Option<chrono::DateTime<chrono::Utc>>,
    gems_unacknowledged: bool,
}

#[derive(sqlx::FromRow)]
struct EntryRow {
    entry_type: String,
    currency: String,
    reason: String,
    reference: String,
    amount: i64,
    balance_after: i64,
}

/// Locks the wallet's row and restores what deciding `lookups` needs; returns it with the
/// stream version it stands at.
async fn restore(conn: &mut PgConnection, user_id: Uuid, lookups: &[Lookup]) -> Result<(Wallet, i64), StoreError> {
    let row: Option<WalletRow> = sqlx::query_as(
        "select version, gems, credits, last_acknowledged_at, gems_unacknowledged
         from wallet where user_id = $1 for update",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let corrupt = |reason: String| StoreError::Corrupt { event_id: Uuid::nil(), reason };
    let (mut snapshot, version) = match row {
        None => (Snapshot::default(), 0),
        Some(row) => (
            Snapshot {
                gems: u64::try_from(row.gems).map_err(|_| corrupt(format!("wallet {user_id}: gems {}", row.gems)))?,
                credits: u64::try_from(row.credits)
                    .map_err(|_| corrupt(format!("wallet {user_id}: credits {}", row.credits)))?,
                last_acknowledged_at: row.last_acknowledged_at,
                gems_granted_since_acknowledgement: row.gems_unacknowledged,
                grants: vec![],
                receipts: vec![],
            },
            row.version,
        ),
    };
    if !lookups.is_empty() {
        let keys: Vec<String> =
            lookups.iter().map(|l| lookup_key(user_id, l.reference())).collect::<HashSet<_>>().into_iter().collect();
        let entries: Vec<EntryRow> = sqlx::query_as(
            "select entry_type, currency, reason, reference, amount, balance_after from ledger_entry
             where lookup = any($1) and entry_type in ('grant', 'debit')",
        )
        .bind(&keys)
        .fetch_all(&mut *conn)
        .await?;
        for entry in entries {
            let unknown =
                || corrupt(format!("wallet {user_id}: unknown ledger entry {} {}", entry.currency, entry.reason));
            let asset: Asset = serde_json::from_value(entry.currency.clone().into()).map_err(|_| unknown())?;
            match entry.entry_type.as_str() {
                "grant" => {
                    let grant = Grant::parse(asset, &entry.reason, entry.reference.clone()).ok_or_else(unknown)?;
                    snapshot.grants.push(grant);
                }
                _ => {
                    let receipt = DebitReceipt {
                        asset,
                        amount: entry.amount as u64,
                        reason: debit_reason(asset, &entry.reason).ok_or_else(unknown)?,
                        balance_after: entry.balance_after as u64,
                    };
                    snapshot.receipts.push((entry.reference, receipt));
                }
            }
        }
    }
    Ok((Wallet::restore(user_id, snapshot), version))
}

/// The wallet stream as a plain decider: the whole stream folded, as the event store sees
/// it. The service decides on restored snapshots; this is what they must agree with.
pub struct WalletStream;

impl Decider for WalletStream {
    type Event = WalletEvent;
    type State = Option<Wallet>;
    type Command = (Uuid, Command);
    type Error = DomainError;

    fn decide(state: &Self::State, (user_id, command): Self::Command) -> Result<Vec<WalletEvent>, DomainError> {
        match state {
            Some(wallet) => domain::decide(wallet, command),
            None => domain::decide(&Wallet::new(user_id), command),
        }
    }

    fn evolve(state: Self::State, event: &WalletEvent) -> Self::State {
        Some(domain::evolve(state.unwrap_or_else(|| Wallet::new(event.user_id())), event))
    }
}

/// A store failure handed to every command of a failed transaction.
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct Failure(Arc<StoreError>);

impl Failure {
    /// A new attempt (the same idempotency key) may succeed.
    pub fn is_retryable(&self) -> bool {
        self.0.is_retryable()
    }

    fn lost() -> Self {
        Failure(Arc::new(StoreError::Database(sqlx::Error::WorkerCrashed)))
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Failure(Arc::new(e))
    }
}

pub type Reply = Result<Result<Outcome, DomainError>, Failure>;

/// Most commands of one wallet decided in one transaction.
const MAX_BATCH: usize = 64;
/// Attempts of a transaction that lost a race or a deadlock.
const ATTEMPTS: usize = 8;

/// Runs commands for the HTTP side, batching those of one wallet (see the module docs).
#[derive(Clone)]
pub struct Ledger {
    inner: Arc<Inner>,
}

struct Inner {
    pool: PgPool,
    store: EventStore,
    /// Wallets with a transaction running, and the commands waiting for the next one.
    waiting: Mutex<HashMap<Uuid, Vec<Queued>>>,
}

struct Queued {
    item: Item,
    reply: oneshot::Sender<Reply>,
}

impl Ledger {
    pub fn new(pool: PgPool, store: EventStore) -> Self {
        Ledger { inner: Arc::new(Inner { pool, store, waiting: Mutex::new(HashMap::new()) }) }
    }

    /// Runs one command on the wallet of `user_id` and answers it once it is committed.
    pub async fn submit(&self, user_id: Uuid, command: Command, meta: EventMeta) -> Reply {
        let (reply, answer) = oneshot::channel();
        let pending = Queued { item: Item::new(command, meta), reply };
        let first = {
            let mut waiting = self.inner.waiting.lock().expect("ledger queue lock");
            match waiting.get_mut(&user_id) {
                Some(queue) => {
                    queue.push(pending);
                    false
                }
                None => {
                    waiting.insert(user_id, vec![pending]);
                    true
                }
            }
        };
        // The batches run in a task of their own: a caller that goes away stops nobody else.
        if first {
            tokio::spawn(self.inner.clone().serve(user_id));
        }
        answer.await.unwrap_or_else(|_| Err(Failure::lost()))
    }
}

/// Forgets a wallet's queue if its server stops early (a panic, a runtime shutting down):
/// the waiting callers' replies drop, and they answer a failure instead of waiting forever.
struct ServeGuard<'a> {
    inner: &'a Inner,
    user_id: Uuid,
    done: bool,
}

impl Drop for ServeGuard<'_> {
    fn drop(&mut self) {
        if !self.done {
            if let Ok(mut waiting) = self.inner.waiting.lock() {
                waiting.remove(&self.user_id);
            }
        }
    }
}

impl Inner {
    async fn serve(self: Arc<Self>, user_id: Uuid) {
        let mut guard = ServeGuard { inner: &self, user_id, done: false };
        loop {
            let batch: Vec<Queued> = {
                let mut waiting = self.waiting.lock().expect("ledger queue lock");
                let queue = waiting.get_mut(&user_id).expect("a served wallet has a queue");
                if queue.is_empty() {
                    waiting.remove(&user_id);
                    guard.done = true;
                    return;
                }
                let n = queue.len().min(MAX_BATCH);
                queue.drain(..n).collect()
            };
            self.run_batch(user_id, batch).await;
        }
    }

    async fn run_batch(&self, user_id: Uuid, batch: Vec<Queued>) {
        let (items, replies): (Vec<Item>, Vec<oneshot::Sender<Reply>>) =
            batch.into_iter().map(|p| (p.item, p.reply)).unzip();
        metrics::histogram!("paysite_wallet_batch_size").record(items.len() as f64);
        match self.transact(user_id, &items).await {
            Ok(outcomes) => {
                for (reply, outcome) in replies.into_iter().zip(outcomes) {
                    let _ = reply.send(Ok(outcome));
                }
            }
            // One command may be what fails the batch: run each alone, so only it fails.
            Err(e) if items.len() > 1 && !e.is_retryable() => {
                tracing::warn!(%user_id, error = %e, size = items.len(), "wallet batch failed, running alone");
                for (item, reply) in items.into_iter().zip(replies) {
                    let answer = match self.transact(user_id, std::slice::from_ref(&item)).await {
                        Ok(mut outcomes) => Ok(outcomes.remove(0)),
                        Err(e) => Err(Failure::from(e)),
                    };
                    let _ = reply.send(answer);
                }
            }
            Err(e) => {
                tracing::warn!(%user_id, error = %e, "wallet transaction failed");
                let failure = Failure::from(e);
                for reply in replies {
                    let _ = reply.send(Err(failure.clone()));
                }
            }
        }
    }

    /// One transaction for `items`, run again when it lost a race.
    async fn transact(&self, user_id: Uuid, items: &[Item]) -> Result<Vec<Result<Outcome, DomainError>>, StoreError> {
        retrying(|| async move {
            let mut tx = self.pool.begin().await?;
            let outcomes = run_in(&mut tx, &self.store, user_id, items).await?;
            tx.commit().await?;
            wake_relay_if_written(&self.store, &outcomes);
            Ok(outcomes)
        })
        .await
    }
}

/// Tells the relay about committed events, if `outcomes` recorded any.
pub fn wake_relay_if_written(store: &EventStore, outcomes: &[Result<Outcome, DomainError>]) {
    if outcomes.iter().any(|o| o.as_ref().is_ok_and(|o| !o.events.is_empty())) {
        store.wake_relay();
    }
}

/// Runs `attempt` again while it fails with a retryable store error, a few times.
pub async fn retrying<T, F, Fut>(mut attempt: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, StoreError>>,
{
    let mut n = 0;
    loop {
        n += 1;
        match attempt().await {
            Err(e) if e.is_retryable() && n < ATTEMPTS => {
                tracing::debug!(attempt = n, error = %e, "wallet transaction lost a race, again");
                tokio::time::sleep(backoff(n)).await;
            }
            other => return other,
        }
    }
}

/// 2 ms doubling, with jitter, capped at 200 ms.
fn backoff(attempt: usize) -> Duration {
    let base = 2u64 << attempt.min(7);
    Duration::from_millis((base + rand::random_range(0..=base)).min(200))
}
