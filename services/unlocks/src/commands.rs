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
//! [`Book`] is the request side's entry, on the runtime's per-stream batcher
//! ([`runtime::batch`], as the wallet's ledger): one user's commands that arrive while a
//! transaction for that user runs are decided together in the next one, so a burst of one user
//! commits once per batch.

use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use proto_events::unlocks::{stream_id, UnlockEvent, UnlockTarget};
use proto_events::wallet::Asset;
use proto_events::{Envelope, EventMeta};
use runtime::batch::{Answers, Batch, Batcher};
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
    /// The same events, typed.
    pub decided: Vec<UnlockEvent>,
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
    Ok(Ok(Outcome { events: written, decided: events, state }))
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

pub use runtime::batch::Failure;

pub type Reply = runtime::batch::Reply<UnlockCommands>;

/// The unlocks' side of the [`Book`]'s batches: each command through [`run_in`], one after
/// another in the batch's transaction, each restoring what it needs under the user's lock
/// from what its predecessors wrote.
pub struct UnlockCommands {
    store: EventStore,
}

impl Batch for UnlockCommands {
    type Key = Uuid;
    type Command = (Command, EventMeta);
    type Outcome = Outcome;
    type Refusal = DomainError;

    const SIZE_METRIC: &'static str = "paysite_unlocks_batch_size";

    fn run_in<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        user_id: &'a Uuid,
        commands: &'a [(Command, EventMeta)],
    ) -> BoxFuture<'a, Result<Answers<Self>, StoreError>> {
        Box::pin(async move {
            let mut outcomes = Vec::with_capacity(commands.len());
            for (command, meta) in commands {
                outcomes.push(run_in(conn, &self.store, *user_id, command.clone(), meta).await?);
            }
            Ok(outcomes)
        })
    }

    fn wrote_events(outcome: &Outcome) -> bool {
        !outcome.events.is_empty()
    }
}

/// Runs commands for the request side, batching those of one user ([`runtime::batch`]):
/// commands that arrive while a transaction for the user runs wait, then go together in the
/// next one, each decided on what its predecessors wrote, as if alone. One user's burst (200
/// clicks on one pack, a thousand packs at once) then commits once per batch instead of once
/// per command.
#[derive(Clone)]
pub struct Book {
    batcher: Batcher<UnlockCommands>,
}

impl Book {
    pub fn new(store: EventStore) -> Self {
        Book { batcher: Batcher::new(store.clone(), UnlockCommands { store }) }
    }

    /// Runs one command for `user_id` and answers once it is committed.
    pub async fn submit(&self, user_id: Uuid, command: Command, meta: &EventMeta) -> Reply {
        self.batcher.submit(user_id, (command, meta.clone())).await
    }
}
