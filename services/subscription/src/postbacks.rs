//! `POST /billers/{BILLER}/postback`: verify, read, store raw, apply once.
//!
//! An approved initial sale of a signup creates the account first (profile's
//! `POST /internal/accounts`, idempotent by the signup's user id), so a biller retrying after a
//! failure never makes two accounts; the signup then carries the welcome data.

use chrono::Utc;
use profile_contract::api::CreateAccountRequest;
use runtime::client::UpstreamError;
use runtime::StoreError;
use uuid::Uuid;

use crate::billers::{self, Outcome, Postback, Received, Rejection};
use crate::commands::{self, FactRecord, Recorded, SignupApproval, Start, Submission};
use crate::domain::{Fact, Identity, Step};
use crate::State;
use proto_events::subscription::MembershipKind;

/// The limit on refused postbacks: a sender (by address) or a biller's name that keeps sending
/// deliveries whose signature fails gets 429 with `Retry-After` instead of a check of each.
/// Only refusals are counted, after the signature check: a well-signed delivery is never
/// refused, however many forged ones arrived before it.
pub struct ForgedPostbacks {
    per_address: runtime::throttle::Throttle,
    per_biller: runtime::throttle::Throttle,
}

/// Forged deliveries one address may send: a misconfigured biller retrying gets through its
/// retries; a signature guesser is slowed to one try every two seconds.
pub const FORGED_PER_ADDRESS: runtime::throttle::Rate = runtime::throttle::Rate { per_minute: 30, burst: 20 };
/// Forged deliveries naming one biller, from every address together.
pub const FORGED_PER_BILLER: runtime::throttle::Rate = runtime::throttle::Rate { per_minute: 120, burst: 60 };

impl Default for ForgedPostbacks {
    fn default() -> Self {
        ForgedPostbacks {
            per_address: runtime::throttle::Throttle::new(Some(FORGED_PER_ADDRESS)),
            per_biller: runtime::throttle::Throttle::new(Some(FORGED_PER_BILLER)),
        }
    }
}

