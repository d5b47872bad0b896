//! The write side: one command on one user's unlocks, decided and appended under that
//! user's lock.
//!
//! [`run_in`] takes a transaction-scoped advisory lock on the user's stream, so every writer
//! of a user (requests, the reconciler, the consumers, any process) waits its turn; restores
//! what the command needs from the read models (the downloads of one bucket's window, not
//! every download ever); decides; appends with the stream's version as a second guard; and
//! writes the read models in the same transaction. Quota checks and "already unlocked" are
//! therefore decided on committed state only: concurrent downloads never pass the quota.
//!
//! [`Book`] is the request side's entry: one user's commands that arrive while a transaction
//! for that user runs are decided together in the next one (as the wallet's ledger does), so a
//! burst of one user commits once per batch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use chrono::{DateTime, Utc};
use proto_events::unlocks::{stream_id, UnlockTarget};
use proto_events::wallet::Asset;
use proto_events::{Envelope, EventMeta};
use runtime::{EventStore, StoreError};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::{self, Command, DomainError, PendingUnlock, Unlocks};
use crate::projections::apply_unlock_events;
use crate::quota;

/// An accepted command: what it recorded (nothing for a retry or a joined request) and the
/// user's unlocks after it.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub events: Vec<Envelope>,
    pub state: Unlocks,
}

/// Runs `command` for `user_id` inside `conn`'s transaction. The outer error is a store
/// failure (roll back; retry when retryable), the inner one a refusal that recorded nothing.
#[tracing::instrument(name = "unlocks_command", skip_all, fields(%user_id))]
pub async fn run_in(
    conn: &mut PgConnection,
    store: &EventStore,
    user_id: Uuid,
    command: Command,
    meta: &EventMeta,
) -> Result<Result<Outcome, DomainError>, StoreError> {
    let stream = stream_id(user_id);
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))").bind(&stream).execute(&mut *conn).await?;
    let state = restore(conn, user_id, &command).await?;
    let version = store.version(conn, &stream).await?;
    let events = match domain::decide(&state, user_id, command) {
        Ok(events) => events,
        Err(refused) => return Ok(Err(refused)),
    };
    let state = events.iter().fold(state, domain::evolve);
    let written = store.append(conn, &stream, version, &events, meta).await?;
    apply_unlock_events(conn, &written).await?;
    Ok(Ok(Outcome { events: written, state }))
}

#[derive(sqlx::FromRow)]
struct PendingRow {
    unlock_id: Uuid,
    target_kind: String,
    target_id: Uuid,
    channel_id: Option<Uuid>,
    new_id: Option<String>,
    asset: String,
    amount: i32,
    requested_at: DateTime<Utc>,
}

impl PendingRow {
    fn into_pending(self) -> Result<(Uuid, PendingUnlock), StoreError> {
        let corrupt = |what: &str| StoreError::Corrupt {
            event_id: Uuid::nil(),
            reason: format!("pending unlock {}: {what}", self.unlock_id),
        };
        let target = match (self.target_kind.as_str(), self.channel_id, &self.new_id) {
            ("channel_pack", Some(channel_id), _) => {
                UnlockTarget::ChannelPack { channel_pack_id: self.target_id, channel_id }
            }
            ("video", _, Some(new_id)) => UnlockTarget::Video { video_id: self.target_id, new_id: new_id.clone() },
            _ => return Err(corrupt("target")),
        };
        let asset = match self.asset.as_str() {
            "gems" => Asset::Gems,
            "credits" => Asset::Credits,
            _ => return Err(corrupt("asset")),
        };
        Ok((
            self.unlock_id,
            PendingUnlock { target, asset, amount: self.amount as u32, requested_at: self.requested_at },
        ))
    }
}

