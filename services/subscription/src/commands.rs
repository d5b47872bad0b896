//! The write path: a biller fact is stored (raw, once per biller transaction id) and the decider
//! brings the subscription's stream to where all its facts put it, in one transaction.
//!
//! One subscription's facts are decided one at a time (a transaction-scoped advisory lock on the
//! subscription): two postbacks of the same subscription arriving together would otherwise each
//! decide without the other's fact. Different subscriptions never wait for each other.
//!
//! Postbacks are group-committed ([`crate::batcher`]); [`apply_all_in`] applies a batch in a
//! fixed number of statements, each submission as if alone and in order.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use proto_events::subscription::SubscriptionEvent as E;
use proto_events::{Actor, Envelope, EventMeta};
use runtime::{EventStore, Pending, StoreError, StreamAppend};
use sha2::{Digest, Sha256};
use sqlx::types::Json;
use sqlx::{PgConnection, PgPool, Postgres, Transaction};
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

#[derive(serde::Deserialize)]
struct IdentityRow {
    user_id: Uuid,
    site: String,
    biller: String,
    sites: Vec<String>,
    nats_code: Option<String>,
}

impl IdentityRow {
    fn of(self, subscription_id: Uuid) -> Identity {
        let IdentityRow { user_id, site, biller, sites, nats_code } = self;
        Identity { subscription_id, user_id, site, sites, biller, nats_code }
    }
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

/// The terms a record stores when it starts its subscription (`billing_subscription`).
#[derive(serde::Serialize)]
struct TermsRow<'a> {
    /// The record's place in the statement's input (1-based, as `with ordinality` counts).
    ord: i64,
    subscription_id: Uuid,
    biller: &'a str,
    subscription_ref: &'a str,
    user_id: Uuid,
    site: &'a str,
    sites: &'a [String],
    join_option_id: Option<i32>,
    nats_code: Option<&'a str>,
}

/// What the read statement tells of one subscription of the batch.
#[derive(sqlx::FromRow)]
struct StreamRead {
    subscription_id: Uuid,
    /// Input places of its records stored just now (the others were there already).
    inserted: Vec<i64>,
    /// Its terms as they were before the statement.
    identity: Option<Json<IdentityRow>>,
    /// Its terms stored by the statement (from its first new record that starts it).
    new_identity: Option<Json<IdentityRow>>,
    /// Its facts before the statement.
    facts: Json<Vec<Fact>>,
    events: Json<Vec<StoredEvent>>,
}

/// One subscription of a batch while it is decided.
struct Stream {
    id: String,
    inserted: HashSet<i64>,
    identity: Option<Identity>,
    new_identity: Option<Identity>,
    facts: Vec<Fact>,
    state: domain::Subscription,
    version: i64,
    /// The events decided, each with the submission it answers.
    decided: Vec<(usize, E)>,
}

impl Stream {
    fn read(read: StreamRead, at: DateTime<Utc>) -> Result<Stream, StoreError> {
        let id = domain::stream_id(read.subscription_id);
        let mut state = domain::Subscription::default();
        let mut version = 0;
        for stored in read.events.0 {
            let envelope = Envelope {
                event_id: Uuid::nil(),
                stream_id: id.clone(),
                stream_version: stored.version,
                event_type: stored.event_type,
                schema_version: stored.schema_version,
                occurred_at: at,
                tenant: None,
                correlation_id: Uuid::nil(),
                causation_id: None,
                actor: Actor::System("replay".into()),
                payload: stored.payload,
            };
            let event = proto_events::decode(&envelope)
                .map_err(|e| StoreError::Corrupt { event_id: envelope.event_id, reason: e.to_string() })?;
            state = domain::evolve(state, &event);
            version = stored.version;
        }
        Ok(Stream {
            id,
            inserted: read.inserted.into_iter().collect(),
            identity: read.identity.map(|Json(row)| row.of(read.subscription_id)),
            new_identity: read.new_identity.map(|Json(row)| row.of(read.subscription_id)),
            facts: read.facts.0,
            state,
            version,
            decided: Vec::new(),
        })
    }
}

