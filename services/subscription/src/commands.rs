//! The write path: a biller fact is stored (raw, once per biller transaction id) and the decider
//! brings the subscription's stream to where all its facts put it, in one transaction.
//!
//! One subscription's facts are decided one at a time (a transaction-scoped advisory lock on the
//! subscription): two postbacks of the same subscription arriving together would otherwise each
//! decide without the other's fact. Different subscriptions never wait for each other.

use chrono::{DateTime, Utc};
use proto_events::{Actor, Envelope, EventMeta};
use runtime::{EventStore, StoreError};
use sha2::{Digest, Sha256};
use sqlx::types::Json;
use std::sync::Arc;

use sqlx::{PgConnection, PgPool, Postgres, Transaction};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::domain::{self, Command, Fact, Identity, Step};
use crate::projections;

/// Namespace of this service's advisory locks (the two-key form, apart from the relay's).
const LOCK_NAMESPACE: i32 = 0x5b5;

/// The subscription a biller's subscription id stands for: the same id on every replay.
pub fn subscription_id_of(biller: &str, subscription_ref: &str) -> Uuid {
    let digest = Sha256::digest(format!("paysite-subscription:{biller}:{subscription_ref}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_custom_bytes(bytes).into_uuid()
}

/// One accepted postback (or native charge) as stored.
#[derive(Clone, Debug)]
pub struct FactRecord {
    pub biller: String,
    pub subscription_ref: String,
    pub subscription_id: Uuid,
    pub fact: Fact,
    pub raw_body: String,
    pub content_type: Option<String>,
    pub signature: Option<String>,
}

/// What the subscription is, when this fact may start it.
#[derive(Clone, Debug)]
pub struct Start {
    pub identity: Identity,
    pub join_option_id: Option<u32>,
}

/// What storing a fact did.
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    /// The biller had sent this transaction before: nothing changed.
    Duplicate,
    /// Stored; `events` are what the decider appended (none while it waits for the initial).
    Applied { events: Vec<Envelope> },
}

fn lock_key(subscription_id: Uuid) -> i32 {
    let (high, low) = subscription_id.as_u64_pair();
    (high ^ low) as i32
}

/// Serialises the decisions of one subscription until the transaction ends.
pub async fn lock_subscription(tx: &mut PgConnection, subscription_id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query("select pg_advisory_xact_lock($1, $2)")
        .bind(LOCK_NAMESPACE)
        .bind(lock_key(subscription_id))
        .execute(tx)
        .await?;
    Ok(())
}

/// A transaction that holds the subscription's lock from its first round trip.
pub async fn begin_locked(pool: &PgPool, subscription_id: Uuid) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
    begin_locking(pool, &[subscription_id]).await
}

/// A transaction that holds the locks of all `subscriptions` from its first round trip, taken
/// in ascending key order (so two such transactions never wait for each other in a circle).
pub async fn begin_locking(
    pool: &PgPool,
    subscriptions: &[Uuid],
) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
    let mut keys: Vec<i32> = subscriptions.iter().copied().map(lock_key).collect();
    keys.sort_unstable();
    keys.dedup();
    // Integers formatted into the statements: nothing from outside reaches them.
    let mut begin = String::from("begin");
    for key in keys {
        begin.push_str(&format!("; select pg_advisory_xact_lock({LOCK_NAMESPACE}, {key})"));
    }
    pool.begin_with(begin).await
}

