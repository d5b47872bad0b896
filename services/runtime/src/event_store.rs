//! The event store: append with an expected stream version, load a stream, read all.
//!
//! An append happens inside the caller's transaction, together with the caller's read
//! model writes and the outbox rows, so a service reads its own writes and never
//! publishes what it did not commit.

use chrono::{DateTime, SubsecRound, Utc};
use futures::future::BoxFuture;
use futures::{Stream, TryStreamExt};
use proto_events::{encode, Actor, Envelope, EventFamily, EventMeta};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// A store or broker failure: not an answer to give a user, but something to retry or report.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another writer appended to the stream first. Reload, decide again, retry.
    #[error("stream {stream_id} moved on: expected version {expected}, found {actual}")]
    Conflict { stream_id: String, expected: i64, actual: i64 },
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("stored event {event_id} is unreadable: {reason}")]
    Corrupt { event_id: Uuid, reason: String },
}

impl StoreError {
    /// Worth trying again with fresh state.
    pub fn is_retryable(&self) -> bool {
        match self {
            StoreError::Conflict { .. } => true,
            // serialization_failure, deadlock_detected
            StoreError::Database(e) => {
                e.as_database_error().and_then(|d| d.code()).is_some_and(|c| c == "40001" || c == "40P01")
            }
            StoreError::Corrupt { .. } => false,
        }
    }
}

/// A service's event store, in the schema its pool's search_path names.
#[derive(Clone, Debug)]
pub struct EventStore {
    pool: PgPool,
    schema: String,
}

macro_rules! envelope_columns {
    () => {
        "global_position, event_id, stream_id, stream_version, event_type, schema_version, \
         occurred_at, tenant, correlation_id, causation_id, actor, payload"
    };
}
const ENVELOPE_COLUMNS: &str = envelope_columns!();

#[derive(sqlx::FromRow)]
struct EventRow {
    global_position: i64,
    event_id: Uuid,
    stream_id: String,
    stream_version: i64,
    event_type: String,
    schema_version: i32,
    occurred_at: DateTime<Utc>,
    tenant: Option<String>,
    correlation_id: Uuid,
    causation_id: Option<Uuid>,
    actor: String,
    payload: serde_json::Value,
}

impl EventRow {
    fn into_envelope(self) -> Result<(i64, Envelope), StoreError> {
        let actor: Actor =
            self.actor.parse().map_err(|reason| StoreError::Corrupt { event_id: self.event_id, reason })?;
        Ok((
            self.global_position,
            Envelope {
                event_id: self.event_id,
                stream_id: self.stream_id,
                stream_version: self.stream_version,
                event_type: self.event_type,
                schema_version: self.schema_version as u32,
                occurred_at: self.occurred_at,
                tenant: self.tenant,
                correlation_id: self.correlation_id,
                causation_id: self.causation_id,
                actor,
                payload: self.payload,
            },
        ))
    }
}

impl EventStore {
    pub fn new(pool: PgPool, schema: impl Into<String>) -> Self {
        EventStore { pool, schema: schema.into() }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// The version of a stream: 0 when it has no events.
    pub async fn version(&self, conn: &mut PgConnection, stream_id: &str) -> Result<i64, StoreError> {
        let v: Option<i64> = sqlx::query_scalar("select max(stream_version) from event where stream_id = $1")
            .bind(stream_id)
            .fetch_one(conn)
            .await?;
        Ok(v.unwrap_or(0))
    }

    /// Every event of a stream, oldest first.
    pub async fn load(&self, stream_id: &str) -> Result<Vec<Envelope>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        self.load_in(&mut conn, stream_id).await
    }

    /// [`Self::load`] on a given connection or transaction.
    pub async fn load_in(&self, conn: &mut PgConnection, stream_id: &str) -> Result<Vec<Envelope>, StoreError> {
        let rows: Vec<EventRow> = sqlx::query_as(&format!(
            "select {ENVELOPE_COLUMNS} from event where stream_id = $1 order by stream_version"
        ))
        .bind(stream_id)
        .fetch_all(conn)
        .await?;
        rows.into_iter().map(|r| r.into_envelope().map(|(_, e)| e)).collect()
    }

