//! CCBill-style postbacks: a JSON event signed in the signature header.

use serde::Deserialize;
use uuid::Uuid;

use super::{at, Outcome, Postback, Rejection};
use crate::domain::Step;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CcbillEvent {
    event_type: String,
    subscription_id: String,
    transaction_id: String,
    #[serde(default)]
    site: Option<String>,
    #[serde(default)]
    join_option_id: Option<u32>,
    #[serde(default)]
    is_trial: bool,
    #[serde(default)]
    free_limited_trial: bool,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    credits: Option<u32>,
    #[serde(default)]
    retention_offer_name: Option<String>,
    #[serde(default)]
    offered_gems: Option<u32>,
    #[serde(default)]
    passthrough: CcbillPassthrough,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CcbillPassthrough {
    #[serde(default)]
    user_id: Option<Uuid>,
    #[serde(default)]
    signup_id: Option<Uuid>,
    #[serde(default)]
    nats: Option<String>,
}

/// CCBill-style event names onto the machine.
pub fn ccbill_outcome(
    event: &str,
    is_trial: bool,
    free: bool,
    credits: Option<u32>,
    reason: Option<String>,
    offer: Option<String>,
    gems: Option<u32>,
) -> Option<Outcome> {
    let initial = Step::initial(is_trial, free);
    Some(Outcome::Applied(match event {
        "NewSaleSuccess" | "CrossSale" => initial,
        "UpSale" => match credits.filter(|c| *c > 0) {
            Some(credits) => Step::CreditsPurchase { credits },
            None => initial,
        },
        "NewSaleFailure" => return Some(Outcome::declined(reason)),
        "RenewalSuccess" => Step::Rebill,
        "RenewalFailure" => Step::RebillFailed,
        "Cancellation" => Step::Cancel,
        "Expiration" => Step::Expire,
        "Chargeback" => Step::Chargeback,
        "Refund" => Step::Refund,
        "Upgrade" => Step::Upgrade,
        "TrialConversion" => Step::TrialConversion,
        "UserReactivation" => Step::Reactivation { retention_offer_name: offer, offered_gems: gems.unwrap_or(0) },
        _ => return None,
    }))
}

pub(super) fn read_ccbill(biller: &str, body: &[u8], ts: i64) -> Result<Postback, Rejection> {
    let e: CcbillEvent = serde_json::from_slice(body).map_err(|e| Rejection::Malformed(e.to_string()))?;
    let outcome = ccbill_outcome(
        &e.event_type,
        e.is_trial,
        e.free_limited_trial,
        e.credits,
        e.reason,
        e.retention_offer_name,
        e.offered_gems,
    )
    .ok_or_else(|| Rejection::Malformed(format!("eventType {:?}", e.event_type)))?;
    if e.subscription_id.is_empty() || e.transaction_id.is_empty() {
        return Err(Rejection::Malformed("subscriptionId and transactionId are required".into()));
    }
    Ok(Postback {
        biller: biller.to_owned(),
        subscription_ref: e.subscription_id,
        transaction_id: e.transaction_id,
        at: at(ts),
        outcome,
        site: e.site,
        join_option_id: e.join_option_id,
        email: e.email,
        username: e.username,
        user_id: e.passthrough.user_id,
        signup_id: e.passthrough.signup_id,
        nats_code: e.passthrough.nats,
    })
}