/// Stores `record` and decides, inside the caller's transaction (which holds the subscription's
/// lock: see [`lock_subscription`]). A stream conflict is returned for the caller to retry.
///
/// One statement stores the fact (once), the terms (when it starts the subscription) and reads
/// what deciding needs: the identity, every fact and the stream. Then the append and the read
/// model. The lock is taken before this statement, so its snapshot holds every earlier fact.
pub async fn record_in(
    tx: &mut PgConnection,
    store: &EventStore,
    record: &FactRecord,
    start: Option<&Start>,
    meta: &EventMeta,
) -> Result<Recorded, StoreError> {
    let fact = serde_json::to_value(&record.fact).expect("a fact is JSON");
    let stream = domain::stream_id(record.subscription_id);
    let id = start.map(|s| &s.identity);
    #[derive(sqlx::FromRow)]
    struct Read {
        inserted: bool,
        identity: Option<Json<IdentityRow>>,
        facts: Json<Vec<Fact>>,
        events: Json<Vec<StoredEvent>>,
    }
    let read: Read = sqlx::query_as(
        "with ins as (
             insert into postback (biller, transaction_id, subscription_id, subscription_ref, step, fact, occurred_at,
                 raw_body, content_type, signature)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             on conflict (biller, transaction_id) do nothing
             returning fact
         ), terms as (
             insert into billing_subscription (subscription_id, biller, subscription_ref, user_id, site, sites,
                 join_option_id, nats_code)
             select $3, $11, $4, $12, $13, $14, $15, $16
             where $12::uuid is not null and exists (select 1 from ins)
             on conflict do nothing
             returning user_id, site, biller, sites, nats_code
         ), known as (
             select user_id, site, biller, sites, nats_code from billing_subscription where subscription_id = $3
             union all
             select user_id, site, biller, sites, nats_code from terms
         )
         select exists (select 1 from ins) as inserted,
             (select to_jsonb(k) from known k limit 1) as identity,
             coalesce((select jsonb_agg(fact) from postback where subscription_id = $3 and fact is not null), '[]')
                 || coalesce((select jsonb_agg(fact) from ins), '[]') as facts,
             coalesce((select jsonb_agg(jsonb_build_object('type', event_type, 'schemaVersion', schema_version,
                 'version', stream_version, 'payload', payload) order by stream_version)
                 from event where stream_id = $17), '[]') as events",
    )
    .bind(&record.biller)
    .bind(&record.fact.transaction_id)
    .bind(record.subscription_id)
    .bind(&record.subscription_ref)
    .bind(record.fact.step.name())
    .bind(&fact)
    .bind(record.fact.at)
    .bind(&record.raw_body)
    .bind(&record.content_type)
    .bind(&record.signature)
    .bind(id.map(|i| i.biller.as_str()))
    .bind(id.map(|i| i.user_id))
    .bind(id.map(|i| i.site.as_str()))
    .bind(id.map(|i| i.sites.clone()))
    .bind(start.and_then(|s| s.join_option_id).map(|j| j as i32))
    .bind(id.and_then(|i| i.nats_code.as_deref()))
    .bind(&stream)
    .fetch_one(&mut *tx)
    .await?;
    if !read.inserted {
        return Ok(Recorded::Duplicate);
    }
    let Some(Json(identity)) = read.identity else {
        // Not started yet: the fact waits for the initial sale.
        return Ok(Recorded::Applied { events: Vec::new() });
    };
    let identity = Identity {
        subscription_id: record.subscription_id,
        user_id: identity.user_id,
        site: identity.site,
        sites: identity.sites,
        biller: identity.biller,
        nats_code: identity.nats_code,
    };
    let mut state = domain::Subscription::default();
    let mut version = 0;
    for stored in read.events.0 {
        let envelope = Envelope {
            event_id: Uuid::nil(),
            stream_id: stream.clone(),
            stream_version: stored.version,
            event_type: stored.event_type,
            schema_version: stored.schema_version,
            occurred_at: record.fact.at,
            tenant: None,
            correlation_id: Uuid::nil(),
            causation_id: None,
            actor: proto_events::Actor::System("replay".into()),
            payload: stored.payload,
        };
        let event = proto_events::decode(&envelope)
            .map_err(|e| StoreError::Corrupt { event_id: envelope.event_id, reason: e.to_string() })?;
        state = domain::evolve(state, &event);
        version = stored.version;
    }
    let events = match domain::decide(&state, Command::Reconcile { identity, facts: read.facts.0 }) {
        Ok(events) => events,
        Err(e) => return Err(StoreError::Corrupt { event_id: Uuid::nil(), reason: e.to_string() }),
    };
    if events.is_empty() {
        return Ok(Recorded::Applied { events: Vec::new() });
    }
    let written = store.append(tx, &stream, version, &events, meta).await?;
    projections::apply_envelopes(tx, &written).await?;
    Ok(Recorded::Applied { events: written })
}

