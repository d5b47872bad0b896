//! The wallet's debit, over its internal HTTP API (`POST /internal/wallets/{user}/debits`).
//!
//! The unlock id is the idempotency key: the same debit sent again (a retry, a joined
//! request, the reconciler) debits once and answers the first receipt.

use std::time::Duration;

use proto_events::wallet::Asset;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Clone)]
pub struct WalletClient {
    base: String,
    http: reqwest::Client,
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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefusalBody {
    code: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    balance: u64,
    #[serde(default)]
    needed: u64,
    #[serde(default)]
    days_until_refresh_gems: u32,
}

/// Tries of one debit, and the pause before the n-th (n >= 1).
const TRIES: u32 = 3;
fn pause(attempt: u32) -> Duration {
    Duration::from_millis(100 << attempt)
}

/// The longest one [`WalletClient::debit`] can take with a per-call `timeout`: every try
/// timing out, plus the pauses (30.6 s with 10 s).
pub fn worst_case(timeout: Duration) -> Duration {
    timeout * TRIES + (1..TRIES).map(pause).sum::<Duration>()
}

impl WalletClient {
    pub fn new(base: impl Into<String>, timeout: Duration) -> Self {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(Duration::from_secs(2))
            .build()
            .expect("http client");
        WalletClient { base: base.into().trim_end_matches('/').to_owned(), http }
    }

    /// Debits `amount` of `asset` under `unlock_id`, retrying a couple of times when the
    /// wallet is busy or unreachable (same key, so never twice).
    #[tracing::instrument(name = "wallet_debit", skip(self, tenant))]
    pub async fn debit(
        &self,
        user_id: Uuid,
        asset: Asset,
        amount: u32,
        unlock_id: Uuid,
        tenant: Option<&str>,
    ) -> Result<Result<Receipt, Refusal>, Unavailable> {
        let reason = match asset {
            Asset::Gems => "pack_unlock",
            Asset::Credits => "video_unlock",
        };
        let key = unlock_id.to_string();
        let body = DebitRequest { asset, amount: amount as u64, idempotency_key: &key, reason };
        let url = format!("{}/internal/wallets/{user_id}/debits", self.base);
        let mut last = String::new();
        for attempt in 0..TRIES {
            if attempt > 0 {
                tokio::time::sleep(pause(attempt)).await;
            }
            // The debit is the unlocks service's step (the reconciler sends it again), so it
            // goes with the service's token: the wallet trusts it to name the user.
            let mut request = runtime::client::with_caller(self.http.post(&url).json(&body), None, "wallet");
            if let Some(tenant) = tenant {
                request = request.header(runtime::auth::TENANT_HEADER, tenant);
            }
            let response = match request.send().await {
                Ok(r) => r,
                Err(e) => {
                    last = e.to_string();
                    continue;
                }
            };
            let status = response.status();
            if status.is_success() {
                return response.json::<Receipt>().await.map(Ok).map_err(|e| Unavailable(e.to_string()));
            }
            if status.is_server_error() {
                last = format!("{status}");
                continue;
            }
            // Busy or throttled: the debit was not made, sending it again may work.
            if status == reqwest::StatusCode::REQUEST_TIMEOUT || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
                last = format!("{status}");
                continue;
            }
            // Any other 4xx was not made and will not be made by sending it again, even
            // without the wallet's JSON body (a proxy's 404, a 413): a refusal, so the unlock
            // is given up instead of staying pending forever.
            let refusal: RefusalBody = match response.json().await {
                Ok(b) => b,
                Err(_) => RefusalBody {
                    code: format!("HTTP_{}", status.as_u16()),
                    message: status.canonical_reason().unwrap_or("refused").to_owned(),
                    balance: 0,
                    needed: 0,
                    days_until_refresh_gems: 0,
                },
            };
            return Ok(Err(match refusal.code.as_str() {
                "NOT_ENOUGH_GEMS" => Refusal::NotEnoughGems {
                    balance: refusal.balance,
                    needed: refusal.needed,
                    days_until_refresh_gems: refusal.days_until_refresh_gems,
                },
                "NOT_ENOUGH_CREDITS" => Refusal::NotEnoughCredits { balance: refusal.balance, needed: refusal.needed },
                _ => Refusal::Other { code: refusal.code, message: refusal.message },
            }));
        }
        Err(Unavailable(last))
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
        let answer = client.debit(Uuid::nil(), Asset::Gems, 10, Uuid::from_u128(1), None).await;
        assert!(matches!(answer, Ok(Err(Refusal::Other { ref code, .. })) if code == "HTTP_404"), "{answer:?}");
        let client = WalletClient::new(wallet_answering(429, "slow down").await, Duration::from_secs(5));
        let answer = client.debit(Uuid::nil(), Asset::Gems, 10, Uuid::from_u128(1), None).await;
        assert!(answer.is_err(), "{answer:?}");
    }

    #[test]
    fn the_worst_case_is_every_try_timing_out_plus_the_pauses() {
        assert_eq!(worst_case(Duration::from_secs(10)), Duration::from_millis(30_600));
    }
}
