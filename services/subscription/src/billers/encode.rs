//! The sending side: one normalised postback written and signed in a biller's format, for the
//! tests, the biller sandbox and the benchmark.

use std::collections::BTreeMap;

use proto_events::subscription::MembershipKind;
use uuid::Uuid;

use super::epoch::{epoch_canonical, EPOCH_DIGEST_ALG};
use super::form::form_body;
use super::signature::{sign, signature_header};
use crate::config::{Biller, Scheme};
use crate::domain::Step;

/// What a test, the sandbox or the bench sends: one normalised postback, in a biller's format.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub subscription_ref: String,
    pub transaction_id: String,
    /// `Ok(step)` or `Err(reason)` for a declined sale.
    pub step: Result<Step, String>,
    pub site: Option<String>,
    pub join_option_id: Option<u32>,
    pub email: Option<String>,
    pub username: Option<String>,
    pub user_id: Option<Uuid>,
    pub signup_id: Option<Uuid>,
    pub nats_code: Option<String>,
}

impl Outgoing {
    /// A postback of `step` for `user` on vixen (join option 10301), at the biller's subscription
    /// `reference`, brought by the affiliate `nats_code`; no email, username or signup.
    pub fn vixen(reference: &str, transaction_id: &str, step: Step, user: Uuid, nats_code: &str) -> Outgoing {
        Outgoing {
            subscription_ref: reference.to_owned(),
            transaction_id: transaction_id.to_owned(),
            step: Ok(step),
            site: Some("vixen".into()),
            join_option_id: Some(10301),
            email: None,
            username: None,
            user_id: Some(user),
            signup_id: None,
            nats_code: Some(nats_code.to_owned()),
        }
    }
}

/// A signed request: its body, content type and signature header (None for Epoch-style).
#[derive(Clone, Debug)]
pub struct SignedRequest {
    pub body: Vec<u8>,
    pub content_type: &'static str,
    pub signature_header: Option<String>,
}

fn step_codes(step: &Step) -> (&'static str, &'static str, Option<u32>) {
    // (Epoch code, CCBill event, credits)
    match step {
        Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true } => ("F", "NewSaleSuccess", None),
        Step::Initial { kind: MembershipKind::Trial, .. } => ("N", "NewSaleSuccess", None),
        Step::Initial { .. } => ("I", "NewSaleSuccess", None),
        Step::TrialConversion => ("T", "TrialConversion", None),
        Step::Upgrade => ("U", "Upgrade", None),
        Step::Rebill => ("K", "RenewalSuccess", None),
        Step::RebillFailed => ("K", "RenewalFailure", None),
        Step::Cancel => ("C", "Cancellation", None),
        Step::Expire => ("X", "Expiration", None),
        Step::Chargeback => ("D", "Chargeback", None),
        Step::Refund => ("E", "Refund", None),
        Step::Reactivation { .. } => ("R", "UserReactivation", None),
        Step::CreditsPurchase { credits } => ("P", "UpSale", Some(*credits)),
    }
}