/// Stores and decides `submissions` inside `tx`, which holds the locks of all their
/// subscriptions (see [`begin_locking`]): the same outcome as applying each alone, in the order
/// given, in a few statements whatever the batch's size. A stream conflict or any failure is
/// returned for the caller to retry (or split the batch).
///
/// 1. One statement stores every new fact (raw, once per biller transaction id: a repeat later
///    in the batch is not sent), the terms of subscriptions they start, and reads what deciding
///    needs of each subscription: its terms, its facts and its stream. The locks are taken
///    before it, so its snapshot holds every earlier fact.
/// 2. Each stored fact is decided in order, in memory, on its subscription's state so far.
/// 3. One statement appends every stream's events with their outbox rows
///    ([`EventStore::append_streams`], each stream at the version read), one writes the read
///    model ([`projections::MemberChanges`]), and one the signups approved, if any.
pub async fn apply_all_in(
    tx: &mut PgConnection,
    store: &EventStore,
    submissions: &[Submission],
) -> Result<Vec<Recorded>, StoreError> {
    // The records in batch order, each with its place in the input (None: a repeat in the batch).
    let mut entries: Vec<(usize, &FactRecord, Option<i64>)> = Vec::new();
    let mut seen = HashSet::new();
    let mut input = FactColumns::default();
    let mut terms = Vec::new();
    let mut subscriptions: Vec<Uuid> = Vec::new();
    for (n, submission) in submissions.iter().enumerate() {
        for record in &submission.records {
            if !subscriptions.contains(&record.subscription_id) {
                subscriptions.push(record.subscription_id);
            }
            let mut ord = None;
            if seen.insert((record.biller.as_str(), record.fact.transaction_id.as_str())) {
                input.push(record);
                let place = input.len() as i64;
                if let Some(start) = &submission.start {
                    terms.push(TermsRow {
                        ord: place,
                        subscription_id: record.subscription_id,
                        biller: &start.identity.biller,
                        subscription_ref: &record.subscription_ref,
                        user_id: start.identity.user_id,
                        site: &start.identity.site,
                        sites: &start.identity.sites,
                        join_option_id: start.join_option_id.map(|j| j as i32),
                        nats_code: start.identity.nats_code.as_deref(),
                    });
                }
                ord = Some(place);
            }
            entries.push((n, record, ord));
        }
    }
    if subscriptions.is_empty() {
        return Ok(submissions.iter().map(|_| Recorded::Applied { events: Vec::new() }).collect());
    }
    let stream_ids: Vec<String> = subscriptions.iter().copied().map(domain::stream_id).collect();
    let reads: Vec<StreamRead> = sqlx::query_as(
        "with input as (
             select * from unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[],
                 $7::timestamptz[], $8::text[], $9::text[], $10::text[]) with ordinality
                 as r(biller, transaction_id, subscription_id, subscription_ref, step, fact, occurred_at, raw_body,
                      content_type, signature, ord)
         ), ins as (
             insert into postback (biller, transaction_id, subscription_id, subscription_ref, step, fact, occurred_at,
                 raw_body, content_type, signature)
             select biller, transaction_id, subscription_id, subscription_ref, step, fact, occurred_at, raw_body,
                 content_type, signature
             from input order by ord
             on conflict (biller, transaction_id) do nothing
             returning biller, transaction_id
         ), stored as (
             select r.ord, r.subscription_id from input r join ins using (biller, transaction_id)
         ), terms as (
             insert into billing_subscription (subscription_id, biller, subscription_ref, user_id, site, sites,
                 join_option_id, nats_code)
             select distinct on (t.subscription_id) t.subscription_id, t.biller, t.subscription_ref, t.user_id, t.site,
                 t.sites, t.join_option_id, t.nats_code
             from jsonb_to_recordset($11) as t(ord bigint, subscription_id uuid, biller text, subscription_ref text,
                 user_id uuid, site text, sites text[], join_option_id integer, nats_code text)
             join stored using (ord)
             order by t.subscription_id, t.ord
             on conflict do nothing
             returning subscription_id, user_id, site, biller, sites, nats_code
         )
         select s.subscription_id,
             array(select ord from stored where stored.subscription_id = s.subscription_id order by ord) as inserted,
             (select to_jsonb(k) from (select user_id, site, biller, sites, nats_code from billing_subscription b
                 where b.subscription_id = s.subscription_id) k) as identity,
             (select to_jsonb(k) from (select user_id, site, biller, sites, nats_code from terms t
                 where t.subscription_id = s.subscription_id) k) as new_identity,
             coalesce((select jsonb_agg(fact) from postback p
                 where p.subscription_id = s.subscription_id and p.fact is not null), '[]') as facts,
             coalesce((select jsonb_agg(jsonb_build_object('type', event_type, 'schemaVersion', schema_version,
                 'version', stream_version, 'payload', payload) order by stream_version)
                 from event e where e.stream_id = s.stream_id), '[]') as events
         from unnest($12::uuid[], $13::text[]) as s(subscription_id, stream_id)",
    )
    .bind(&input.biller)
    .bind(&input.transaction_id)
    .bind(&input.subscription_id)
    .bind(&input.subscription_ref)
    .bind(&input.step)
    .bind(&input.fact)
    .bind(&input.occurred_at)
    .bind(&input.raw_body)
    .bind(&input.content_type)
    .bind(&input.signature)
    .bind(Json(&terms))
    .bind(&subscriptions)
    .bind(&stream_ids)
    .fetch_all(&mut *tx)
    .await?;
    let at = Utc::now();
    let mut streams = HashMap::with_capacity(reads.len());
    for read in reads {
        streams.insert(read.subscription_id, Stream::read(read, at)?);
    }

    // Each new fact decided in order, as if alone: on its subscription's state so far.
    let mut stored = vec![false; submissions.len()];
    for &(n, record, ord) in &entries {
        let stream = streams.get_mut(&record.subscription_id).expect("every subscription of the batch is read");
        if !ord.is_some_and(|o| stream.inserted.contains(&o)) {
            continue;
        }
        stored[n] = true;
        stream.facts.push(record.fact.clone());
        if stream.identity.is_none() && submissions[n].start.is_some() {
            // Its terms are this record's: the first new record that starts the subscription.
            stream.identity = stream.new_identity.take();
        }
        // Without terms the fact waits for the initial sale.
        let Some(identity) = stream.identity.clone() else { continue };
        let events = domain::decide(&stream.state, Command::Reconcile { identity, facts: stream.facts.clone() })
            .map_err(|e| StoreError::Corrupt { event_id: Uuid::nil(), reason: e.to_string() })?;
        for event in events {
            stream.state = domain::evolve(std::mem::take(&mut stream.state), &event);
            stream.decided.push((n, event));
        }
    }

    // Every stream's events in one append, then their read model in one statement.
    let trace_context = runtime::telemetry::current_traceparent();
    let order: Vec<&Stream> = subscriptions.iter().map(|id| &streams[id]).filter(|s| !s.decided.is_empty()).collect();
    let appends: Vec<StreamAppend<'_, E>> = order
        .iter()
        .map(|s| StreamAppend {
            stream_id: s.id.clone(),
            expected_version: s.version,
            events: s
                .decided
                .iter()
                .map(|(n, event)| Pending { event, meta: &submissions[*n].meta, trace_context: trace_context.clone() })
                .collect(),
        })
        .collect();
    let written = store.append_streams(tx, &appends).await?;
    let mut events: Vec<Vec<Envelope>> = vec![Vec::new(); submissions.len()];
    let mut members = projections::MemberChanges::default();
    for (stream, envelopes) in order.iter().zip(written) {
        for ((n, event), envelope) in stream.decided.iter().zip(envelopes) {
            members.add(event);
            events[*n].push(envelope);
        }
    }
    members.write(tx).await?;
    approve_signups(tx, submissions, &stored).await?;

    Ok(submissions
        .iter()
        .zip(stored)
        .zip(events)
        .map(
            |((submission, stored), events)| {
                if stored || submission.records.is_empty() {
                    Recorded::Applied { events }
                } else {
                    Recorded::Duplicate
                }
            },
        )
        .collect())
}