/// The user's unlocks as far as `command` needs them.
async fn restore(conn: &mut PgConnection, user_id: Uuid, command: &Command) -> Result<Unlocks, StoreError> {
    let mut state = Unlocks::default();
    let row: Option<(Option<DateTime<Utc>>, i32)> =
        sqlx::query_as("select last_channel_pack_unlock_at, free_trial_videos_used from unlocker where user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some((last, used)) = row {
        state.last_channel_pack_unlock_at = last;
        state.free_trial_videos_used = used as u32;
    }
    if let Command::GrantDownload { bucket, rule, now, .. } = command {
        let key = quota::bucket_key(bucket);
        let granted: Vec<DateTime<Utc>> = sqlx::query_scalar(
            "select granted_at from download where user_id = $1 and bucket = $2 and granted_at > $3",
        )
        .bind(user_id)
        .bind(&key)
        .bind(quota::window_start(*rule, *now))
        .fetch_all(&mut *conn)
        .await?;
        state.downloads.insert(key, granted);
        return Ok(state);
    }
    // Only the rows this command's decision reads: a hot user's history stays out of it.
    // Each filter binds $2 and $3.
    let nil = Uuid::nil();
    let target_id = |t: &UnlockTarget| match t {
        UnlockTarget::ChannelPack { channel_pack_id, .. } => *channel_pack_id,
        UnlockTarget::Video { video_id, .. } => *video_id,
    };
    type Filter = Option<(&'static str, Uuid, Uuid)>;
    let (pack_filter, video_filter, pending_filter): (Filter, Filter, Filter) = match command {
        Command::RequestPackUnlock { channel_pack_id, .. } => (
            Some(("channel_pack_id = $2 or $3 is null", *channel_pack_id, nil)),
            None,
            Some(("target_kind = 'channel_pack' and target_id = $2 or $3 is null", *channel_pack_id, nil)),
        ),
        Command::RequestVideoUnlock { video_id, .. } => (
            None,
            Some(("video_id = $2 or $3 is null", *video_id, nil)),
            Some(("target_kind = 'video' and target_id = $2 or $3 is null", *video_id, nil)),
        ),
        Command::TakeFreeTrialVideo { video_id, .. } => (
            None,
            Some(("video_id = $2 or $3 is null", *video_id, nil)),
            Some(("target_kind = 'video' and target_id = $2 or $3 is null", *video_id, nil)),
        ),
        Command::CompleteUnlock { unlock_id, paid, .. } => {
            let target = target_id(&paid.target);
            (
                Some(("unlock_id = $2 or channel_pack_id = $3", *unlock_id, target)),
                Some(("unlock_id = $2 or video_id = $3", *unlock_id, target)),
                Some(("unlock_id = $2 or target_id = $3", *unlock_id, target)),
            )
        }
        Command::RefuseUnlock { unlock_id, .. } => (
            Some(("unlock_id = $2 or $3 is null", *unlock_id, nil)),
            Some(("unlock_id = $2 or $3 is null", *unlock_id, nil)),
            Some(("unlock_id = $2 or $3 is null", *unlock_id, nil)),
        ),
        Command::ForfeitPacks { .. } => (
            Some(("$2 is not null or $3 is null", nil, nil)),
            None,
            Some(("target_kind = 'channel_pack' or $2 is null or $3 is null", nil, nil)),
        ),
        Command::GrantDownload { .. } => (None, None, None),
    };
    if let Command::CompleteUnlock { unlock_id, .. } = command {
        // An orphaned debit is done too: a late repeat records nothing more.
        let orphaned: Option<Uuid> = sqlx::query_scalar("select unlock_id from orphaned_debit where unlock_id = $1")
            .bind(unlock_id)
            .fetch_optional(&mut *conn)
            .await?;
        state.completed.extend(orphaned);
    }
    if let Some((filter, a, b)) = pack_filter {
        let packs: Vec<(Uuid, Uuid, bool)> = sqlx::query_as(&format!(
            "select channel_pack_id, unlock_id, forfeited_at is null from channel_pack_unlock
             where user_id = $1 and ({filter})"
        ))
        .bind(user_id)
        .bind(a)
        .bind(b)
        .fetch_all(&mut *conn)
        .await?;
        for (pack, unlock_id, held) in packs {
            state.completed.insert(unlock_id);
            if held {
                state.packs.insert(pack, unlock_id);
            }
        }
    }
    if let Some((filter, a, b)) = video_filter {
        let videos: Vec<(Uuid, Uuid, bool)> = sqlx::query_as(&format!(
            "select video_id, unlock_id, paid_with = 'free_limited_trial' from video_unlock
             where user_id = $1 and ({filter})"
        ))
        .bind(user_id)
        .bind(a)
        .bind(b)
        .fetch_all(&mut *conn)
        .await?;
        state.completed.extend(videos.iter().map(|(_, u, _)| *u));
        state.videos = videos.into_iter().map(|(v, u, free)| (v, (u, free))).collect();
    }
    if let Some((filter, a, b)) = pending_filter {
        let pending: Vec<PendingRow> = sqlx::query_as(&format!(
            "select unlock_id, target_kind, target_id, channel_id, new_id, asset, amount, requested_at
             from pending_unlock where user_id = $1 and ({filter})"
        ))
        .bind(user_id)
        .bind(a)
        .bind(b)
        .fetch_all(&mut *conn)
        .await?;
        for row in pending {
            let (id, p) = row.into_pending()?;
            state.pending.insert(id, p);
        }
    }
    Ok(state)
}

/// Where an unlock stands, read under its user's lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    Pending(PendingUnlock),
    /// Recorded as unlocked, with what its debit paid for: sending the debit again only
    /// answers its receipt.
    Completed(PendingUnlock),
    /// Refused, orphaned or unknown: never debit it (again).
    GivenUp,
}