    /// Every event of the store in the order it was written, with its global position.
    pub fn read_all(&self) -> impl Stream<Item = Result<(i64, Envelope), StoreError>> + '_ {
        const READ_ALL: &str = concat!("select ", envelope_columns!(), " from event order by global_position");
        sqlx::query_as::<_, EventRow>(READ_ALL)
            .fetch(&self.pool)
            .map_err(StoreError::from)
            .and_then(|row| async move { row.into_envelope() })
    }

    /// Appends events of family `E` to `stream_id`, which must be at `expected_version`.
    ///
    /// Runs in the caller's transaction (pass `&mut tx`; a consumer handler passes the
    /// connection it was given, already inside the consumer's transaction): the events,
    /// their outbox rows and whatever the caller writes there commit together or not at
    /// all. A writer that lost the race gets [`StoreError::Conflict`]. After committing,
    /// call [`Self::wake_relay`] so the relay publishes at once.
    pub async fn append<E: EventFamily>(
        &self,
        tx: &mut PgConnection,
        stream_id: &str,
        expected_version: i64,
        events: &[E],
        meta: &EventMeta,
    ) -> Result<Vec<Envelope>, StoreError> {
        let trace_context = crate::telemetry::current_traceparent();
        let pending: Vec<Pending<'_, E>> =
            events.iter().map(|event| Pending { event, meta, trace_context: trace_context.clone() }).collect();
        self.append_each(tx, stream_id, expected_version, &pending).await
    }

    /// [`Self::append`] for events that each answer a different request (a batch of
    /// commands decided in one transaction), each with its own metadata and trace.
    pub async fn append_each<E: EventFamily>(
        &self,
        tx: &mut PgConnection,
        stream_id: &str,
        expected_version: i64,
        events: &[Pending<'_, E>],
    ) -> Result<Vec<Envelope>, StoreError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        // Postgres keeps microseconds: what append returns must equal what load reads.
        let now = Utc::now().trunc_subsecs(6);
        let envelopes = envelopes_of(stream_id, expected_version, events, now);
        let traces: Vec<Option<String>> = events.iter().map(|p| p.trace_context.clone()).collect();
        let actual = self.insert(tx, stream_id, expected_version, &envelopes, &traces).await.map_err(|e| match e {
            StoreError::Database(db) if is_version_clash(&db) => StoreError::Conflict {
                stream_id: stream_id.to_owned(),
                expected: expected_version,
                actual: expected_version + 1,
            },
            other => other,
        })?;
        if actual != expected_version {
            return Err(StoreError::Conflict { stream_id: stream_id.to_owned(), expected: expected_version, actual });
        }
        metrics::counter!("paysite_events_appended_total", "service" => self.schema.clone())
            .increment(envelopes.len() as u64);
        Ok(envelopes)
    }

    /// Writes the events and their outbox rows in one statement, only if the stream is
    /// at `expected_version`. Returns the version the stream was at.
    async fn insert(
        &self,
        tx: &mut PgConnection,
        stream_id: &str,
        expected_version: i64,
        envelopes: &[Envelope],
        traces: &[Option<String>],
    ) -> Result<i64, StoreError> {
        let n = envelopes.len();
        let (mut ids, mut versions, mut types, mut schema_versions) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut tenants, mut correlations, mut causations, mut actors) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut payloads = Vec::with_capacity(n);
        for e in envelopes {
            ids.push(e.event_id);
            versions.push(e.stream_version);
            types.push(e.event_type.clone());
            schema_versions.push(e.schema_version as i32);
            tenants.push(e.tenant.clone());
            correlations.push(e.correlation_id);
            causations.push(e.causation_id);
            actors.push(e.actor.to_string());
            payloads.push(e.payload.clone());
        }
        // The version check, the events and the outbox rows in one round trip. A writer
        // that raced past the check fails on the (stream_id, stream_version) key instead.
        let actual: i64 = sqlx::query_scalar(
            "with current as (
                 select coalesce(max(stream_version), 0) as version from event where stream_id = $1
             ), inserted as (
                 insert into event (event_id, stream_id, stream_version, event_type, schema_version, occurred_at,
                                    tenant, correlation_id, causation_id, actor, payload, trace_context)
                 select e.id, $1, e.version, e.type, e.schema_version, $7, e.tenant, e.correlation_id,
                        e.causation_id, e.actor, e.payload, e.trace_context
                 from unnest($3::uuid[], $4::bigint[], $5::text[], $6::int[], $8::text[], $9::uuid[], $10::uuid[],
                             $11::text[], $12::jsonb[], $13::text[])
                      as e(id, version, type, schema_version, tenant, correlation_id, causation_id, actor,
                           payload, trace_context)
                 where (select version from current) = $2
                 returning event_id
             ), queued as (
                 insert into outbox (event_id) select event_id from inserted
             )
             select version from current",
        )
        .bind(stream_id)
        .bind(expected_version)
        .bind(&ids)
        .bind(&versions)
        .bind(&types)
        .bind(&schema_versions)
        .bind(envelopes[0].occurred_at)
        .bind(&tenants)
        .bind(&correlations)
        .bind(&causations)
        .bind(&actors)
        .bind(&payloads)
        .bind(traces)
        .fetch_one(&mut *tx)
        .await?;
        Ok(actual)
    }

    /// Tells the relay new events are committed. Call after committing a transaction that
    /// appended (`execute` does); without it the relay still finds them at its next poll.
    pub fn wake_relay(&self) {
        crate::relay::wake(&self.pool, &self.schema);
    }
}

