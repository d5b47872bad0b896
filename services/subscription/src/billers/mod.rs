//! Biller postbacks: three formats modelled on real billers, each checked with the biller's own
//! shared secret, all mapped onto the one normalised machine of [`crate::domain`].
//!
//! - **Epoch-style** (EPOCH, SPIZOO): a form body with `ans` (`Y` approved, `N<reason>`
//!   declined), `member_id`, `transaction_id`, `trans_type` (see [`epoch_step`]), `timestamp`
//!   (unix seconds), `digest_alg=HMAC-SHA256` and `epoch_digest`: the hex HMAC-SHA256 of every
//!   other field, sorted by name, as `name=value` joined with `&`. Passthrough: `x_user_id`,
//!   `x_signup_id`, `x_nats`.
//! - **CCBill-style** (VXNBILL, CENTROBILL, ECHST, RGNATIVE): a JSON event (`eventType`
//!   NewSaleSuccess ... UserReactivation), signed in the header
//!   `x-biller-signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
//!   Passthrough: `passthrough.userId`, `.signupId`, `.nats`.
//! - **Segpay-style** (SEGPAY, SUPPORTSK): a form body with `stage` and `action` (Enable,
//!   Disable, Cancel, Reactivation, Decline), `purchaseid`, `tranid`, signed in the same header
//!   as CCBill-style; answered with the biller's configured OK text. Passthrough: `ref1` (user
//!   id), `ref2` (signup id), `ref3` (NATS code).
//!
//! Every signature is compared in constant time (`Mac::verify_slice`) and its timestamp must be
//! within ±[`TIMESTAMP_WINDOW_SECS`](crate::config::TIMESTAMP_WINDOW_SECS) of now. Form bodies
//! must be canonically encoded, and hex lower-case, so a request has exactly one spelling: any
//! changed byte is a different request.

mod ccbill;
mod encode;
mod epoch;
mod form;
mod segpay;
mod signature;

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};
use uuid::Uuid;

use crate::config::{Biller, Scheme};
use crate::domain::Step;

pub use ccbill::ccbill_outcome;
use ccbill::read_ccbill;
pub use encode::{encode, Outgoing, SignedRequest};
use epoch::read_epoch;
pub use epoch::{epoch_canonical, epoch_step, EPOCH_DIGEST_ALG};
pub use form::{form_body, form_encode, parse_form};
use segpay::read_segpay;
pub use segpay::segpay_outcome;
use signature::{check_window, parse_signature_header, parse_unix, verify_mac};
pub use signature::{sign, signature_header, SIGNATURE_HEADER};

/// Why a postback is refused before anything is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("the postback is not signed")]
    MissingSignature,
    #[error("the postback is signed with a scheme this biller does not use")]
    WrongScheme,
    #[error("the postback's signature does not match")]
    BadSignature,
    #[error("the postback's timestamp is outside the accepted window")]
    StaleTimestamp,
    #[error("the postback is malformed: {0}")]
    Malformed(String),
}

impl Rejection {
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::MissingSignature => "MISSING_SIGNATURE",
            Rejection::WrongScheme => "WRONG_SIGNATURE_SCHEME",
            Rejection::BadSignature => "BAD_SIGNATURE",
            Rejection::StaleTimestamp => "STALE_TIMESTAMP",
            Rejection::Malformed(_) => "MALFORMED_POSTBACK",
        }
    }

    /// Authenticity failures are 401s; a well-signed but unreadable postback is a 400.
    pub fn is_authenticity(&self) -> bool {
        !matches!(self, Rejection::Malformed(_))
    }
}

