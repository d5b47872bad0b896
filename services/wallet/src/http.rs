//! The internal HTTP API: the unlocks service debits, the gateway reads and acknowledges.
//!
//! Requests are JSON in snake_case; answers use the spec's names (`daysUntilRefreshGems`,
//! `lastAcknowledgementDate`, `transactionType`, ...), so the gateway passes them through.
//! Every refusal is `{code, message, ...}` with a SCREAMING_SNAKE code.

use axum::{
    extract::{rejection::JsonRejection, rejection::PathRejection, rejection::QueryRejection, Path, Query, State},
    http::HeaderMap,
    Extension, Json, Router,
};
use proto_events::wallet::{Asset, CreditsDebitReason, GemsDebitReason};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Gate, Route, ServeRoute};
use runtime::http::CorrelationId;
use uuid::Uuid;

use crate::domain::{may_show_gems_modal, Command};
use crate::error::ApiError;
use crate::{queries, routes, State as WalletState};

pub use crate::api::{
    AcknowledgeResponse, Amount, DebitRequest, DebitResponse, GemsBalanceResponse, GemsState, TransactionView,
    TransactionsQuery, TransactionsResponse, WalletBalance,
};

/// The brand a request is made on, when the caller knows it.
pub const TENANT_HEADER: &str = "x-paysite-tenant";
/// Largest amount one debit may take.
pub const MAX_DEBIT: u64 = 1_000_000;
/// Longest idempotency key.
pub const MAX_KEY_LEN: usize = 200;
/// Transactions answered when the caller names no limit, and at most.
pub const DEFAULT_TRANSACTIONS: i64 = 200;
pub const MAX_TRANSACTIONS: i64 = 1_000;

pub fn router(state: WalletState) -> Router {
    let router = Router::new()
        .serve(&routes::DEBIT, debit)
        .serve(&routes::GEMS_BALANCE, gems_balance)
        .serve(&routes::TRANSACTIONS, transactions)
        .serve(&routes::ACKNOWLEDGE_NEW_GEMS_BALANCE, acknowledge_new_gems_balance);
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]).
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

fn user_meta(user_id: Uuid, correlation: Option<Extension<CorrelationId>>, headers: &HeaderMap) -> EventMeta {
    let mut meta = EventMeta::new(Actor::User(user_id));
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    if let Some(tenant) = headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok()).filter(|t| !t.is_empty()) {
        meta = meta.with_tenant(tenant);
    }
    meta
}

#[tracing::instrument(name = "debit", skip_all)]
async fn debit(
    State(state): State<WalletState>,
    user_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
    body: Result<Json<DebitRequest>, JsonRejection>,
) -> Result<Json<DebitResponse>, ApiError> {
    let Path(user_id) = user_id?;
    let Json(request) = body?;
    if request.idempotency_key.is_empty() || request.idempotency_key.len() > MAX_KEY_LEN {
        return Err(ApiError::Invalid(format!("idempotency_key must have 1 to {MAX_KEY_LEN} characters")));
    }
    if !(1..=MAX_DEBIT).contains(&request.amount) {
        return Err(ApiError::Invalid(format!("amount must be between 1 and {MAX_DEBIT}")));
    }
    let reason_for = |asset: Asset| format!("{} cannot be debited for {:?}", asset.as_str(), request.reason);
    let command = match request.asset {
        Asset::Gems => Command::DebitGems {
            idempotency_key: request.idempotency_key.clone(),
            amount: request.amount,
            reason: match request.reason.as_str() {
                r if r == GemsDebitReason::PackUnlock.as_str() => GemsDebitReason::PackUnlock,
                _ => return Err(ApiError::Invalid(reason_for(Asset::Gems))),
            },
            channel_pack_id: request
                .channel_pack_id
                .ok_or_else(|| ApiError::Invalid("channel_pack_id is required for a gems debit".into()))?,
            days_until_refresh_gems: state.config.calendar.days_until_refresh_gems(state.clock.now()),
        },
        Asset::Credits => Command::DebitCredits {
            idempotency_key: request.idempotency_key.clone(),
            amount: request.amount,
            reason: match request.reason.as_str() {
                r if r == CreditsDebitReason::VideoUnlock.as_str() => CreditsDebitReason::VideoUnlock,
                _ => return Err(ApiError::Invalid(reason_for(Asset::Credits))),
            },
        },
    };
    let meta = user_meta(user_id, correlation, &headers);
    let outcome = state.ledger.submit(user_id, command, meta).await??;
    let receipt = outcome
        .receipt(&request.idempotency_key)
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("an accepted debit left no receipt")))?;
    Ok(Json(DebitResponse {
        idempotency_key: request.idempotency_key,
        asset: receipt.asset,
        amount: receipt.amount,
        reason: receipt.reason.to_owned(),
        balance_after: receipt.balance_after,
    }))
}

#[tracing::instrument(name = "gems_balance", skip_all)]
async fn gems_balance(
    State(state): State<WalletState>,
    user_id: Result<Path<Uuid>, PathRejection>,
) -> Result<Json<GemsBalanceResponse>, ApiError> {
    let Path(user_id) = user_id?;
    let balances = queries::balances(&state.pool, user_id).await?;
    let now = state.clock.now();
    Ok(Json(GemsBalanceResponse {
        days_until_refresh_gems: state.config.calendar.days_until_refresh_gems(now),
        gems: GemsState {
            last_acknowledgement_date: balances.last_acknowledged_at,
            has_new_gems: balances.gems_unacknowledged,
            may_show_gems_modal: may_show_gems_modal(balances.last_acknowledged_at, now),
        },
        wallet: WalletBalance { balance: Amount { amount: balances.gems as u64 } },
        pay_per_video_credits: balances.credits as u64,
        weekly_gems: state.config.weekly_gems,
    }))
}

#[tracing::instrument(name = "transactions", skip_all)]
async fn transactions(
    State(state): State<WalletState>,
    user_id: Result<Path<Uuid>, PathRejection>,
    query: Result<Query<TransactionsQuery>, QueryRejection>,
) -> Result<Json<TransactionsResponse>, ApiError> {
    let Path(user_id) = user_id?;
    let Query(query) = query?;
    let limit = query.limit.unwrap_or(DEFAULT_TRANSACTIONS);
    if !(1..=MAX_TRANSACTIONS).contains(&limit) {
        return Err(ApiError::Invalid(format!("limit must be between 1 and {MAX_TRANSACTIONS}")));
    }
    let rows = queries::transactions(&state.pool, user_id, query.since, limit).await?;
    let transactions = rows
        .into_iter()
        .map(|t| TransactionView {
            amount: t.amount as u64,
            currency: t.currency,
            created_at: t.created_at,
            transaction_type: t.transaction_type,
            transaction_reason: t.transaction_reason,
            reference: t.reference,
            balance_after: t.balance_after as u64,
        })
        .collect();
    Ok(Json(TransactionsResponse { transactions }))
}

#[tracing::instrument(name = "acknowledge_new_gems_balance", skip_all)]
async fn acknowledge_new_gems_balance(
    State(state): State<WalletState>,
    user_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    headers: HeaderMap,
) -> Result<Json<AcknowledgeResponse>, ApiError> {
    let Path(user_id) = user_id?;
    let command = Command::AcknowledgeNewGemsBalance { now: state.clock.now() };
    let outcome = state.ledger.submit(user_id, command, user_meta(user_id, correlation, &headers)).await??;
    Ok(Json(AcknowledgeResponse {
        last_acknowledgement_date: outcome.wallet.last_acknowledged_at(),
        recorded: !outcome.events.is_empty(),
    }))
}