/// Builds and signs `out` as `biller` would send it at unix time `t`.
pub fn encode(biller: &Biller, out: &Outgoing, t: i64) -> SignedRequest {
    let secret = biller.secret.expose();
    let (reactivation_offer, gems) = match &out.step {
        Ok(Step::Reactivation { retention_offer_name, offered_gems }) => {
            (retention_offer_name.clone(), Some(*offered_gems))
        }
        _ => (None, None),
    };
    match biller.scheme {
        Scheme::Epoch => {
            let (code, approved, credits) = match &out.step {
                Ok(step) => {
                    let (code, _, credits) = step_codes(step);
                    (code, !matches!(step, Step::RebillFailed), credits)
                }
                Err(_) => ("I", false, None),
            };
            let ans = match &out.step {
                Err(reason) => format!("N{reason}"),
                Ok(_) if approved => "Y".to_owned(),
                Ok(_) => "NDECLINED".to_owned(),
            };
            let mut fields: BTreeMap<String, String> = BTreeMap::new();
            let mut put = |k: &str, v: Option<String>| {
                if let Some(v) = v {
                    fields.insert(k.to_owned(), v);
                }
            };
            put("ans", Some(ans));
            put("member_id", Some(out.subscription_ref.clone()));
            put("transaction_id", Some(out.transaction_id.clone()));
            put("trans_type", Some(code.to_owned()));
            put("timestamp", Some(t.to_string()));
            put("digest_alg", Some(EPOCH_DIGEST_ALG.to_owned()));
            put("site", out.site.clone());
            put("join_option", out.join_option_id.map(|j| j.to_string()));
            put("email", out.email.clone());
            put("username", out.username.clone());
            put("x_user_id", out.user_id.map(|u| u.to_string()));
            put("x_signup_id", out.signup_id.map(|u| u.to_string()));
            put("x_nats", out.nats_code.clone());
            put("credits", credits.map(|c| c.to_string()));
            put("retention_offer", reactivation_offer);
            put("offered_gems", gems.map(|g| g.to_string()));
            let digest = sign(secret, epoch_canonical(&fields).as_bytes());
            fields.insert("epoch_digest".into(), digest);
            let body = form_body(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            SignedRequest {
                body: body.into_bytes(),
                content_type: "application/x-www-form-urlencoded",
                signature_header: None,
            }
        }
        Scheme::Ccbill => {
            let (event, is_trial, free, credits, reason) = match &out.step {
                Ok(step) => {
                    let (_, event, credits) = step_codes(step);
                    let (trial, free) = match step {
                        Step::Initial { kind, free_limited_trial } => {
                            (*kind == MembershipKind::Trial, *free_limited_trial)
                        }
                        _ => (false, false),
                    };
                    (event, trial, free, credits, None)
                }
                Err(reason) => ("NewSaleFailure", false, false, None, Some(reason.clone())),
            };
            let body = serde_json::json!({
                "eventType": event,
                "subscriptionId": out.subscription_ref,
                "transactionId": out.transaction_id,
                "site": out.site,
                "joinOptionId": out.join_option_id,
                "isTrial": is_trial,
                "freeLimitedTrial": free,
                "email": out.email,
                "username": out.username,
                "reason": reason,
                "credits": credits,
                "retentionOfferName": reactivation_offer,
                "offeredGems": gems,
                "passthrough": { "userId": out.user_id, "signupId": out.signup_id, "nats": out.nats_code },
            });
            let body = serde_json::to_vec(&body).expect("json");
            SignedRequest {
                signature_header: Some(signature_header(secret, t, &body)),
                body,
                content_type: "application/json",
            }
        }
        Scheme::Segpay => {
            let (stage, action, trial, free, reason, credits) = match &out.step {
                Ok(Step::Initial { kind, free_limited_trial }) => {
                    ("initial", "Enable", *kind == MembershipKind::Trial, *free_limited_trial, None, None)
                }
                Ok(Step::TrialConversion) => ("conversion", "Enable", false, false, None, None),
                Ok(Step::Rebill) => ("rebill", "Enable", false, false, None, None),
                Ok(Step::Upgrade) => ("upgrade", "Enable", false, false, None, None),
                Ok(Step::CreditsPurchase { credits }) => ("credits", "Enable", false, false, None, Some(*credits)),
                Ok(Step::RebillFailed) => ("rebill", "Decline", false, false, None, None),
                Ok(Step::Cancel) => ("rebill", "Cancel", false, false, None, None),
                Ok(Step::Expire) => ("rebill", "Disable", false, false, Some("expired".to_owned()), None),
                Ok(Step::Chargeback) => ("rebill", "Disable", false, false, Some("chargeback".to_owned()), None),
                Ok(Step::Refund) => ("rebill", "Disable", false, false, Some("refund".to_owned()), None),
                Ok(Step::Reactivation { .. }) => ("rebill", "Reactivation", false, false, None, None),
                Err(reason) => ("initial", "Decline", false, false, Some(reason.clone()), None),
            };
            let mut fields: Vec<(String, String)> = vec![
                ("stage".into(), stage.into()),
                ("action".into(), action.into()),
                ("purchaseid".into(), out.subscription_ref.clone()),
                ("tranid".into(), out.transaction_id.clone()),
            ];
            let mut put = |k: &str, v: Option<String>| {
                if let Some(v) = v {
                    fields.push((k.to_owned(), v));
                }
            };
            put("trial", trial.then(|| "1".to_owned()));
            put("flt", free.then(|| "1".to_owned()));
            put("reason", reason);
            put("credits", credits.map(|c| c.to_string()));
            put("site", out.site.clone());
            put("joinoption", out.join_option_id.map(|j| j.to_string()));
            put("email", out.email.clone());
            put("username", out.username.clone());
            put("ref1", out.user_id.map(|u| u.to_string()));
            put("ref2", out.signup_id.map(|u| u.to_string()));
            put("ref3", out.nats_code.clone());
            put("retention_offer", reactivation_offer);
            put("offered_gems", gems.map(|g| g.to_string()));
            let body = form_body(fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))).into_bytes();
            SignedRequest {
                signature_header: Some(signature_header(secret, t, &body)),
                body,
                content_type: "application/x-www-form-urlencoded",
            }
        }
    }
}