/// Where the unlock `unlock_id` of `user_id` stands, read under the user's lock (after
/// every write of the user in flight has committed): the check before each debit.
pub async fn unlock_standing(pool: &PgPool, user_id: Uuid, unlock_id: Uuid) -> Result<Standing, StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind(stream_id(user_id))
        .execute(&mut *tx)
        .await?;
    let row: Option<PendingRow> = sqlx::query_as(
        "select unlock_id, target_kind, target_id, channel_id, new_id, asset, amount, requested_at
         from pending_unlock where user_id = $1 and unlock_id = $2",
    )
    .bind(user_id)
    .bind(unlock_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(row) = row {
        tx.commit().await?;
        return Ok(Standing::Pending(row.into_pending()?.1));
    }
    let pack: Option<(Uuid, Uuid, i32, DateTime<Utc>)> = sqlx::query_as(
        "select channel_pack_id, channel_id, gems_spent, unlocked_at from channel_pack_unlock
         where user_id = $1 and unlock_id = $2",
    )
    .bind(user_id)
    .bind(unlock_id)
    .fetch_optional(&mut *tx)
    .await?;
    let video: Option<(Uuid, String, DateTime<Utc>)> = sqlx::query_as(
        "select video_id, new_id, unlocked_at from video_unlock
         where user_id = $1 and unlock_id = $2 and paid_with = 'credits'",
    )
    .bind(user_id)
    .bind(unlock_id)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(match (pack, video) {
        (Some((channel_pack_id, channel_id, gems, at)), _) => Standing::Completed(PendingUnlock {
            target: UnlockTarget::ChannelPack { channel_pack_id, channel_id },
            asset: Asset::Gems,
            amount: gems as u32,
            requested_at: at,
        }),
        // A credits unlock's price is not kept on the row: the configured one was debited.
        (None, Some((video_id, new_id, at))) => Standing::Completed(PendingUnlock {
            target: UnlockTarget::Video { video_id, new_id },
            asset: Asset::Credits,
            amount: 0,
            requested_at: at,
        }),
        (None, None) => Standing::GivenUp,
    })
}

/// A store failure handed to every command of a failed transaction.
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct Failure(pub Arc<StoreError>);

impl Failure {
    pub fn is_retryable(&self) -> bool {
        self.0.is_retryable()
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Failure(Arc::new(e))
    }
}

pub type Reply = Result<Result<Outcome, DomainError>, Failure>;

/// Most commands of one user decided in one transaction.
const MAX_BATCH: usize = 64;

struct Queued {
    command: Command,
    meta: EventMeta,
    reply: oneshot::Sender<Reply>,
}

