//! The wallet's debit, over its internal HTTP API (`POST /internal/wallets/{user}/debits`),
//! through the runtime's one internal client: the service token, the tenant, the unlock's
//! correlation id and the trace context go with it, so a pack unlock's trace runs on into the
//! wallet.
//!
//! The unlock id is the idempotency key: the same debit sent again (a retry, a joined
//! request, the reconciler) debits once and answers the first receipt, so the debit is an
//! idempotent call, retried by the client's one policy.

use std::time::Duration;

use proto_events::wallet::Asset;
use runtime::client::{CallContext, Upstream, UpstreamError};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Clone, Debug)]
pub struct WalletClient {
    upstream: Upstream,
}

#[derive(Debug, Serialize)]
struct DebitRequest<'a> {
    asset: Asset,
    amount: u64,
    idempotency_key: &'a str,
    reason: &'a str,
}

/// The wallet's receipt of a debit.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub balance_after: u64,
}

/// The wallet's answer to a debit it did not make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotEnoughGems {
        balance: u64,
        needed: u64,
        days_until_refresh_gems: u32,
    },
    NotEnoughCredits {
        balance: u64,
        needed: u64,
    },
    /// Any other refusal (`IDEMPOTENCY_KEY_REUSED`, `INVALID_REQUEST`): sending it again will not help.
    Other {
        code: String,
        message: String,
    },
}

/// The debit's outcome is unknown: the wallet could not be reached or failed. Sending the
/// same debit again is safe.
#[derive(Debug, thiserror::Error)]
#[error("the wallet did not answer the debit: {0}")]
pub struct Unavailable(pub String);

/// The extra fields of the wallet's refusal of a debit.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RefusalFields {
    #[serde(default)]
    balance: u64,
    #[serde(default)]
    needed: u64,
    #[serde(default)]
    days_until_refresh_gems: u32,
}

impl WalletClient {
    /// The wallet at `base`; each try of a debit times out after `timeout` (see
    /// [`runtime::client::worst_case`] for the whole debit's).
    pub fn new(base: impl Into<String>, timeout: Duration) -> Self {
        WalletClient { upstream: Upstream::new("wallet", base, timeout) }
    }

    /// Debits `amount` of `asset` under `unlock_id`, tried again while the wallet is busy or
    /// unreachable (same key, so never twice). `call` carries the tenant and the correlation
    /// id; never a user's token: the debit is the unlocks service's step (the reconciler sends
    /// it again), so it goes with the service's token, which the wallet trusts to name the user.
    #[tracing::instrument(name = "wallet_debit", skip(self, call))]
    pub async fn debit(
        &self,
        user_id: Uuid,
        asset: Asset,
        amount: u32,
        unlock_id: Uuid,
        call: &CallContext,
    ) -> Result<Result<Receipt, Refusal>, Unavailable> {
        let reason = match asset {
            Asset::Gems => "pack_unlock",
            Asset::Credits => "video_unlock",
        };
        let key = unlock_id.to_string();
        let body = DebitRequest { asset, amount: amount as u64, idempotency_key: &key, reason };
        let call = CallContext { bearer: None, ..call.clone() };
        match self.upstream.post_idempotent(&format!("/internal/wallets/{user_id}/debits"), &body, &call).await {
            Ok(receipt) => Ok(Ok(receipt)),
            // Unanswered, failed, busy or throttled, after the client's tries: not known to be
            // made or not, so the unlock stays pending for the reconciler.
            Err(e) if e.is_transient() => Err(Unavailable(e.to_string())),
            // Any other 4xx was not made and will not be made by sending it again, even
            // without the wallet's JSON body (a proxy's 404, a 413): a refusal, so the unlock
            // is given up instead of staying pending forever.
            Err(UpstreamError::Refused { code, message, body, .. }) => {
                let fields: RefusalFields = serde_json::from_value(body).unwrap_or_default();
                Ok(Err(match code.as_str() {
                    "NOT_ENOUGH_GEMS" => Refusal::NotEnoughGems {
                        balance: fields.balance,
                        needed: fields.needed,
                        days_until_refresh_gems: fields.days_until_refresh_gems,
                    },
                    "NOT_ENOUGH_CREDITS" => {
                        Refusal::NotEnoughCredits { balance: fields.balance, needed: fields.needed }
                    }
                    _ => Refusal::Other { code, message },
                }))
            }
            Err(e @ UpstreamError::Unavailable { .. }) => Err(Unavailable(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::post;

    async fn wallet_answering(status: u16, body: &'static str) -> String {
        let app = axum::Router::new().route(
            "/internal/wallets/{user}/debits",
            post(move || async move { (axum::http::StatusCode::from_u16(status).unwrap(), body) }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{addr}")
    }

    #[tokio::test]
    async fn a_4xx_without_a_json_body_is_a_refusal_and_a_429_is_unavailable() {
        let client = WalletClient::new(wallet_answering(404, "not found").await, Duration::from_secs(5));
        let answer = client.debit(Uuid::nil(), Asset::Gems, 10, Uuid::from_u128(1), &CallContext::system()).await;
        assert!(matches!(answer, Ok(Err(Refusal::Other { ref code, .. })) if code == "HTTP_404"), "{answer:?}");
        let client = WalletClient::new(wallet_answering(429, "slow down").await, Duration::from_secs(5));
        let answer = client.debit(Uuid::nil(), Asset::Gems, 10, Uuid::from_u128(1), &CallContext::system()).await;
        assert!(answer.is_err(), "{answer:?}");
    }
}
