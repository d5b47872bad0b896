//! One-click purchases (product.md, "Subscriptions and their states" purchase flow): multisite (sixSite), trial upgrade (fixed pricing),
//! reactivate (single site), and pay-per-video credit packs. The card on file is charged by the
//! native biller, so the charge is a native fact decided like any postback.
//!
//! Each needs the user's consent and an idempotency key. The key's row is inserted first, in the
//! transaction that charges: a second request with the same key waits for the first to commit,
//! then reads its answer. The same key with another body is refused.

use chrono::Utc;
use proto_events::subscription::MembershipKind;
use runtime::StoreError;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::commands::{self, native_fact, FactRecord, Start, Submission};
use crate::domain::{Identity, Step};
use crate::view::SubscriptionRow;
use crate::{State, NATIVE_BILLER};

pub use subscription_contract::api::{
    CreditsPurchase, MultisitePurchase, PurchaseAnswer, SinglesitePurchase, Tracking, TrialUpgradePurchase,
};

/// A purchase's refusal: an answer, stored under the key like a success.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PurchaseRefusal {
    #[error("the purchase needs the user's consent")]
    ConsentRequired,
    #[error("an idempotency key is required")]
    IdempotencyKeyRequired,
    #[error("this idempotency key was used for another request")]
    IdempotencyKeyReused,
    #[error("{}", crate::joins::INVALID_JOIN_OPTION_MESSAGE)]
    InvalidJoinOption,
    #[error("{}", crate::joins::MEMBERSHIP_UNAVAILABLE_MESSAGE)]
    MembershipUnavailable,
    #[error("there is no trial to upgrade")]
    NoTrial,
    #[error("no such credit pack")]
    UnknownPack,
    #[error("no such member")]
    UnknownMember,
}

impl PurchaseRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            PurchaseRefusal::ConsentRequired => "CONSENT_REQUIRED",
            PurchaseRefusal::IdempotencyKeyRequired => "IDEMPOTENCY_KEY_REQUIRED",
            PurchaseRefusal::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            PurchaseRefusal::InvalidJoinOption => "INVALID_JOIN_OPTION",
            PurchaseRefusal::MembershipUnavailable => "MEMBERSHIP_UNAVAILABLE",
            PurchaseRefusal::NoTrial => "NO_TRIAL_TO_UPGRADE",
            PurchaseRefusal::UnknownPack => "UNKNOWN_CREDIT_PACK",
            PurchaseRefusal::UnknownMember => "NOT_FOUND",
        }
    }

    pub fn status(&self) -> u16 {
        match self {
            PurchaseRefusal::IdempotencyKeyReused => 409,
            PurchaseRefusal::UnknownMember => 404,
            _ => 422,
        }
    }

    pub fn body(&self) -> Value {
        json!({ "code": self.code(), "message": self.to_string() })
    }
}

/// Who buys.
#[derive(Clone, Debug)]
pub struct Buyer {
    pub user_id: Uuid,
    pub username: Option<String>,
    pub tenant: String,
}

/// The purchase decided: the charge's facts, and what to answer.
struct Plan {
    records: Vec<FactRecord>,
    start: Option<Start>,
    answer: PurchaseAnswer,
    /// Welcome data for a new subscription (memberId of the native subscription).
    welcome: Option<(String, Uuid)>,
}