#[derive(serde::Deserialize)]
struct IdentityRow {
    user_id: Uuid,
    site: String,
    biller: String,
    sites: Vec<String>,
    nats_code: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredEvent {
    #[serde(rename = "type")]
    event_type: String,
    schema_version: u32,
    version: i64,
    payload: serde_json::Value,
}

/// A signup the fact approves: its welcome data, written with the fact.
#[derive(Clone, Debug)]
pub struct SignupApproval {
    pub signup_id: Uuid,
    pub member_id: String,
    pub transaction_id: String,
}

/// Facts of one subscription to store and decide together.
#[derive(Clone, Debug)]
pub struct Submission {
    pub records: Vec<FactRecord>,
    pub start: Option<Start>,
    pub meta: EventMeta,
    pub approves: Option<SignupApproval>,
}

impl Submission {
    fn subscription_id(&self) -> Option<Uuid> {
        self.records.first().map(|r| r.subscription_id)
    }
}

/// Applies a submission inside `tx`, which holds the subscription's lock.
pub async fn apply_in(
    tx: &mut PgConnection,
    store: &EventStore,
    submission: &Submission,
) -> Result<Recorded, StoreError> {
    let mut all = Vec::new();
    let mut duplicate = true;
    for record in &submission.records {
        if let Recorded::Applied { events } =
            record_in(tx, store, record, submission.start.as_ref(), &submission.meta).await?
        {
            duplicate = false;
            all.extend(events);
        }
    }
    if duplicate && !submission.records.is_empty() {
        return Ok(Recorded::Duplicate);
    }
    if let (Some(approval), Some(subscription_id)) = (&submission.approves, submission.subscription_id()) {
        sqlx::query(
            "update signup set status = 'approved', reason = null, member_id = $2, subscription_id = $3,
                 transaction_id = $4, password_hash = null, decided_at = now()
             where signup_id = $1 and status in ('pending', 'denied')",
        )
        .bind(approval.signup_id)
        .bind(&approval.member_id)
        .bind(subscription_id)
        .bind(&approval.transaction_id)
        .execute(&mut *tx)
        .await?;
    }
    Ok(Recorded::Applied { events: all })
}

fn wrote_events(recorded: &Recorded) -> bool {
    matches!(recorded, Recorded::Applied { events } if !events.is_empty())
}

/// Stores and decides in a transaction of its own, retrying lost races.
pub async fn record(store: &EventStore, submission: &Submission) -> Result<Recorded, StoreError> {
    const ATTEMPTS: usize = 8;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let result = async {
            let mut tx = match submission.subscription_id() {
                Some(id) => begin_locked(store.pool(), id).await?,
                None => store.pool().begin().await?,
            };
            let outcome = apply_in(&mut tx, store, submission).await?;
            tx.commit().await?;
            Ok::<_, StoreError>(outcome)
        }
        .await;
        match result {
            Err(e) if e.is_retryable() && attempt < ATTEMPTS => {
                tracing::debug!(attempt, error = %e, "postback lost a race, deciding again");
                tokio::time::sleep(std::time::Duration::from_millis(5 << attempt.min(6))).await;
            }
            Ok(outcome) => {
                if wrote_events(&outcome) {
                    store.wake_relay();
                }
                return Ok(outcome);
            }
            Err(e) => return Err(e),
        }
    }
}

type Reply = oneshot::Sender<Result<Recorded, StoreError>>;

/// Group commit of postbacks: submissions that arrive while a transaction is running wait and
/// go together in the next one, each decided as if alone. One commit then carries many
/// postbacks, which is what the database's per-commit cost allows (see docs/benchmarks.md).
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
/// Transactions in flight at once, unless `SUBSCRIPTION_POSTBACK_WORKERS` says otherwise.
pub const WORKERS: usize = 8;

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

async fn run_batch(store: &EventStore, mut batch: Vec<(Submission, Reply)>) {
    metrics::histogram!("paysite_postback_batch_size").record(batch.len() as f64);
    if batch.len() == 1 {
        let (submission, reply) = batch.pop().expect("one");
        let _ = reply.send(record(store, &submission).await);
        return;
    }
    let together = async {
        let ids: Vec<Uuid> = batch.iter().filter_map(|(s, _)| s.subscription_id()).collect();
        let mut tx = begin_locking(store.pool(), &ids).await?;
        let mut outcomes = Vec::with_capacity(batch.len());
        for (submission, _) in &batch {
            outcomes.push(apply_in(&mut tx, store, submission).await?);
        }
        tx.commit().await?;
        Ok::<_, StoreError>(outcomes)
    }
    .await;
    match together {
        Ok(outcomes) => {
            if outcomes.iter().any(wrote_events) {
                store.wake_relay();
            }
            for ((_, reply), outcome) in batch.into_iter().zip(outcomes) {
                let _ = reply.send(Ok(outcome));
            }
        }
        Err(e) => {
            tracing::debug!(error = %e, size = batch.len(), "postback batch failed, each alone");
            for (submission, reply) in batch {
                let _ = reply.send(record(store, &submission).await);
            }
        }
    }
}

/// Metadata of what a biller did.
pub fn biller_meta(biller: &str, tenant: Option<&str>, correlation: Option<Uuid>) -> EventMeta {
    let mut meta = EventMeta::new(Actor::Biller(biller.to_owned()));
    if let Some(t) = tenant {
        meta = meta.with_tenant(t);
    }
    if let Some(c) = correlation {
        meta = meta.with_correlation(c);
    }
    meta
}

/// A native charge (RGNATIVE, one-click purchases, retention, cancel): a fact of our own.
pub fn native_fact(
    subscription_id: Uuid,
    subscription_ref: &str,
    transaction_id: String,
    at: DateTime<Utc>,
    step: Step,
    body: &serde_json::Value,
) -> FactRecord {
    FactRecord {
        biller: crate::NATIVE_BILLER.to_owned(),
        subscription_ref: subscription_ref.to_owned(),
        subscription_id,
        fact: Fact { transaction_id, at, step },
        raw_body: body.to_string(),
        content_type: Some("application/json".into()),
        signature: None,
    }
}