/// What a biller's postback says, in the normalised machine's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Postback {
    pub biller: String,
    /// The biller's id of the subscription (member id, subscription id, purchase id).
    pub subscription_ref: String,
    /// The biller's transaction id: a postback is applied once per (biller, transaction id).
    pub transaction_id: String,
    pub at: DateTime<Utc>,
    pub outcome: Outcome,
    pub site: Option<String>,
    pub join_option_id: Option<u32>,
    pub email: Option<String>,
    pub username: Option<String>,
    pub user_id: Option<Uuid>,
    pub signup_id: Option<Uuid>,
    /// The affiliate (NATS) code from the passthrough fields.
    pub nats_code: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Something happened to a subscription.
    Applied(Step),
    /// A new sale was declined (signup denied, with the biller's reason).
    Declined { reason: String },
}

impl Outcome {
    /// A declined sale, with the biller's reason, or `DECLINED` where it gave none.
    pub fn declined(reason: Option<String>) -> Outcome {
        Outcome::Declined { reason: reason.filter(|r| !r.is_empty()).unwrap_or_else(|| "DECLINED".into()) }
    }
}

/// A received request, as the HTTP layer hands it over.
pub struct Received<'a> {
    pub signature_header: Option<&'a str>,
    pub body: &'a [u8],
}

/// Checks a postback's authenticity and reads it. `now` is unix seconds.
pub fn verify(biller: &Biller, received: &Received<'_>, now: i64) -> Result<Postback, Rejection> {
    let postback = verify_and_read(biller, received, now)?;
    if carries_nul(&postback) {
        return Err(nul());
    }
    Ok(postback)
}

fn verify_and_read(biller: &Biller, received: &Received<'_>, now: i64) -> Result<Postback, Rejection> {
    match biller.scheme {
        Scheme::Epoch => {
            let fields = parse_form(received.body)?;
            let digest = fields.get("epoch_digest").ok_or(Rejection::MissingSignature)?;
            if fields.get("digest_alg").map(String::as_str) != Some(EPOCH_DIGEST_ALG) {
                return Err(Rejection::WrongScheme);
            }
            verify_mac(biller, epoch_canonical(&fields).as_bytes(), digest)?;
            let ts =
                fields.get("timestamp").and_then(|t| parse_unix(t)).ok_or(Rejection::Malformed("timestamp".into()))?;
            check_window(ts, now)?;
            read_epoch(&biller.name, &fields, ts)
        }
        Scheme::Ccbill | Scheme::Segpay => {
            let header = received.signature_header.ok_or(Rejection::MissingSignature)?;
            let (t, v1) = parse_signature_header(header)?;
            let mut message = format!("{t}.").into_bytes();
            message.extend_from_slice(received.body);
            verify_mac(biller, &message, v1)?;
            check_window(t, now)?;
            if biller.scheme == Scheme::Ccbill {
                read_ccbill(&biller.name, received.body, t)
            } else {
                read_segpay(&biller.name, &parse_form(received.body)?, t)
            }
        }
    }
}

/// A NUL character (`%00` in a form, `\u0000` in JSON) in a field the postback carries on: no
/// stored text or event may hold one, so such a postback is refused as malformed (400) instead
/// of failing when it is stored (a 500 the biller would retry for ever). Fields nothing reads
/// stay in the raw body, which keeps them escaped.
fn nul() -> Rejection {
    Rejection::Malformed("a field holds a NUL character".into())
}

fn carries_nul(p: &Postback) -> bool {
    let step_text = match &p.outcome {
        Outcome::Declined { reason } => Some(reason.as_str()),
        Outcome::Applied(Step::Reactivation { retention_offer_name, .. }) => retention_offer_name.as_deref(),
        Outcome::Applied(_) => None,
    };
    [Some(p.biller.as_str()), Some(p.subscription_ref.as_str()), Some(p.transaction_id.as_str()), step_text]
        .into_iter()
        .chain([p.site.as_deref(), p.email.as_deref(), p.username.as_deref(), p.nats_code.as_deref()])
        .flatten()
        .any(|text| text.contains('\0'))
}

// The fields every format reads.