/// The reference of a native charge made under `key`: stable, so a retry is the same charge.
fn native_ref(kind: &str, user: Uuid, key: &str) -> String {
    let digest = Sha256::digest(format!("{kind}:{user}:{key}").as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("RGN-{hex}")
}

fn request_hash(kind: &str, user: Uuid, body: &Value) -> String {
    let mut body = body.clone();
    if let Value::Object(map) = &mut body {
        map.remove("idempotencyKey");
    }
    let digest = Sha256::digest(format!("{kind}:{user}:{body}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs a purchase under its idempotency key; the answer's status and JSON body.
async fn run(
    state: &State,
    buyer: &Buyer,
    kind: &'static str,
    key: &str,
    consent: bool,
    body: &Value,
    plan: impl for<'c> Fn(
        &'c mut PgConnection,
        String,
    ) -> futures::future::BoxFuture<'c, Result<Result<Plan, PurchaseRefusal>, StoreError>>,
) -> Result<(u16, Value), StoreError> {
    if key.trim().is_empty() || key.len() > 200 {
        let r = PurchaseRefusal::IdempotencyKeyRequired;
        return Ok((r.status(), r.body()));
    }
    if !consent {
        let r = PurchaseRefusal::ConsentRequired;
        return Ok((r.status(), r.body()));
    }
    let hash = request_hash(kind, buyer.user_id, body);
    let reference = native_ref(kind, buyer.user_id, key);
    let mut retry = runtime::retry::Retry::new();
    loop {
        let result: Result<(u16, Value), StoreError> = async {
            let mut tx = state.pool.begin().await?;
            let fresh: Option<i32> = sqlx::query_scalar(
                "insert into purchase (idempotency_key, user_id, kind, request_hash) values ($1, $2, $3, $4)
                 on conflict (idempotency_key) do nothing returning 1",
            )
            .bind(key)
            .bind(buyer.user_id)
            .bind(kind)
            .bind(&hash)
            .fetch_optional(&mut *tx)
            .await?;
            if fresh.is_none() {
                // The first request with this key committed (we waited for it): its answer.
                let (user, stored_hash, status, answer): (Uuid, String, Option<i16>, Option<Value>) = sqlx::query_as(
                    "select user_id, request_hash, status, answer from purchase where idempotency_key = $1",
                )
                .bind(key)
                .fetch_one(&mut *tx)
                .await?;
                if user != buyer.user_id || stored_hash != hash {
                    let r = PurchaseRefusal::IdempotencyKeyReused;
                    return Ok((r.status(), r.body()));
                }
                return Ok((status.unwrap_or(200) as u16, answer.unwrap_or(Value::Null)));
            }
            let (status, answer) = match plan(&mut tx, reference.clone()).await? {
                Err(refusal) => (refusal.status(), refusal.body()),
                Ok(plan) => {
                    if let Some(first) = plan.records.first() {
                        commands::lock_subscription(&mut tx, first.subscription_id).await?;
                    }
                    let meta = commands::biller_meta(NATIVE_BILLER, Some(&buyer.tenant), None);
                    let submission =
                        Submission { records: plan.records.clone(), start: plan.start.clone(), meta, approves: None };
                    commands::apply_in(&mut tx, &state.store, &submission).await?;
                    if let Some((member_id, subscription_id)) = &plan.welcome {
                        sqlx::query(
                            "insert into signup (signup_id, user_id, email, username, site, join_option_id, biller, status,
                                 member_id, subscription_id, transaction_id, decided_at)
                             values ($1, $2, '', $3, $4, $5, $6, 'approved', $7, $8, $7, now())",
                        )
                        .bind(Uuid::now_v7())
                        .bind(buyer.user_id)
                        .bind(&buyer.username)
                        .bind(&buyer.tenant)
                        .bind(plan.start.as_ref().and_then(|s| s.join_option_id).unwrap_or(0) as i32)
                        .bind(NATIVE_BILLER)
                        .bind(member_id)
                        .bind(subscription_id)
                        .execute(&mut *tx)
                        .await?;
                    }
                    (200, serde_json::to_value(&plan.answer).expect("json"))
                }
            };
            sqlx::query("update purchase set status = $2, answer = $3 where idempotency_key = $1")
                .bind(key)
                .bind(status as i16)
                .bind(&answer)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok((status, answer))
        }
        .await;
        match result {
            Err(e) if retry.worth(&e) => retry.wait().await,
            Ok(answer) => {
                state.store.wake_relay();
                metrics::counter!("paysite_purchases_total", "kind" => kind).increment(1);
                return Ok(answer);
            }
            Err(e) => return Err(e),
        }
    }
}

async fn own_subscriptions(conn: &mut PgConnection, user: Uuid) -> Result<Vec<SubscriptionRow>, sqlx::Error> {
    sqlx::query_as(
        "select subscription_id, user_id, site, sites, kind, is_free_limited_trial, biller, active_since, join_date,
             active, cancelled, ended, ended_at, nats_code, updated_at
         from member_subscription where user_id = $1 order by updated_at desc",
    )
    .bind(user)
    .fetch_all(conn)
    .await
}

fn new_subscription(
    state: &State,
    buyer: &Buyer,
    reference: &str,
    site: &str,
    nats: Option<String>,
    join_option_id: u32,
    step: Step,
) -> (FactRecord, Start) {
    let subscription_id = commands::subscription_id_of(NATIVE_BILLER, reference);
    let record = native_fact(
        subscription_id,
        reference,
        reference.to_owned(),
        Utc::now(),
        step,
        &json!({ "joinOptionId": join_option_id }),
    );
    let start = Start {
        identity: Identity {
            subscription_id,
            user_id: buyer.user_id,
            site: site.to_owned(),
            sites: state.config.sites_of(site),
            biller: NATIVE_BILLER.to_owned(),
            nats_code: nats,
        },
        join_option_id: Some(join_option_id),
    };
    (record, start)
}

pub async fn multisite(state: &State, buyer: &Buyer, r: &MultisitePurchase) -> Result<(u16, Value), StoreError> {
    let body = serde_json::to_value(r).expect("json");
    run(state, buyer, "multisite", &r.idempotency_key, r.consent, &body, |_conn, reference| {
        let (state, buyer, r) = (state.clone(), buyer.clone(), r.clone());
        Box::pin(async move {
            let Some(option) = state.config.join_option(r.option_id) else {
                return Ok(Err(PurchaseRefusal::InvalidJoinOption));
            };
            if state.config.package(&option.site).is_none() {
                return Ok(Err(PurchaseRefusal::InvalidJoinOption));
            }
            let step = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
            let (record, start) = new_subscription(
                &state,
                &buyer,
                &reference,
                &option.site,
                r.multisite_nats_code.clone(),
                option.id,
                step,
            );
            let hashed = crate::joins::hashed_member_id(&state.config, NATIVE_BILLER, &reference);
            let subscription_id = start.identity.subscription_id;
            Ok(Ok(Plan {
                records: vec![record],
                start: Some(start),
                answer: PurchaseAnswer {
                    success: true,
                    location: None,
                    username: buyer.username.clone(),
                    member_id: Some(reference.clone()),
                    hashed_member_id: hashed,
                },
                welcome: Some((reference, subscription_id)),
            }))
        })
    })
    .await
}

pub async fn singlesite(state: &State, buyer: &Buyer, r: &SinglesitePurchase) -> Result<(u16, Value), StoreError> {
    let body = serde_json::to_value(r).expect("json");
    run(state, buyer, "singlesite", &r.idempotency_key, r.consent, &body, |conn, reference| {
        let (state, buyer, r) = (state.clone(), buyer.clone(), r.clone());
        Box::pin(async move {
            let Some(option) = state.config.join_option(r.join_option_id) else {
                return Ok(Err(PurchaseRefusal::InvalidJoinOption));
            };
            if option.site != r.site_name || !state.config.site_ids.contains_key(&r.site_name) {
                return Ok(Err(PurchaseRefusal::MembershipUnavailable));
            }
            let subs = own_subscriptions(conn, buyer.user_id).await?;
            let answer = PurchaseAnswer { success: true, location: None, ..Default::default() };
            // A cancelled or expired membership of the site is taken up again; else a new one.
            let lapsed = subs.iter().find(|s| {
                // The single site's own membership only: a single-site price must not bring back
                // a lapsed multisite package.
                s.kind != "porn-portal"
                    && s.site == r.site_name
                    && s.sites.len() == 1
                    && (s.cancelled || !s.active)
                    && !matches!(s.ended.as_deref(), Some("charged_back" | "refunded"))
            });
            if let Some(s) = lapsed {
                let record = native_fact(
                    s.subscription_id,
                    &reference,
                    reference.clone(),
                    Utc::now(),
                    Step::Reactivation { retention_offer_name: None, offered_gems: 0 },
                    &json!({ "joinOptionId": option.id }),
                );
                return Ok(Ok(Plan { records: vec![record], start: None, answer, welcome: None }));
            }
            let kind = if option.kind == "trial" { MembershipKind::Trial } else { MembershipKind::Member };
            let step = Step::Initial { kind, free_limited_trial: option.free_limited_trial };
            let (record, start) =
                new_subscription(&state, &buyer, &reference, &option.site, r.nats_code.clone(), option.id, step);
            Ok(Ok(Plan { records: vec![record], start: Some(start), answer, welcome: None }))
        })
    })
    .await
}

pub async fn trial_upgrade(state: &State, buyer: &Buyer, r: &TrialUpgradePurchase) -> Result<(u16, Value), StoreError> {
    let body = serde_json::to_value(r).expect("json");
    let kind = if r.welcome_page { "trial-upgrade-welcome" } else { "trial-upgrade" };
    run(state, buyer, kind, &r.idempotency_key, r.consent, &body, |conn, reference| {
        let (state, buyer, r) = (state.clone(), buyer.clone(), r.clone());
        Box::pin(async move {
            let subs = own_subscriptions(conn, buyer.user_id).await?;
            let trial = subs
                .iter()
                .filter(|s| s.active && s.kind == "trial")
                .find(|s| s.sites.contains(&buyer.tenant))
                .or_else(|| subs.iter().find(|s| s.active && s.kind == "trial"));
            let Some(trial) = trial else { return Ok(Err(PurchaseRefusal::NoTrial)) };
            let pricing = &state.config.trial_upgrade;
            let record = native_fact(
                trial.subscription_id,
                &reference,
                reference.clone(),
                Utc::now(),
                Step::TrialConversion,
                &json!({ "price": pricing.price, "currency": pricing.currency, "memberId": r.member_id }),
            );
            let answer = PurchaseAnswer { success: true, location: None, ..Default::default() };
            Ok(Ok(Plan { records: vec![record], start: None, answer, welcome: None }))
        })
    })
    .await
}

pub async fn credits(state: &State, buyer: &Buyer, r: &CreditsPurchase) -> Result<(u16, Value), StoreError> {
    let body = serde_json::to_value(r).expect("json");
    run(state, buyer, "credits", &r.idempotency_key, r.consent, &body, |conn, reference| {
        let (state, buyer, r) = (state.clone(), buyer.clone(), r.clone());
        Box::pin(async move {
            let Some(pack) = state.config.credit_packs.iter().find(|p| p.id == r.pack_id) else {
                return Ok(Err(PurchaseRefusal::UnknownPack));
            };
            let subs = own_subscriptions(conn, buyer.user_id).await?;
            let step = Step::CreditsPurchase { credits: pack.credits };
            let answer = PurchaseAnswer { success: true, location: None, ..Default::default() };
            let body = json!({ "packId": pack.id, "price": pack.price, "currency": pack.currency });
            if let Some(portal) = subs.iter().find(|s| s.kind == "porn-portal" && s.biller == NATIVE_BILLER) {
                let record =
                    native_fact(portal.subscription_id, &reference, reference.clone(), Utc::now(), step, &body);
                return Ok(Ok(Plan { records: vec![record], start: None, answer, welcome: None }));
            }
            // The first pack opens the user's porn-portal subscription at the native biller.
            let portal_ref = format!("RGN-PORTAL-{}", buyer.user_id);
            let (mut initial, start) = new_subscription(
                &state,
                &buyer,
                &portal_ref,
                &buyer.tenant,
                None,
                0,
                Step::Initial { kind: MembershipKind::PornPortal, free_limited_trial: false },
            );
            initial.fact.transaction_id = format!("{reference}#portal");
            let purchase =
                native_fact(start.identity.subscription_id, &portal_ref, reference.clone(), Utc::now(), step, &body);
            Ok(Ok(Plan {
                records: vec![initial, purchase],
                start: Some(Start { join_option_id: None, ..start }),
                answer,
                welcome: None,
            }))
        })
    })
    .await
}
