//! The wallet's internal API as the gateway and the unlocks service call it.

use runtime::client::{CallContext, Upstream, UpstreamError};
use uuid::Uuid;

use crate::api::{AcknowledgeResponse, DebitResponse, GemsBalanceResponse, TransactionsResponse};

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
        self.upstream.get(&format!("/internal/wallets/{user}/gems-balance"), &[], ctx).await
    }

    /// Transactions newest first, since `since` when given.
    pub async fn transactions(
        &self,
        user: Uuid,
        since: Option<chrono::DateTime<chrono::Utc>>,
        ctx: &CallContext,
    ) -> Result<TransactionsResponse, UpstreamError> {
        let query: Vec<(&str, String)> = since.map(|s| ("since", s.to_rfc3339())).into_iter().collect();
        self.upstream.get(&format!("/internal/wallets/{user}/transactions"), &query, ctx).await
    }

    pub async fn acknowledge_new_gems_balance(
        &self,
        user: Uuid,
        ctx: &CallContext,
    ) -> Result<AcknowledgeResponse, UpstreamError> {
        self.upstream.post(&format!("/internal/wallets/{user}/acknowledge-new-gems-balance"), &(), ctx).await
    }

    /// A debit; the same idempotency key answers the same, so a caller may retry it.
    pub async fn debit(
        &self,
        user: Uuid,
        request: &DebitRequest,
        ctx: &CallContext,
    ) -> Result<DebitResponse, UpstreamError> {
        self.upstream.post(&format!("/internal/wallets/{user}/debits"), request, ctx).await
    }
}