/// Where a form-encoded biller (Epoch-style, Segpay-style) puts the fields every postback
/// carries; `site`, `email` and `username` have the same name in both.
struct FormFields {
    subscription_ref: &'static str,
    transaction_id: &'static str,
    join_option: &'static str,
    user_id: &'static str,
    signup_id: &'static str,
    nats_code: &'static str,
}

/// The postback of a form body whose outcome the biller's own reader has worked out.
fn form_postback(
    biller: &str,
    f: &BTreeMap<String, String>,
    ts: i64,
    outcome: Outcome,
    names: &FormFields,
) -> Result<Postback, Rejection> {
    Ok(Postback {
        biller: biller.to_owned(),
        subscription_ref: required(f, names.subscription_ref)?.to_owned(),
        transaction_id: required(f, names.transaction_id)?.to_owned(),
        at: at(ts),
        outcome,
        site: optional(f, "site"),
        join_option_id: number_field(f, names.join_option)?,
        email: optional(f, "email"),
        username: optional(f, "username"),
        user_id: uuid_field(f, names.user_id)?,
        signup_id: uuid_field(f, names.signup_id)?,
        nats_code: optional(f, names.nats_code),
    })
}

fn at(ts: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(ts, 0).single().unwrap_or_else(Utc::now)
}

fn required<'a>(fields: &'a BTreeMap<String, String>, name: &str) -> Result<&'a str, Rejection> {
    fields
        .get(name)
        .map(String::as_str)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Rejection::Malformed(format!("{name} is missing")))
}

fn optional(fields: &BTreeMap<String, String>, name: &str) -> Option<String> {
    fields.get(name).filter(|v| !v.is_empty()).cloned()
}

fn uuid_field(fields: &BTreeMap<String, String>, name: &str) -> Result<Option<Uuid>, Rejection> {
    optional(fields, name)
        .map(|v| Uuid::parse_str(&v).map_err(|_| Rejection::Malformed(format!("{name} is not a uuid"))))
        .transpose()
}

