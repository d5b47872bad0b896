//! Request and answer shapes of the wallet's internal API, shared by the service's handlers and
//! the typed client ([`crate::client`]).

use chrono::{DateTime, Utc};
use proto_events::wallet::Asset;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The port the service listens on by default (`PAYSITE_WALLET_URL` overrides the address).
pub const PORT: u16 = 8103;

#[derive(Debug, Serialize, Deserialize)]
pub struct DebitRequest {
    pub asset: Asset,
    pub amount: u64,
    #[serde(alias = "idempotencyKey")]
    pub idempotency_key: String,
    /// `pack_unlock` for gems, `video_unlock` for credits.
    pub reason: String,
    /// The channel pack a gems debit pays for (required for gems, recorded in `GemsDebited`).
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "channelPackId")]
    pub channel_pack_id: Option<Uuid>,
}

/// The answer to a debit, the same for the first call and every retry with its key.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DebitResponse {
    pub idempotency_key: String,
    pub asset: Asset,
    pub amount: u64,
    pub reason: String,
    pub balance_after: u64,
}

/// The code of a debit refused for want of gems (409); the body carries [`NotEnoughGems`].
pub const NOT_ENOUGH_GEMS: &str = "NOT_ENOUGH_GEMS";
/// The code of a debit refused for want of credits (409); the body carries [`NotEnoughCredits`].
pub const NOT_ENOUGH_CREDITS: &str = "NOT_ENOUGH_CREDITS";

/// What a `NOT_ENOUGH_GEMS` refusal says next to its `code` and `message`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", default)]
pub struct NotEnoughGems {
    pub balance: u64,
    pub needed: u64,
    pub days_until_refresh_gems: u32,
}

/// What a `NOT_ENOUGH_CREDITS` refusal says next to its `code` and `message`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", default)]
pub struct NotEnoughCredits {
    pub balance: u64,
    pub needed: u64,
}

/// The wallet's part of getGemsBalance (the unlocks service adds percentageOfUnlockedChannelPacks).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct GemsBalanceResponse {
    pub days_until_refresh_gems: u32,
    pub gems: GemsState,
    pub wallet: WalletBalance,
    pub pay_per_video_credits: u64,
    /// The gems each earning site subscription receives a week (product.md, "Gems and the wallet": 10 every Friday; the
    /// wallet's `WALLET_WEEKLY_GEMS`), so the front end shows the amount the wallet grants.
    pub weekly_gems: u64,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct GemsState {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
    /// Gems arrived since the last acknowledgement.
    pub has_new_gems: bool,
    /// The gems modal may show: it shows at most once a day.
    pub may_show_gems_modal: bool,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct WalletBalance {
    pub balance: Amount,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Amount {
    pub amount: u64,
}

#[derive(Debug, Deserialize)]
pub struct TransactionsQuery {
    pub since: Option<DateTime<Utc>>,
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TransactionView {
    /// Always positive; `transactionType` says which way it went.
    pub amount: u64,
    pub currency: String,
    pub created_at: DateTime<Utc>,
    pub transaction_type: String,
    pub transaction_reason: String,
    pub reference: String,
    pub balance_after: u64,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TransactionsResponse {
    pub transactions: Vec<TransactionView>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct AcknowledgeResponse {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
    /// False when an acknowledgement within the last day already counted.
    pub recorded: bool,
}
