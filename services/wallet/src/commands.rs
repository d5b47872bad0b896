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
//! [`Ledger`] is the HTTP side's entry, on the runtime's per-stream batcher
//! ([`runtime::batch`]): commands for one wallet that arrive while a transaction for it is
//! running wait and then go together in the next one, decided one after another as if alone.
//! A hot wallet then commits once per batch instead of once per debit, which is what keeps
//! its latency flat under concurrency.

use std::collections::HashSet;

use futures::future::BoxFuture;

use proto_events::wallet::{stream_id, Asset, WalletEvent};
use proto_events::{Envelope, EventMeta};
use runtime::batch::{Answers, Batch, Batcher};
use runtime::{Decider, EventStore, StoreError};
use sqlx::PgConnection;
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

pub use runtime::batch::Failure;
pub use runtime::retry::retrying;

pub type Reply = runtime::batch::Reply<WalletCommands>;

/// The wallet's side of the [`Ledger`]'s batches: [`run_in`] restores the wallet's snapshot
/// under its row lock, decides each command, appends and writes the snapshot back.
pub struct WalletCommands {
    store: EventStore,
}

impl Batch for WalletCommands {
    type Key = Uuid;
    type Command = Item;
    type Outcome = Outcome;
    type Refusal = DomainError;

    const SIZE_METRIC: &'static str = "paysite_wallet_batch_size";

    fn run_in<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        user_id: &'a Uuid,
        items: &'a [Item],
    ) -> BoxFuture<'a, Result<Answers<Self>, StoreError>> {
        Box::pin(run_in(conn, &self.store, *user_id, items))
    }

    fn wrote_events(outcome: &Outcome) -> bool {
        !outcome.events.is_empty()
    }
}

/// Runs commands for the HTTP side, batching those of one wallet (see the module docs).
#[derive(Clone)]
pub struct Ledger {
    batcher: Batcher<WalletCommands>,
}

impl Ledger {
    pub fn new(store: EventStore) -> Self {
        Ledger { batcher: Batcher::new(store.clone(), WalletCommands { store }) }
    }

    /// Runs one command on the wallet of `user_id` and answers it once it is committed.
    pub async fn submit(&self, user_id: Uuid, command: Command, meta: EventMeta) -> Reply {
        self.batcher.submit(user_id, Item::new(command, meta)).await
    }

    /// One transaction for `items` of one wallet, unbatched, run again when it lost a race.
    pub async fn transact(&self, user_id: Uuid, items: &[Item]) -> Result<Answers<WalletCommands>, StoreError> {
        self.batcher.transact(&user_id, items).await
    }
}