/// The columns of the facts a batch stores, for `unnest`.
#[derive(Default)]
struct FactColumns<'a> {
    biller: Vec<&'a str>,
    transaction_id: Vec<&'a str>,
    subscription_id: Vec<Uuid>,
    subscription_ref: Vec<&'a str>,
    step: Vec<&'static str>,
    fact: Vec<serde_json::Value>,
    occurred_at: Vec<DateTime<Utc>>,
    raw_body: Vec<&'a str>,
    content_type: Vec<Option<&'a str>>,
    signature: Vec<Option<&'a str>>,
}

impl<'a> FactColumns<'a> {
    fn push(&mut self, r: &'a FactRecord) {
        self.biller.push(&r.biller);
        self.transaction_id.push(&r.fact.transaction_id);
        self.subscription_id.push(r.subscription_id);
        self.subscription_ref.push(&r.subscription_ref);
        self.step.push(r.fact.step.name());
        self.fact.push(serde_json::to_value(&r.fact).expect("a fact is JSON"));
        self.occurred_at.push(r.fact.at);
        self.raw_body.push(&r.raw_body);
        self.content_type.push(r.content_type.as_deref());
        self.signature.push(r.signature.as_deref());
    }

    fn len(&self) -> usize {
        self.biller.len()
    }
}

