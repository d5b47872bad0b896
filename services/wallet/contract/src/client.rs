//! The wallet's internal API as the gateway and the unlocks service call it.

use runtime::client::{CallContext, Upstream, UpstreamError};
use uuid::Uuid;

use crate::api::{
    AcknowledgeResponse, DebitResponse, GemsBalanceResponse, NotEnoughCredits, NotEnoughGems, TransactionsResponse,
    NOT_ENOUGH_CREDITS, NOT_ENOUGH_GEMS,
};
use crate::routes;

pub use crate::api::DebitRequest;

#[derive(Clone, Debug)]
pub struct WalletClient {
    upstream: Upstream,
}

impl WalletClient {
    pub fn new(upstream: Upstream) -> Self {
        WalletClient { upstream }
    }

    /// The wallet at `PAYSITE_WALLET_URL`, else port 8103 on this machine.
    pub fn from_env() -> Self {
        Self::new(Upstream::from_env("wallet", crate::api::PORT))
    }

    pub async fn gems_balance(&self, user: Uuid, ctx: &CallContext) -> Result<GemsBalanceResponse, UpstreamError> {
        self.upstream.get(&routes::GEMS_BALANCE.path_with(&[&user]), &[], ctx).await
    }

    /// Transactions newest first, since `since` when given.
    pub async fn transactions(
        &self,
        user: Uuid,
        since: Option<chrono::DateTime<chrono::Utc>>,
        ctx: &CallContext,
    ) -> Result<TransactionsResponse, UpstreamError> {
        let query: Vec<(&str, String)> = since.map(|s| ("since", s.to_rfc3339())).into_iter().collect();
        self.upstream.get(&routes::TRANSACTIONS.path_with(&[&user]), &query, ctx).await
    }

    pub async fn acknowledge_new_gems_balance(
        &self,
        user: Uuid,
        ctx: &CallContext,
    ) -> Result<AcknowledgeResponse, UpstreamError> {
        self.upstream.post(&routes::ACKNOWLEDGE_NEW_GEMS_BALANCE.path_with(&[&user]), &(), ctx).await
    }

    /// Debits `request.amount` of `request.asset` from `user`'s wallet under
    /// `request.idempotency_key`, tried again while the wallet is busy or unreachable (the same
    /// key is debited once, and every try answers the first receipt).
    ///
    /// A debit is a service's own step (the unlocks service, its reconciler sending it again),
    /// never a user's: it goes with this process's service token, which the wallet trusts to
    /// name the user; `ctx` gives only the tenant and the correlation id.
    #[tracing::instrument(
        name = "wallet_debit",
        skip(self, request, ctx),
        fields(asset = ?request.asset, amount = request.amount, key = %request.idempotency_key)
    )]
    pub async fn debit(
        &self,
        user_id: Uuid,
        request: &DebitRequest,
        ctx: &CallContext,
    ) -> Result<Result<DebitResponse, DebitRefusal>, DebitUnanswered> {
        let ctx = CallContext { bearer: None, ..ctx.clone() };
        match self.upstream.post_idempotent(&routes::DEBIT.path_with(&[&user_id]), request, &ctx).await {
            Ok(receipt) => Ok(Ok(receipt)),
            // Unanswered, failed, busy or throttled after the client's tries: not known to be
            // made or not.
            Err(e) if e.is_transient() => Err(DebitUnanswered(e)),
            // Any other 4xx was not made and will not be made by sending it again, even without
            // the wallet's JSON body (a proxy's 404, a 413).
            Err(UpstreamError::Refused { code, message, body, .. }) => {
                Ok(Err(DebitRefusal::from_answer(code, message, body)))
            }
            Err(e @ UpstreamError::Unavailable { .. }) => Err(DebitUnanswered(e)),
        }
    }
}

/// A debit the wallet did not make, and will not make if it is sent again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebitRefusal {
    NotEnoughGems(NotEnoughGems),
    NotEnoughCredits(NotEnoughCredits),
    /// Any other refusal (`IDEMPOTENCY_KEY_REUSED`, `INVALID_REQUEST`, a proxy's `HTTP_404`).
    Other {
        code: String,
        message: String,
    },
}