fn number_field(fields: &BTreeMap<String, String>, name: &str) -> Result<Option<u32>, Rejection> {
    optional(fields, name)
        .map(|v| v.parse().map_err(|_| Rejection::Malformed(format!("{name} is not a number"))))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BillingConfig, TIMESTAMP_WINDOW_SECS};
    use proto_events::subscription::MembershipKind;
    use rand::{Rng, SeedableRng};

    fn config() -> BillingConfig {
        BillingConfig::from_lookup(|_| None, false).unwrap()
    }

    const NOW: i64 = 1_780_000_000;

    fn outgoing(rng: &mut impl Rng) -> Outgoing {
        let steps = [
            Ok(Step::Initial { kind: MembershipKind::Member, free_limited_trial: false }),
            Ok(Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true }),
            Ok(Step::Rebill),
            Ok(Step::RebillFailed),
            Ok(Step::Cancel),
            Ok(Step::Expire),
            Ok(Step::Chargeback),
            Ok(Step::Refund),
            Ok(Step::TrialConversion),
            Ok(Step::Upgrade),
            Ok(Step::Reactivation { retention_offer_name: Some("stay with gems".into()), offered_gems: 20 }),
            Ok(Step::CreditsPurchase { credits: rng.random_range(1..50) }),
            Err("Insufficient funds".to_owned()),
        ];
        Outgoing {
            subscription_ref: format!("M{}", rng.random_range(1..10_000_000u32)),
            transaction_id: format!("T{}", rng.random::<u64>()),
            step: steps[rng.random_range(0..steps.len())].clone(),
            site: Some("vixen".into()),
            join_option_id: Some(10301),
            email: Some(format!("jo+{}@example.com", rng.random::<u16>())),
            username: Some("jo".into()),
            user_id: rng.random_bool(0.5).then(Uuid::now_v7),
            signup_id: rng.random_bool(0.5).then(Uuid::now_v7),
            nats_code: Some("MC4wLjEuMC4w/A=".into()),
        }
    }

    fn received(r: &SignedRequest) -> Received<'_> {
        Received { signature_header: r.signature_header.as_deref(), body: &r.body }
    }

    #[test]
    fn each_billers_valid_postback_reads_back_as_sent() {
        let c = config();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for biller in c.billers.values() {
            for _ in 0..200 {
                let out = outgoing(&mut rng);
                let req = encode(biller, &out, NOW);
                let p = verify(biller, &received(&req), NOW + 10).unwrap_or_else(|e| panic!("{}: {e}", biller.name));
                assert_eq!(p.transaction_id, out.transaction_id);
                assert_eq!(p.subscription_ref, out.subscription_ref);
                assert_eq!(
                    (p.user_id, p.signup_id, p.nats_code.as_ref()),
                    (out.user_id, out.signup_id, out.nats_code.as_ref())
                );
                match (&out.step, &p.outcome) {
                    (Ok(step), Outcome::Applied(got)) => assert_eq!(step, got, "{}", biller.name),
                    (Err(reason), Outcome::Declined { reason: got }) => assert_eq!(reason, got),
                    other => panic!("{}: {other:?}", biller.name),
                }
            }
        }
    }

    #[test]
    fn a_well_signed_postback_holding_a_nul_character_is_malformed() {
        let c = config();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for biller in c.billers.values() {
            for field in 0..3 {
                let mut out = outgoing(&mut rng);
                match field {
                    0 => out.username = Some("jo\0".into()),
                    1 => out.transaction_id.push('\0'),
                    _ => out.email = Some("\0@example.com".into()),
                }
                let req = encode(biller, &out, NOW);
                let refused = verify(biller, &received(&req), NOW).unwrap_err();
                assert_eq!(refused, nul(), "{} #{field}", biller.name);
                assert_eq!(refused.code(), "MALFORMED_POSTBACK");
            }
        }
    }

    #[test]
    fn forged_stale_wrong_scheme_and_unsigned_postbacks_are_refused() {
        let c = config();
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        for biller in c.billers.values() {
            let out = outgoing(&mut rng);
            let forger = Biller { secret: runtime::Secret::new("guess"), ..biller.clone() };
            let forged = encode(&forger, &out, NOW);
            assert_eq!(verify(biller, &received(&forged), NOW), Err(Rejection::BadSignature), "{}", biller.name);
            let stale = encode(biller, &out, NOW - TIMESTAMP_WINDOW_SECS - 1);
            assert_eq!(verify(biller, &received(&stale), NOW), Err(Rejection::StaleTimestamp));
            let future = encode(biller, &out, NOW + TIMESTAMP_WINDOW_SECS + 1);
            assert_eq!(verify(biller, &received(&future), NOW), Err(Rejection::StaleTimestamp));
            let edge = encode(biller, &out, NOW - TIMESTAMP_WINDOW_SECS);
            assert!(verify(biller, &received(&edge), NOW).is_ok());
            let valid = encode(biller, &out, NOW);
            match biller.scheme {
                Scheme::Epoch => {
                    let text = String::from_utf8(valid.body.clone()).unwrap();
                    let wrong = text.replace("digest_alg=HMAC-SHA256", "digest_alg=MD5");
                    let r = SignedRequest { body: wrong.into_bytes(), ..valid.clone() };
                    assert_eq!(verify(biller, &received(&r), NOW), Err(Rejection::WrongScheme));
                    let unsigned: Vec<&str> = text.split('&').filter(|p| !p.starts_with("epoch_digest=")).collect();
                    let r = SignedRequest { body: unsigned.join("&").into_bytes(), ..valid.clone() };
                    assert_eq!(verify(biller, &received(&r), NOW), Err(Rejection::MissingSignature));
                }
                _ => {
                    let header = valid.signature_header.clone().unwrap();
                    let r = SignedRequest { signature_header: Some(header.replace("v1=", "v0=")), ..valid.clone() };
                    assert_eq!(verify(biller, &received(&r), NOW), Err(Rejection::WrongScheme));
                    let r = SignedRequest { signature_header: Some(header.replace("v1=", "sha1=")), ..valid.clone() };
                    assert_eq!(verify(biller, &received(&r), NOW), Err(Rejection::WrongScheme));
                    let r = SignedRequest { signature_header: None, ..valid.clone() };
                    assert_eq!(verify(biller, &received(&r), NOW), Err(Rejection::MissingSignature));
                }
            }
        }
    }

    /// Mutates one thing of a valid request.
    fn mutate(rng: &mut impl Rng, biller: &Biller, out: &Outgoing, valid: &SignedRequest) -> SignedRequest {
        let mut r = valid.clone();
        match rng.random_range(0..7) {
            // A flipped bit anywhere in the body.
            0 | 1 => {
                let i = rng.random_range(0..r.body.len());
                r.body[i] ^= 1 << rng.random_range(0..8);
            }
            // A flipped bit in the signature header (or, for Epoch, in the digest).
            2 => match &mut r.signature_header {
                Some(h) => {
                    let mut bytes = h.clone().into_bytes();
                    let i = rng.random_range(0..bytes.len());
                    bytes[i] ^= 1 << rng.random_range(0..7);
                    *h = String::from_utf8_lossy(&bytes).into_owned();
                }
                None => {
                    let text = String::from_utf8(r.body.clone()).unwrap();
                    let at = text.find("epoch_digest=").unwrap() + "epoch_digest=".len() + rng.random_range(0..64);
                    let mut bytes = text.into_bytes();
                    bytes[at] ^= 1 << rng.random_range(0..7);
                    r.body = bytes;
                }
            },
            // Signed with a guessed secret.
            3 => {
                let forger =
                    Biller { secret: runtime::Secret::new(format!("guess-{}", rng.random::<u32>())), ..biller.clone() };
                r = encode(&forger, out, NOW);
            }
            // Signed properly, but too old or too far ahead.
            4 => {
                let skew = rng.random_range(TIMESTAMP_WINDOW_SECS + 1..100_000);
                r = encode(biller, out, if rng.random_bool(0.5) { NOW - skew } else { NOW + skew });
            }
            // Cut short.
            5 => {
                let keep = rng.random_range(0..r.body.len());
                r.body.truncate(keep);
            }
            // No signature at all.
            _ => match &mut r.signature_header {
                Some(_) => r.signature_header = None,
                None => {
                    let text = String::from_utf8(r.body.clone()).unwrap();
                    let kept: Vec<&str> = text.split('&').filter(|p| !p.starts_with("epoch_digest=")).collect();
                    r.body = kept.join("&").into_bytes();
                }
            },
        }
        r
    }

    /// 10,000 mutated requests across the billers: none accepted; 10,000 valid ones: none refused.
    #[test]
    fn ten_thousand_mutated_postbacks_are_all_refused_and_no_valid_one_is() {
        let c = config();
        let billers: Vec<&Biller> = c.billers.values().collect();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let (mut accepted, mut valid_refused) = (0, 0);
        for n in 0..10_000 {
            let biller = billers[n % billers.len()];
            let out = outgoing(&mut rng);
            let valid = encode(biller, &out, NOW);
            if verify(biller, &received(&valid), NOW + rng.random_range(-TIMESTAMP_WINDOW_SECS..=TIMESTAMP_WINDOW_SECS))
                .is_err()
            {
                valid_refused += 1;
            }
            let mutated = mutate(&mut rng, biller, &out, &valid);
            if mutated.body != valid.body || mutated.signature_header != valid.signature_header {
                if let Ok(p) = verify(biller, &received(&mutated), NOW) {
                    accepted += 1;
                    eprintln!("{} accepted a mutated postback: {p:?}", biller.name);
                }
            }
        }
        assert_eq!((accepted, valid_refused), (0, 0));
    }
}