/// The envelopes of `events`, appended to `stream_id` at `expected_version`.
fn envelopes_of<E: EventFamily>(
    stream_id: &str,
    expected_version: i64,
    events: &[Pending<'_, E>],
    now: DateTime<Utc>,
) -> Vec<Envelope> {
    events
        .iter()
        .enumerate()
        .map(|(i, pending)| {
            let encoded = encode(pending.event);
            Envelope {
                event_id: Uuid::now_v7(),
                stream_id: stream_id.to_owned(),
                stream_version: expected_version + 1 + i as i64,
                event_type: encoded.event_type,
                schema_version: encoded.schema_version,
                occurred_at: now,
                tenant: pending.meta.tenant.clone(),
                correlation_id: pending.meta.correlation_id,
                causation_id: pending.meta.causation_id,
                actor: pending.meta.actor.clone(),
                payload: encoded.payload,
            }
        })
        .collect()
}

/// Events for one stream of [`EventStore::append_streams`], which must be at `expected_version`.
pub struct StreamAppend<'a, E> {
    pub stream_id: String,
    pub expected_version: i64,
    pub events: Vec<Pending<'a, E>>,
}

impl EventStore {
    /// [`Self::append_each`] for several streams at once (a batch of commands on different
    /// streams decided in one transaction): every stream's version is checked, and the events
    /// and their outbox rows written, in one statement. Should any stream have moved, nothing is
    /// written and the first such stream's [`StoreError::Conflict`] is returned. Each stream
    /// appears once. Returns each stream's envelopes, in the order given.
    pub async fn append_streams<E: EventFamily>(
        &self,
        tx: &mut PgConnection,
        appends: &[StreamAppend<'_, E>],
    ) -> Result<Vec<Vec<Envelope>>, StoreError> {
        let now = Utc::now().trunc_subsecs(6);
        let written: Vec<Vec<Envelope>> =
            appends.iter().map(|a| envelopes_of(&a.stream_id, a.expected_version, &a.events, now)).collect();
        let total: usize = written.iter().map(Vec::len).sum();
        if total == 0 {
            return Ok(written);
        }
        let (stream_ids, expected): (Vec<&str>, Vec<i64>) =
            appends.iter().filter(|a| !a.events.is_empty()).map(|a| (a.stream_id.as_str(), a.expected_version)).unzip();
        let (mut ids, mut streams, mut versions, mut types) = (
            Vec::with_capacity(total),
            Vec::with_capacity(total),
            Vec::with_capacity(total),
            Vec::with_capacity(total),
        );
        let (mut schema_versions, mut tenants, mut correlations, mut causations) = (
            Vec::with_capacity(total),
            Vec::with_capacity(total),
            Vec::with_capacity(total),
            Vec::with_capacity(total),
        );
        let (mut actors, mut payloads, mut traces) =
            (Vec::with_capacity(total), Vec::with_capacity(total), Vec::with_capacity(total));
        for (append, envelopes) in appends.iter().zip(&written) {
            for (e, pending) in envelopes.iter().zip(&append.events) {
                ids.push(e.event_id);
                streams.push(e.stream_id.as_str());
                versions.push(e.stream_version);
                types.push(e.event_type.as_str());
                schema_versions.push(e.schema_version as i32);
                tenants.push(e.tenant.as_deref());
                correlations.push(e.correlation_id);
                causations.push(e.causation_id);
                actors.push(e.actor.to_string());
                payloads.push(&e.payload);
                traces.push(pending.trace_context.as_deref());
            }
        }
        // As in `insert`: the checks, the events and the outbox rows in one round trip; a writer
        // that raced past a check fails on the (stream_id, stream_version) key instead.
        let moved: Option<(String, i64, i64)> = sqlx::query_as(
            "with current as (
                 select s.stream_id, s.expected,
                        coalesce((select max(e.stream_version) from event e where e.stream_id = s.stream_id), 0)
                            as version
                 from unnest($1::text[], $2::bigint[]) as s(stream_id, expected)
             ), inserted as (
                 insert into event (event_id, stream_id, stream_version, event_type, schema_version, occurred_at,
                                    tenant, correlation_id, causation_id, actor, payload, trace_context)
                 select e.id, e.stream_id, e.version, e.type, e.schema_version, $3, e.tenant, e.correlation_id,
                        e.causation_id, e.actor, e.payload, e.trace_context
                 from unnest($4::uuid[], $5::text[], $6::bigint[], $7::text[], $8::int[], $9::text[], $10::uuid[],
                             $11::uuid[], $12::text[], $13::jsonb[], $14::text[])
                      as e(id, stream_id, version, type, schema_version, tenant, correlation_id, causation_id, actor,
                           payload, trace_context)
                 where not exists (select 1 from current where version <> expected)
                 returning event_id
             ), queued as (
                 insert into outbox (event_id) select event_id from inserted
             )
             select stream_id, expected, version from current where version <> expected limit 1",
        )
        .bind(&stream_ids)
        .bind(&expected)
        .bind(now)
        .bind(&ids)
        .bind(&streams)
        .bind(&versions)
        .bind(&types)
        .bind(&schema_versions)
        .bind(&tenants)
        .bind(&correlations)
        .bind(&causations)
        .bind(&actors)
        .bind(&payloads)
        .bind(&traces)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| match e {
            // Which stream lost is not told by the key: the first is named.
            db if is_version_clash(&db) => StoreError::Conflict {
                stream_id: stream_ids[0].to_owned(),
                expected: expected[0],
                actual: expected[0] + 1,
            },
            other => StoreError::Database(other),
        })?;
        if let Some((stream_id, expected, actual)) = moved {
            return Err(StoreError::Conflict { stream_id, expected, actual });
        }
        metrics::counter!("paysite_events_appended_total", "service" => self.schema.clone()).increment(total as u64);
        Ok(written)
    }
}

