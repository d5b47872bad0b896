//! Segpay-style postbacks: a form body with `stage` and `action`, signed in the signature header.

use std::collections::BTreeMap;

use super::{form_postback, number_field, optional, required, FormFields, Outcome, Postback, Rejection};
use crate::domain::Step;

/// Segpay-style stage and action onto the machine (`trial`, `flt`, `reason`, `credits`,
/// `retention_offer`, `offered_gems` refine them).
pub fn segpay_outcome(stage: &str, action: &str, f: &BTreeMap<String, String>) -> Result<Option<Outcome>, Rejection> {
    let flag = |name: &str| f.get(name).is_some_and(|v| v == "1");
    let (trial, free, reason) = (flag("trial"), flag("flt"), optional(f, "reason"));
    let step = match (action, stage) {
        ("Enable", "initial") => Step::initial(trial, free),
        ("Enable", "conversion") => Step::TrialConversion,
        ("Enable", "rebill") => Step::Rebill,
        ("Enable", "upgrade") => Step::Upgrade,
        ("Enable", "credits") => match number_field(f, "credits")?.filter(|c| *c > 0) {
            Some(credits) => Step::CreditsPurchase { credits },
            None => return Ok(None),
        },
        ("Decline", "initial") | ("Decline", "upgrade") | ("Decline", "credits") => {
            return Ok(Some(Outcome::declined(reason)))
        }
        ("Decline", "rebill") | ("Decline", "conversion") => Step::RebillFailed,
        ("Cancel", _) => Step::Cancel,
        ("Disable", _) => match reason.as_deref() {
            Some("chargeback") => Step::Chargeback,
            Some("refund") => Step::Refund,
            Some("expired") | None => Step::Expire,
            Some(_) => return Ok(None),
        },
        ("Reactivation", _) => Step::Reactivation {
            retention_offer_name: optional(f, "retention_offer"),
            offered_gems: number_field(f, "offered_gems")?.unwrap_or(0),
        },
        _ => return Ok(None),
    };
    Ok(Some(Outcome::Applied(step)))
}

/// Segpay-style names of the fields every postback carries (the passthrough fields are `ref1` to `ref3`).
const SEGPAY_FIELDS: FormFields = FormFields {
    subscription_ref: "purchaseid",
    transaction_id: "tranid",
    join_option: "joinoption",
    user_id: "ref1",
    signup_id: "ref2",
    nats_code: "ref3",
};

pub(super) fn read_segpay(biller: &str, f: &BTreeMap<String, String>, ts: i64) -> Result<Postback, Rejection> {
    let (stage, action) = (required(f, "stage")?, required(f, "action")?);
    let outcome = segpay_outcome(stage, action, f)?
        .ok_or_else(|| Rejection::Malformed(format!("stage {stage:?} action {action:?}")))?;
    form_postback(biller, f, ts, outcome, &SEGPAY_FIELDS)
}