/// Runs commands for the request side, batching those of one user: commands that arrive
/// while a transaction for the user runs wait, then go together in the next one, each
/// decided on what its predecessors wrote, as if alone. One user's burst (200 clicks on one
/// pack, a thousand packs at once) then commits once per batch instead of once per command.
#[derive(Clone)]
pub struct Book {
    inner: Arc<BookInner>,
}

struct BookInner {
    pool: PgPool,
    store: EventStore,
    waiting: Mutex<HashMap<Uuid, Vec<Queued>>>,
}

/// Forgets a user's queue if its server stops early, so waiting callers answer a failure.
struct ServeGuard<'a> {
    inner: &'a BookInner,
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

impl Book {
    pub fn new(pool: PgPool, store: EventStore) -> Self {
        Book { inner: Arc::new(BookInner { pool, store, waiting: Mutex::new(HashMap::new()) }) }
    }

    /// Runs one command for `user_id` and answers once it is committed.
    pub async fn submit(&self, user_id: Uuid, command: Command, meta: &EventMeta) -> Reply {
        let (reply, answer) = oneshot::channel();
        let queued = Queued { command, meta: meta.clone(), reply };
        let first = {
            let mut waiting = self.inner.waiting.lock().expect("book queue lock");
            match waiting.get_mut(&user_id) {
                Some(queue) => {
                    queue.push(queued);
                    false
                }
                None => {
                    waiting.insert(user_id, vec![queued]);
                    true
                }
            }
        };
        if first {
            tokio::spawn(self.inner.clone().serve(user_id));
        }
        answer.await.unwrap_or_else(|_| Err(Failure::from(StoreError::Database(sqlx::Error::WorkerCrashed))))
    }
}

impl BookInner {
    async fn serve(self: Arc<Self>, user_id: Uuid) {
        let mut guard = ServeGuard { inner: &self, user_id, done: false };
        loop {
            let batch: Vec<Queued> = {
                let mut waiting = self.waiting.lock().expect("book queue lock");
                let queue = waiting.get_mut(&user_id).expect("a served user has a queue");
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
        let (items, replies): (Vec<(Command, EventMeta)>, Vec<oneshot::Sender<Reply>>) =
            batch.into_iter().map(|q| ((q.command, q.meta), q.reply)).unzip();
        match self.transact(user_id, &items).await {
            Ok(outcomes) => {
                for (reply, outcome) in replies.into_iter().zip(outcomes) {
                    let _ = reply.send(Ok(outcome));
                }
            }
            // One command may be what fails the batch: run each alone, so only it fails.
            Err(e) if items.len() > 1 && !e.is_retryable() => {
                tracing::warn!(%user_id, error = %e, size = items.len(), "unlocks batch failed, running alone");
                for (item, reply) in items.into_iter().zip(replies) {
                    let answer = match self.transact(user_id, std::slice::from_ref(&item)).await {
                        Ok(mut outcomes) => Ok(outcomes.remove(0)),
                        Err(e) => Err(Failure::from(e)),
                    };
                    let _ = reply.send(answer);
                }
            }
            Err(e) => {
                let failure = Failure::from(e);
                for reply in replies {
                    let _ = reply.send(Err(failure.clone()));
                }
            }
        }
    }

    /// One transaction for the commands, again when it lost a race.
    async fn transact(
        &self,
        user_id: Uuid,
        items: &[(Command, EventMeta)],
    ) -> Result<Vec<Result<Outcome, DomainError>>, StoreError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = async {
                let mut tx = self.pool.begin().await?;
                let mut outcomes = Vec::with_capacity(items.len());
                for (command, meta) in items {
                    outcomes.push(run_in(&mut tx, &self.store, user_id, command.clone(), meta).await?);
                }
                tx.commit().await?;
                Ok::<_, StoreError>(outcomes)
            }
            .await;
            match result {
                Err(e) if e.is_retryable() && attempt < 8 => {
                    tokio::time::sleep(Duration::from_millis(2u64 << attempt.min(7))).await;
                }
                Ok(outcomes) => {
                    if outcomes.iter().any(|o| o.as_ref().is_ok_and(|o| !o.events.is_empty())) {
                        self.store.wake_relay();
                    }
                    return Ok(outcomes);
                }
                Err(e) => return Err(e),
            }
        }
    }
}
