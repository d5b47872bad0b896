//! Epoch-style postbacks: a form body signed by its `epoch_digest` field.

use std::collections::BTreeMap;

use proto_events::subscription::MembershipKind;

use super::form::form_body;
use super::{form_postback, number_field, optional, required, FormFields, Outcome, Postback, Rejection};
use crate::domain::Step;

/// The only digest scheme accepted.
pub const EPOCH_DIGEST_ALG: &str = "HMAC-SHA256";

/// What an Epoch-style digest covers: every field but the digest, sorted by name, each
/// form-encoded as `k=v`, joined by `&`. Encoded, so no value can pass for two fields.
pub fn epoch_canonical(fields: &BTreeMap<String, String>) -> String {
    form_body(fields.iter().filter(|(k, _)| *k != "epoch_digest").map(|(k, v)| (k.as_str(), v.as_str())))
}

/// Epoch-style transaction codes: I initial sale, N new trial, F free limited trial, T trial
/// conversion, U upgrade, K rebill (`ans=N`: rebill failed), C cancel, D chargeback (dispute),
/// X expiry; and, beyond the classic set, R reactivation, E refund, P pay-per-video credits.
pub fn epoch_step(
    code: &str,
    approved: bool,
    credits: Option<u32>,
    gems: Option<u32>,
    offer: Option<String>,
) -> Option<Step> {
    Some(match (code, approved) {
        ("I", true) => Step::Initial { kind: MembershipKind::Member, free_limited_trial: false },
        ("N", true) => Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false },
        ("F", true) => Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true },
        ("T", true) => Step::TrialConversion,
        ("U", true) => Step::Upgrade,
        ("K", true) => Step::Rebill,
        ("K", false) => Step::RebillFailed,
        ("C", _) => Step::Cancel,
        ("D", _) => Step::Chargeback,
        ("X", _) => Step::Expire,
        ("R", true) => Step::Reactivation { retention_offer_name: offer, offered_gems: gems.unwrap_or(0) },
        ("E", _) => Step::Refund,
        ("P", true) => Step::CreditsPurchase { credits: credits.filter(|c| *c > 0)? },
        _ => return None,
    })
}

/// Epoch-style names of the fields every postback carries (the passthrough fields are `x_`).
const EPOCH_FIELDS: FormFields = FormFields {
    subscription_ref: "member_id",
    transaction_id: "transaction_id",
    join_option: "join_option",
    user_id: "x_user_id",
    signup_id: "x_signup_id",
    nats_code: "x_nats",
};

pub(super) fn read_epoch(biller: &str, f: &BTreeMap<String, String>, ts: i64) -> Result<Postback, Rejection> {
    let ans = required(f, "ans")?;
    let approved = match ans.as_bytes()[0] {
        b'Y' => true,
        b'N' => false,
        _ => return Err(Rejection::Malformed("ans is neither Y nor N".into())),
    };
    let code = required(f, "trans_type")?;
    let outcome = if !approved && matches!(code, "I" | "N" | "F" | "U" | "P" | "R" | "T") {
        Outcome::declined(Some(ans[1..].trim().to_owned()))
    } else {
        let credits = number_field(f, "credits")?;
        let gems = number_field(f, "offered_gems")?;
        Outcome::Applied(
            epoch_step(code, approved, credits, gems, optional(f, "retention_offer"))
                .ok_or_else(|| Rejection::Malformed(format!("trans_type {code:?}")))?,
        )
    };
    form_postback(biller, f, ts, outcome, &EPOCH_FIELDS)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_cannot_pass_for_two_fields() {
        let one: BTreeMap<String, String> = [("a".into(), "1&b=2".into())].into();
        let two: BTreeMap<String, String> = [("a".into(), "1".into()), ("b".into(), "2".into())].into();
        assert_ne!(epoch_canonical(&one), epoch_canonical(&two));
    }
}