/// The signups that stored submissions approve, in one statement (the first approval of a
/// signup wins, as it would one at a time: the next finds it approved).
async fn approve_signups(
    tx: &mut PgConnection,
    submissions: &[Submission],
    stored: &[bool],
) -> Result<(), sqlx::Error> {
    let mut seen = HashSet::new();
    let (mut signups, mut members, mut subscriptions, mut transactions) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (submission, _) in submissions.iter().zip(stored).filter(|(_, stored)| **stored) {
        if let (Some(a), Some(subscription_id)) = (&submission.approves, submission.subscription_id()) {
            if seen.insert(a.signup_id) {
                signups.push(a.signup_id);
                members.push(a.member_id.as_str());
                subscriptions.push(subscription_id);
                transactions.push(a.transaction_id.as_str());
            }
        }
    }
    if signups.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "update signup s set status = 'approved', reason = null, member_id = a.member_id,
             subscription_id = a.subscription_id, transaction_id = a.transaction_id, password_hash = null,
             decided_at = now()
         from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[])
             as a(signup_id, member_id, subscription_id, transaction_id)
         where s.signup_id = a.signup_id and s.status in ('pending', 'denied')",
    )
    .bind(&signups)
    .bind(&members)
    .bind(&subscriptions)
    .bind(&transactions)
    .execute(&mut *tx)
    .await?;
    Ok(())
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

/// Applies one submission inside `tx`, which holds the subscription's lock.
pub async fn apply_in(
    tx: &mut PgConnection,
    store: &EventStore,
    submission: &Submission,
) -> Result<Recorded, StoreError> {
    let mut outcomes = apply_all_in(tx, store, std::slice::from_ref(submission)).await?;
    Ok(outcomes.pop().expect("one outcome per submission"))
}

pub(crate) fn wrote_events(recorded: &Recorded) -> bool {
    matches!(recorded, Recorded::Applied { events } if !events.is_empty())
}

/// Stores and decides in a transaction of its own, retrying lost races.
pub async fn record(store: &EventStore, submission: &Submission) -> Result<Recorded, StoreError> {
    let outcome = runtime::retry::retrying(|| async {
        let mut tx = match submission.subscription_id() {
            Some(id) => begin_locked(store.pool(), id).await?,
            None => store.pool().begin().await?,
        };
        let outcome = apply_in(&mut tx, store, submission).await?;
        tx.commit().await?;
        Ok::<_, StoreError>(outcome)
    })
    .await?;
    if wrote_events(&outcome) {
        store.wake_relay();
    }
    Ok(outcome)
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