impl ForgedPostbacks {
    /// Counts one refused delivery; `Err(wait)` when its sender or its biller is over the limit.
    pub fn refused(&self, address: Option<&str>, biller: &str) -> Result<(), std::time::Duration> {
        let by_address = address.map(|a| self.per_address.check(a)).unwrap_or(Ok(()));
        let by_biller = self.per_biller.check(&biller.to_ascii_uppercase());
        by_address.and(by_biller)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PostbackError {
    #[error("no biller {0:?}")]
    UnknownBiller(String),
    #[error("{0}")]
    Rejected(#[from] Rejection),
    #[error("{0}")]
    Unprocessable(String),
    #[error("the profile service did not create the account: {0}")]
    Profile(#[source] UpstreamError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for PostbackError {
    fn from(e: sqlx::Error) -> Self {
        PostbackError::Store(e.into())
    }
}

/// What the biller is answered when its postback is taken (the same for a repeat).
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    pub ok_text: String,
    pub recorded: Recorded,
    pub postback: Postback,
}

/// The whole postback path. `now` is unix seconds.
pub async fn receive(
    state: &State,
    biller_name: &str,
    signature_header: Option<&str>,
    content_type: Option<&str>,
    body: &[u8],
    correlation: Option<Uuid>,
) -> Result<Accepted, PostbackError> {
    let biller =
        state.config.biller(biller_name).ok_or_else(|| PostbackError::UnknownBiller(biller_name.to_owned()))?;
    let now = state.clock.now().timestamp();
    let postback = match billers::verify(biller, &Received { signature_header, body }, now) {
        Ok(p) => p,
        Err(rejection) => {
            metrics::counter!("paysite_postbacks_rejected_total", "biller" => biller.name.clone(), "reason" => rejection.code())
                .increment(1);
            tracing::warn!(biller = %biller.name, reason = rejection.code(), "postback refused");
            return Err(rejection.into());
        }
    };
    let raw = String::from_utf8_lossy(body).into_owned();
    let recorded =
        apply(state, &postback, raw, content_type.map(str::to_owned), signature_header.map(str::to_owned), correlation)
            .await?;
    metrics::counter!("paysite_postbacks_applied_total", "biller" => biller.name.clone()).increment(1);
    Ok(Accepted { ok_text: biller.ok_text.clone(), recorded, postback })
}

/// Applies a verified postback.
pub async fn apply(
    state: &State,
    postback: &Postback,
    raw_body: String,
    content_type: Option<String>,
    signature: Option<String>,
    correlation: Option<Uuid>,
) -> Result<Recorded, PostbackError> {
    let step = match &postback.outcome {
        Outcome::Declined { reason } => {
            return declined(state, postback, reason, raw_body, content_type, signature).await
        }
        Outcome::Applied(step) => step.clone(),
    };
    let subscription_id = commands::subscription_id_of(&postback.biller, &postback.subscription_ref);
    let start = start_of(state, postback, &step, subscription_id).await?;
    let mut records = Vec::new();
    let record = |transaction_id: String, step: Step| FactRecord {
        biller: postback.biller.clone(),
        subscription_ref: postback.subscription_ref.clone(),
        subscription_id,
        fact: Fact { transaction_id, at: postback.at, step },
        raw_body: raw_body.clone(),
        content_type: content_type.clone(),
        signature: signature.clone(),
    };
    // Credits bought by a user with no subscription at this biller start a porn-portal one.
    if matches!(step, Step::CreditsPurchase { .. }) && start.is_some() {
        records.push(record(
            format!("{}#portal", postback.transaction_id),
            Step::Initial { kind: MembershipKind::PornPortal, free_limited_trial: false },
        ));
    }
    records.push(record(postback.transaction_id.clone(), step));
    let tenant = postback.site.clone().or_else(|| start.as_ref().map(|s| s.identity.site.clone()));
    let meta = commands::biller_meta(&postback.biller, tenant.as_deref(), correlation);
    let approves = postback.signup_id.map(|signup_id| SignupApproval {
        signup_id,
        member_id: postback.subscription_ref.clone(),
        transaction_id: postback.transaction_id.clone(),
    });
    Ok(state.batcher.submit(Submission { records, start, meta, approves }).await?)
}

/// A declined sale: stored once, and the signup is denied with the biller's reason.
async fn declined(
    state: &State,
    p: &Postback,
    reason: &str,
    raw_body: String,
    content_type: Option<String>,
    signature: Option<String>,
) -> Result<Recorded, PostbackError> {
    let mut tx = state.pool.begin().await?;
    let inserted: Option<i32> = sqlx::query_scalar(
        "insert into postback (biller, transaction_id, subscription_id, subscription_ref, step, fact, occurred_at,
             raw_body, content_type, signature)
         values ($1, $2, null, $3, 'declined', null, $4, $5, $6, $7)
         on conflict (biller, transaction_id) do nothing returning 1",
    )
    .bind(&p.biller)
    .bind(&p.transaction_id)
    .bind(&p.subscription_ref)
    .bind(p.at)
    .bind(&raw_body)
    .bind(&content_type)
    .bind(&signature)
    .fetch_optional(&mut *tx)
    .await?;
    if inserted.is_none() {
        return Ok(Recorded::Duplicate);
    }
    if let Some(signup_id) = p.signup_id {
        sqlx::query(
            "update signup set status = 'denied', reason = $2, member_id = $3, transaction_id = $4, decided_at = now()
             where signup_id = $1 and status = 'pending'",
        )
        .bind(signup_id)
        .bind(reason)
        .bind(&p.subscription_ref)
        .bind(&p.transaction_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Recorded::Applied { events: Vec::new() })
}

#[derive(sqlx::FromRow)]
struct SignupRow {
    signup_id: Uuid,
    user_id: Uuid,
    email: String,
    username: Option<String>,
    password_hash: Option<String>,
    site: String,
    join_option_id: i32,
    nats: Option<String>,
    status: String,
    created_at: chrono::DateTime<Utc>,
}

/// Who and what a starting subscription is for; None when it exists already or the fact does
/// not start one.
async fn start_of(
    state: &State,
    p: &Postback,
    step: &Step,
    subscription_id: Uuid,
) -> Result<Option<Start>, PostbackError> {
    if !matches!(step, Step::Initial { .. } | Step::CreditsPurchase { .. }) {
        return Ok(None);
    }
    // A credits purchase starts a porn-portal subscription only where there is none. An initial
    // sale's terms are stored only if new (the decider ignores a second initial anyway).
    if matches!(step, Step::CreditsPurchase { .. }) {
        let exists: Option<i32> = sqlx::query_scalar("select 1 from billing_subscription where subscription_id = $1")
            .bind(subscription_id)
            .fetch_optional(&state.pool)
            .await?;
        if exists.is_some() {
            return Ok(None);
        }
    }
    let (user_id, signup) = match (p.user_id, p.signup_id) {
        (Some(user_id), _) => (user_id, None),
        (None, Some(signup_id)) => {
            let signup: SignupRow = sqlx::query_as(
                "select signup_id, user_id, email, username, password_hash, site, join_option_id, nats, status, created_at
                 from signup where signup_id = $1",
            )
            .bind(signup_id)
            .fetch_optional(&state.pool)
            .await?
            .ok_or_else(|| PostbackError::Unprocessable(format!("no signup {signup_id}")))?;
            (signup.user_id, Some(signup))
        }
        (None, None) => return Err(PostbackError::Unprocessable("an initial sale names no user and no signup".into())),
    };
    let join_option_id = p.join_option_id.or(signup.as_ref().map(|s| s.join_option_id as u32));
    let option_site = join_option_id.and_then(|id| state.config.join_option(id)).map(|o| o.site.clone());
    let site = option_site
        .or_else(|| p.site.clone())
        .or_else(|| signup.as_ref().map(|s| s.site.clone()))
        .ok_or_else(|| PostbackError::Unprocessable("the sale names no site".into()))?;
    if !state.config.site_ids.contains_key(&site) && state.config.package(&site).is_none() {
        return Err(PostbackError::Unprocessable(format!("unknown site {site:?}")));
    }
    if let Some(signup) = &signup {
        // Pending, or declined first: postbacks out of order converge, and an approval after a
        // decline still makes the account. Past the TTL the hash is gone: the buyer joins again.
        if matches!(signup.status.as_str(), "pending" | "denied") {
            let expired = state.clock.now() - signup.created_at > crate::joins::PENDING_SIGNUP_TTL;
            let Some(password_hash) = signup.password_hash.clone().filter(|_| !expired) else {
                return Err(PostbackError::Unprocessable("the signup has expired".into()));
            };
            let request = CreateAccountRequest {
                user_id: Some(signup.user_id),
                username: signup.username.clone().or_else(|| p.username.clone()),
                password: String::new(),
                password_hash: Some(password_hash),
                email: signup.email.clone(),
                site: signup.site.clone(),
                biller: Some(p.biller.clone()),
                tandem_parent_user_id: None,
                vip_invited: false,
            };
            match state.profile.create_account(&request).await {
                Ok(_) => {}
                // The join race: the username was free at the join form's check and is taken
                // now. The payment is kept: the account is made without a username, which the
                // member chooses after signing in (the welcome data says `usernameLost`).
                Err(UpstreamError::Refused { code, .. }) if code == "USERNAME_TAKEN" && request.username.is_some() => {
                    let request = CreateAccountRequest { username: None, ..request };
                    state.profile.create_account(&request).await.map_err(PostbackError::Profile)?;
                    sqlx::query("update signup set username_lost = true where signup_id = $1")
                        .bind(signup.signup_id)
                        .execute(&state.pool)
                        .await?;
                    tracing::warn!(signup_id = %signup.signup_id, "the username was taken after the join form's check; the account waits for another");
                }
                Err(e) => return Err(PostbackError::Profile(e)),
            }
        }
    }
    let nats_code = p.nats_code.clone().or_else(|| signup.as_ref().and_then(|s| s.nats.clone()));
    Ok(Some(Start {
        identity: Identity {
            subscription_id,
            user_id,
            sites: state.config.sites_of(&site),
            site,
            biller: p.biller.clone(),
            nats_code,
        },
        join_option_id,
    }))
}

/// Unix seconds now, for callers without a clock.
pub fn unix_now() -> i64 {
    Utc::now().timestamp()
}
