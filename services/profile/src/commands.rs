//! The write path: load a user's stream, decide, append, and in the same transaction write the
//! read models, the password hash and the session revocations the events call for.

use chrono::Utc;
use proto_events::profile::{stream_id, ProfileEvent};
use proto_events::{Envelope, EventMeta};
use runtime::retry::{retrying_any, Retryable};
use runtime::{EventStore, Projected, StoreError};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{Command, DomainError, Profile, User};
use crate::projections::apply_profile_event;

/// Why a command did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("{0}")]
    Domain(#[from] DomainError),
    /// The username belongs to someone else (unique index of the read model).
    #[error("{}", crate::validation::USERNAME_TAKEN_MESSAGE)]
    UsernameTaken,
    /// The e-mail belongs to someone else.
    #[error("{}", crate::validation::VIP_EMAIL_ALREADY_EXISTS_MESSAGE)]
    EmailTaken,
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> Self {
        if let StoreError::Database(db) = &e {
            match db.as_database_error().and_then(|d| d.constraint()) {
                Some("user_profile_username") => return CommandError::UsernameTaken,
                Some("user_profile_email") => return CommandError::EmailTaken,
                _ => {}
            }
        }
        CommandError::Store(e)
    }
}

impl From<sqlx::Error> for CommandError {
    fn from(e: sqlx::Error) -> Self {
        CommandError::from(StoreError::from(e))
    }
}

impl Retryable for CommandError {
    fn is_retryable(&self) -> bool {
        matches!(self, CommandError::Store(e) if e.is_retryable())
    }
}

/// What a command did: the user after it and the events written (none when nothing changed).
pub struct Done {
    pub user: User,
    pub events: Vec<Envelope>,
}

/// Decides and appends one command on one user's stream inside `tx`, with everything the
/// events imply: read models, the password hash (`password_hash`, written when the events
/// record a credentials change) and session revocations.
pub async fn execute_in(
    tx: &mut PgConnection,
    store: &EventStore,
    user_id: Uuid,
    meta: &EventMeta,
    command: Command,
    password_hash: Option<&str>,
) -> Result<Done, CommandError> {
    let executed =
        store.execute_in::<Profile, _>(tx, &stream_id(user_id), meta, command, effects(password_hash)).await??;
    Ok(Done { user: executed.state, events: executed.events })
}

/// What the events of a command write beside themselves: the read models and the security
/// tables, with the password hash a credentials change records.
fn effects(
    password_hash: Option<&str>,
) -> impl for<'t> FnMut(&'t mut PgConnection, &'t [Envelope], &'t [ProfileEvent]) -> Projected<'t> {
    let password_hash = password_hash.map(str::to_owned);
    move |conn, written, decided| {
        let password_hash = password_hash.clone();
        Box::pin(async move {
            for (envelope, event) in written.iter().zip(decided) {
                apply_profile_event(conn, envelope).await?;
                apply_security_effects(conn, event, password_hash.as_deref()).await?;
            }
            Ok(())
        })
    }
}

/// The security tables that follow the events (not read models: they hold secrets' hashes and
/// are never rebuilt).
async fn apply_security_effects(
    tx: &mut PgConnection,
    event: &ProfileEvent,
    password_hash: Option<&str>,
) -> Result<(), sqlx::Error> {
    match event {
        ProfileEvent::CredentialsChanged { user_id, changed_at, .. } => {
            let Some(hash) = password_hash else {
                return Err(sqlx::Error::Protocol("a credentials change without a password hash".into()));
            };
            sqlx::query(
                "insert into credential (user_id, password_hash, changed_at) values ($1, $2, $3)
                 on conflict (user_id) do update set password_hash = excluded.password_hash, changed_at = excluded.changed_at",
            )
            .bind(user_id)
            .bind(hash)
            .bind(changed_at)
            .execute(&mut *tx)
            .await?;
        }
        ProfileEvent::SessionsRevoked { user_id, reason, kept_session_id, revoked_at, .. } => {
            sqlx::query(
                "update session_family set revoked_at = $3, revoked_reason = $4
                 where user_id = $1 and revoked_at is null and session_id is distinct from $2",
            )
            .bind(user_id)
            .bind(kept_session_id)
            .bind(revoked_at)
            .bind(serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_owned)))
            .execute(&mut *tx)
            .await?;
        }
        ProfileEvent::SignedOut { session_id, reason, signed_out_at, .. } => {
            sqlx::query(
                "update session_family set revoked_at = $2, revoked_reason = $3 where session_id = $1 and revoked_at is null",
            )
            .bind(session_id)
            .bind(signed_out_at)
            .bind(serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_owned)))
            .execute(&mut *tx)
            .await?;
        }
        _ => {}
    }
    Ok(())
}

/// One command in a transaction of its own, retried when another writer got there first.
pub async fn execute(
    store: &EventStore,
    user_id: Uuid,
    meta: &EventMeta,
    command: Command,
    password_hash: Option<&str>,
) -> Result<Done, CommandError> {
    let executed =
        store.execute::<Profile, _>(&stream_id(user_id), meta, || command.clone(), effects(password_hash)).await??;
    Ok(Done { user: executed.state, events: executed.events })
}

/// A tandem parent creates a child account: the child's registration and the parent's record
/// of it commit together.
pub async fn create_tandem_child(
    store: &EventStore,
    parent: Uuid,
    child: Uuid,
    parent_active: bool,
    register: Command,
    password_hash: &str,
    meta: &EventMeta,
) -> Result<Done, CommandError> {
    let done = retrying_any(|| async {
        let mut tx = store.pool().begin().await?;
        let record = Command::RecordTandemChild { child_user_id: child, parent_active, at: Utc::now() };
        execute_in(&mut tx, store, parent, meta, record, None).await?;
        let done = execute_in(&mut tx, store, child, meta, register.clone(), Some(password_hash)).await?;
        tx.commit().await?;
        Ok::<_, CommandError>(done)
    })
    .await?;
    store.wake_relay();
    Ok(done)
}