impl DebitRefusal {
    /// The refusal `code` with its `message` and the amounts it names (a code that names none
    /// drops them): the wallet's answer, or what a caller kept of it.
    pub fn from_parts(code: String, message: String, balance: u64, needed: u64, days_until_refresh_gems: u32) -> Self {
        match code.as_str() {
            NOT_ENOUGH_GEMS => DebitRefusal::NotEnoughGems(NotEnoughGems { balance, needed, days_until_refresh_gems }),
            NOT_ENOUGH_CREDITS => DebitRefusal::NotEnoughCredits(NotEnoughCredits { balance, needed }),
            _ => DebitRefusal::Other { code, message },
        }
    }

    /// The refusal the wallet answered: `code`, `message` and the rest of its JSON `body`
    /// (missing or unreadable amounts read as 0).
    fn from_answer(code: String, message: String, body: serde_json::Value) -> Self {
        // The gems refusal's fields are a superset of the credits refusal's.
        let fields: NotEnoughGems = serde_json::from_value(body).unwrap_or_default();
        Self::from_parts(code, message, fields.balance, fields.needed, fields.days_until_refresh_gems)
    }

    /// The wallet's code of the refusal.
    pub fn code(&self) -> &str {
        match self {
            DebitRefusal::NotEnoughGems(_) => NOT_ENOUGH_GEMS,
            DebitRefusal::NotEnoughCredits(_) => NOT_ENOUGH_CREDITS,
            DebitRefusal::Other { code, .. } => code,
        }
    }
}

/// A debit whose outcome is unknown: the wallet was not reached, failed, or stayed busy
/// through the client's tries. Sending the same debit again is safe.
#[derive(Clone, Debug)]
pub struct DebitUnanswered(pub UpstreamError);

impl std::fmt::Display for DebitUnanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the wallet did not answer the debit: {}", self.0)
    }
}

impl std::error::Error for DebitUnanswered {}

#[cfg(test)]
mod tests {
    use super::*;
    use proto_events::wallet::Asset;
    use runtime::auth::ServeRoute;
    use std::time::Duration;

    async fn wallet_answering(status: u16, body: &'static str) -> WalletClient {
        let app = axum::Router::new().serve(&routes::DEBIT, move || async move {
            (
                axum::http::StatusCode::from_u16(status).unwrap(),
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                body,
            )
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        WalletClient::new(Upstream::new("wallet", format!("http://{addr}"), Duration::from_secs(5)))
    }

    fn request() -> DebitRequest {
        DebitRequest {
            asset: Asset::Gems,
            amount: 10,
            idempotency_key: Uuid::from_u128(1).to_string(),
            reason: "pack_unlock".into(),
            channel_pack_id: Some(Uuid::from_u128(0xc7)),
        }
    }

    #[tokio::test]
    async fn a_4xx_without_a_json_body_is_a_refusal_and_a_429_is_unanswered() {
        let client = wallet_answering(404, "not found").await;
        let answer = client.debit(Uuid::nil(), &request(), &CallContext::system()).await;
        assert!(matches!(answer, Ok(Err(DebitRefusal::Other { ref code, .. })) if code == "HTTP_404"), "{answer:?}");
        let client = wallet_answering(429, "slow down").await;
        let answer = client.debit(Uuid::nil(), &request(), &CallContext::system()).await;
        assert!(answer.is_err(), "{answer:?}");
    }

    #[tokio::test]
    async fn a_refusal_for_want_of_funds_carries_its_amounts() {
        let client = wallet_answering(
            409,
            r#"{"code":"NOT_ENOUGH_GEMS","message":"no","balance":5,"needed":10,"daysUntilRefreshGems":3}"#,
        )
        .await;
        let answer = client.debit(Uuid::nil(), &request(), &CallContext::system()).await.unwrap();
        let gems = NotEnoughGems { balance: 5, needed: 10, days_until_refresh_gems: 3 };
        assert_eq!(answer, Err(DebitRefusal::NotEnoughGems(gems)));
        let client =
            wallet_answering(409, r#"{"code":"NOT_ENOUGH_CREDITS","message":"no","balance":1,"needed":2}"#).await;
        let answer = client.debit(Uuid::nil(), &request(), &CallContext::system()).await.unwrap();
        assert_eq!(answer, Err(DebitRefusal::NotEnoughCredits(NotEnoughCredits { balance: 1, needed: 2 })));
        assert_eq!(answer.unwrap_err().code(), NOT_ENOUGH_CREDITS);
    }
}