/// One event to append with the metadata and `traceparent` of the request it answers.
pub struct Pending<'a, E> {
    pub event: &'a E,
    pub meta: &'a EventMeta,
    pub trace_context: Option<String>,
}

fn is_version_clash(e: &sqlx::Error) -> bool {
    e.as_database_error().and_then(|d| d.constraint()).is_some_and(|c| c == "event_stream_version_key")
}

/// An aggregate written as a decider: pure rules, no I/O.
pub trait Decider {
    type Event: EventFamily + Send + Sync;
    type State: Default + Send;
    type Command;
    type Error;

    fn decide(state: &Self::State, command: Self::Command) -> Result<Vec<Self::Event>, Self::Error>;
    fn evolve(state: Self::State, event: &Self::Event) -> Self::State;
}

/// What a command's project hook returns: its writes in the events' transaction.
pub type Projected<'t> = BoxFuture<'t, Result<(), StoreError>>;

/// What [`EventStore::execute`] did: the events it wrote (none when the command changed
/// nothing), as stored and as decided, and the state after them.
pub struct Executed<D: Decider> {
    pub events: Vec<Envelope>,
    pub decided: Vec<D::Event>,
    pub state: D::State,
    pub version: i64,
}

impl<D: Decider> Executed<D> {
    /// Whether the command recorded anything.
    pub fn wrote(&self) -> bool {
        !self.events.is_empty()
    }
}

/// Decodes a stored event of family `E`; an event that does not decode is corrupt (the one
/// answer of every replay, fold and projection to an undecodable event).
pub fn decode<E: EventFamily>(envelope: &Envelope) -> Result<E, StoreError> {
    proto_events::decode(envelope)
        .map_err(|e| StoreError::Corrupt { event_id: envelope.event_id, reason: e.to_string() })
}

impl EventStore {
    /// Folds a stream into the decider's state, at the stream's version.
    pub async fn state_of<D: Decider>(
        &self,
        conn: &mut PgConnection,
        stream_id: &str,
    ) -> Result<(D::State, i64), StoreError> {
        let mut state = D::State::default();
        let mut version = 0;
        for envelope in self.load_in(conn, stream_id).await? {
            let event: D::Event = decode(&envelope)?;
            state = D::evolve(state, &event);
            version = envelope.stream_version;
        }
        Ok((state, version))
    }

    /// Load, decide, append and project one command inside the caller's transaction (which
    /// may hold other work that must commit with it): the command path of every service.
    ///
    /// `project` writes the service's own read models (and whatever else the events call for)
    /// in the same transaction, given the envelopes written and the events as decided. A
    /// domain error is an answer (`Ok(Err(..))`) that wrote nothing; a store error means the
    /// transaction must be rolled back (and, when retryable, run again: see [`Self::execute`]).
    /// The caller commits, then calls [`Self::wake_relay`] if anything was written.
    pub async fn execute_in<D, P>(
        &self,
        conn: &mut PgConnection,
        stream_id: &str,
        meta: &EventMeta,
        command: D::Command,
        mut project: P,
    ) -> Result<Result<Executed<D>, D::Error>, StoreError>
    where
        D: Decider,
        P: for<'t> FnMut(&'t mut PgConnection, &'t [Envelope], &'t [D::Event]) -> Projected<'t>,
    {
        let (state, version) = self.state_of::<D>(conn, stream_id).await?;
        let decided = match D::decide(&state, command) {
            Ok(events) => events,
            Err(domain) => return Ok(Err(domain)),
        };
        if decided.is_empty() {
            return Ok(Ok(Executed { events: Vec::new(), decided, state, version }));
        }
        let state = decided.iter().fold(state, D::evolve);
        let written = self.append(conn, stream_id, version, &decided, meta).await?;
        project(conn, &written, &decided).await?;
        let version = version + written.len() as i64;
        Ok(Ok(Executed { events: written, decided, state, version }))
    }

    /// [`Self::execute_in`] in a transaction of its own, run again (with
    /// [`crate::retry`]'s policy) when another writer got there first.
    ///
    /// `command` builds the command afresh for each attempt (a lost race means deciding
    /// again on newer state). A conflict that outlasts the attempts is surfaced as retryable.
    pub async fn execute<D, P>(
        &self,
        stream_id: &str,
        meta: &EventMeta,
        mut command: impl FnMut() -> D::Command,
        mut project: P,
    ) -> Result<Result<Executed<D>, D::Error>, StoreError>
    where
        D: Decider,
        P: for<'t> FnMut(&'t mut PgConnection, &'t [Envelope], &'t [D::Event]) -> Projected<'t>,
    {
        let mut retry = crate::retry::Retry::new();
        loop {
            let attempt = async {
                let mut tx = self.pool.begin().await?;
                let executed = self.execute_in::<D, _>(&mut tx, stream_id, meta, command(), &mut project).await?;
                if matches!(&executed, Ok(done) if done.wrote()) {
                    tx.commit().await?;
                }
                Ok::<_, StoreError>(executed)
            }
            .await;
            match attempt {
                Err(e) if retry.worth(&e) => retry.wait().await,
                Ok(Ok(done)) if done.wrote() => {
                    self.wake_relay();
                    return Ok(Ok(done));
                }
                other => return other,
            }
        }
    }
}
