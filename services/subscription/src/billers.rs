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
//! within ±[`TIMESTAMP_WINDOW_SECS`] of now. Form bodies must be canonically encoded, and hex
//! lower-case, so a request has exactly one spelling: any changed byte is a different request.

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};
use hmac::{Hmac, KeyInit, Mac};
use proto_events::subscription::MembershipKind;
use serde::Deserialize;
use sha2::Sha256;
use uuid::Uuid;

use crate::config::{Biller, Scheme, TIMESTAMP_WINDOW_SECS};
use crate::domain::Step;

type HmacSha256 = Hmac<Sha256>;

/// The header CCBill-style and Segpay-style postbacks are signed in.
pub const SIGNATURE_HEADER: &str = "x-biller-signature";
/// The only digest scheme accepted.
pub const EPOCH_DIGEST_ALG: &str = "HMAC-SHA256";

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

/// A received request, as the HTTP layer hands it over.
pub struct Received<'a> {
    pub signature_header: Option<&'a str>,
    pub body: &'a [u8],
}

fn mac(secret: &str) -> HmacSha256 {
    <HmacSha256 as KeyInit>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length")
}

/// Lower-case hex of an HMAC-SHA256.
pub fn sign(secret: &str, message: &[u8]) -> String {
    let mut m = mac(secret);
    m.update(message);
    hex(&m.finalize().into_bytes())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Strict lower-case hex: one spelling per byte string.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    text.as_bytes().chunks(2).map(|p| Some(digit(p[0])? << 4 | digit(p[1])?)).collect()
}

/// Verifies against each secret the biller may sign with (the current one, and the next
/// during a rotation).
fn verify_mac(biller: &Biller, message: &[u8], signature_hex: &str) -> Result<(), Rejection> {
    let tag = unhex(signature_hex).ok_or(Rejection::BadSignature)?;
    let verifies = |secret: &runtime::Secret| {
        let mut m = mac(secret.expose());
        m.update(message);
        m.verify_slice(&tag).is_ok()
    };
    if biller.accepted_secrets().any(verifies) {
        Ok(())
    } else {
        Err(Rejection::BadSignature)
    }
}

fn check_window(ts: i64, now: i64) -> Result<(), Rejection> {
    if (ts - now).abs() > TIMESTAMP_WINDOW_SECS {
        return Err(Rejection::StaleTimestamp);
    }
    Ok(())
}

fn parse_unix(text: &str) -> Option<i64> {
    // Digits only, no sign, no leading zero: one spelling per instant.
    if text.is_empty()
        || text.len() > 12
        || !text.bytes().all(|b| b.is_ascii_digit())
        || (text.len() > 1 && text.starts_with('0'))
    {
        return None;
    }
    text.parse().ok()
}

/// Form encoding as this module writes it: unreserved bytes as is, space as `+`, the rest `%XX`.
pub fn form_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form_decode(raw: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(raw.len());
    let mut it = raw.bytes();
    while let Some(b) = it.next() {
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let h = it.next()?;
                let l = it.next()?;
                let d = |c: u8| (c as char).to_digit(16).map(|v| v as u8);
                bytes.push(d(h)? << 4 | d(l)?);
            }
            _ => bytes.push(b),
        }
    }
    String::from_utf8(bytes).ok()
}

/// Fields of a canonically encoded form body; refuses duplicates and other spellings.
pub fn parse_form(body: &[u8]) -> Result<BTreeMap<String, String>, Rejection> {
    let text = std::str::from_utf8(body).map_err(|_| Rejection::Malformed("not UTF-8".into()))?;
    let mut fields = BTreeMap::new();
    if text.is_empty() {
        return Ok(fields);
    }
    for pair in text.split('&') {
        let (k, v) = pair.split_once('=').ok_or_else(|| Rejection::Malformed("a field without =".into()))?;
        let key = form_decode(k).filter(|d| form_encode(d) == k && !d.is_empty());
        let value = form_decode(v).filter(|d| form_encode(d) == v);
        let (Some(key), Some(value)) = (key, value) else {
            return Err(Rejection::Malformed("a field is not canonically encoded".into()));
        };
        if fields.insert(key, value).is_some() {
            return Err(Rejection::Malformed("a field is repeated".into()));
        }
    }
    Ok(fields)
}

/// A form body from fields, in the given order.
pub fn form_body<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    fields.into_iter().map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v))).collect::<Vec<_>>().join("&")
}

/// What an Epoch-style digest covers: every field but the digest, sorted by name, each
/// form-encoded as `k=v`, joined by `&`. Encoded, so no value can pass for two fields.
pub fn epoch_canonical(fields: &BTreeMap<String, String>) -> String {
    form_body(fields.iter().filter(|(k, _)| *k != "epoch_digest").map(|(k, v)| (k.as_str(), v.as_str())))
}

/// Parses `t=<unix>,v1=<hex>` exactly.
fn parse_signature_header(header: &str) -> Result<(i64, &str), Rejection> {
    let (t, v) = header.split_once(',').ok_or(Rejection::WrongScheme)?;
    let t = t.strip_prefix("t=").ok_or(Rejection::WrongScheme)?;
    let v = v.strip_prefix("v1=").ok_or(Rejection::WrongScheme)?;
    let t = parse_unix(t).ok_or(Rejection::WrongScheme)?;
    Ok((t, v))
}

/// The signature header for `body` at `t`.
pub fn signature_header(secret: &str, t: i64, body: &[u8]) -> String {
    let mut message = format!("{t}.").into_bytes();
    message.extend_from_slice(body);
    format!("t={t},v1={}", sign(secret, &message))
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

fn read_epoch(biller: &str, f: &BTreeMap<String, String>, ts: i64) -> Result<Postback, Rejection> {
    let ans = required(f, "ans")?;
    let approved = match ans.as_bytes()[0] {
        b'Y' => true,
        b'N' => false,
        _ => return Err(Rejection::Malformed("ans is neither Y nor N".into())),
    };
    let code = required(f, "trans_type")?;
    let outcome = if !approved && matches!(code, "I" | "N" | "F" | "U" | "P" | "R" | "T") {
        let reason = ans[1..].trim();
        Outcome::Declined { reason: if reason.is_empty() { "DECLINED".into() } else { reason.into() } }
    } else {
        let credits = number_field(f, "credits")?;
        let gems = number_field(f, "offered_gems")?;
        Outcome::Applied(
            epoch_step(code, approved, credits, gems, optional(f, "retention_offer"))
                .ok_or_else(|| Rejection::Malformed(format!("trans_type {code:?}")))?,
        )
    };
    Ok(Postback {
        biller: biller.to_owned(),
        subscription_ref: required(f, "member_id")?.to_owned(),
        transaction_id: required(f, "transaction_id")?.to_owned(),
        at: at(ts),
        outcome,
        site: optional(f, "site"),
        join_option_id: number_field(f, "join_option")?,
        email: optional(f, "email"),
        username: optional(f, "username"),
        user_id: uuid_field(f, "x_user_id")?,
        signup_id: uuid_field(f, "x_signup_id")?,
        nats_code: optional(f, "x_nats"),
    })
}

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
    let initial = Step::Initial {
        kind: if is_trial || free { MembershipKind::Trial } else { MembershipKind::Member },
        free_limited_trial: free,
    };
    Some(Outcome::Applied(match event {
        "NewSaleSuccess" | "CrossSale" => initial,
        "UpSale" => match credits.filter(|c| *c > 0) {
            Some(credits) => Step::CreditsPurchase { credits },
            None => initial,
        },
        "NewSaleFailure" => return Some(Outcome::Declined { reason: reason.unwrap_or_else(|| "DECLINED".into()) }),
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

fn read_ccbill(biller: &str, body: &[u8], ts: i64) -> Result<Postback, Rejection> {
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

/// Segpay-style stage and action onto the machine (`trial`, `flt`, `reason`, `credits`,
/// `retention_offer`, `offered_gems` refine them).
pub fn segpay_outcome(stage: &str, action: &str, f: &BTreeMap<String, String>) -> Result<Option<Outcome>, Rejection> {
    let flag = |name: &str| f.get(name).is_some_and(|v| v == "1");
    let (trial, free, reason) = (flag("trial"), flag("flt"), optional(f, "reason"));
    let step = match (action, stage) {
        ("Enable", "initial") => Step::Initial {
            kind: if trial || free { MembershipKind::Trial } else { MembershipKind::Member },
            free_limited_trial: free,
        },
        ("Enable", "conversion") => Step::TrialConversion,
        ("Enable", "rebill") => Step::Rebill,
        ("Enable", "upgrade") => Step::Upgrade,
        ("Enable", "credits") => match number_field(f, "credits")?.filter(|c| *c > 0) {
            Some(credits) => Step::CreditsPurchase { credits },
            None => return Ok(None),
        },
        ("Decline", "initial") | ("Decline", "upgrade") | ("Decline", "credits") => {
            return Ok(Some(Outcome::Declined { reason: reason.unwrap_or_else(|| "DECLINED".into()) }))
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

fn read_segpay(biller: &str, f: &BTreeMap<String, String>, ts: i64) -> Result<Postback, Rejection> {
    let (stage, action) = (required(f, "stage")?, required(f, "action")?);
    let outcome = segpay_outcome(stage, action, f)?
        .ok_or_else(|| Rejection::Malformed(format!("stage {stage:?} action {action:?}")))?;
    Ok(Postback {
        biller: biller.to_owned(),
        subscription_ref: required(f, "purchaseid")?.to_owned(),
        transaction_id: required(f, "tranid")?.to_owned(),
        at: at(ts),
        outcome,
        site: optional(f, "site"),
        join_option_id: number_field(f, "joinoption")?,
        email: optional(f, "email"),
        username: optional(f, "username"),
        user_id: uuid_field(f, "ref1")?,
        signup_id: uuid_field(f, "ref2")?,
        nats_code: optional(f, "ref3"),
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BillingConfig;
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

    #[test]
    fn a_value_cannot_pass_for_two_fields() {
        let one: BTreeMap<String, String> = [("a".into(), "1&b=2".into())].into();
        let two: BTreeMap<String, String> = [("a".into(), "1".into()), ("b".into(), "2".into())].into();
        assert_ne!(epoch_canonical(&one), epoch_canonical(&two));
    }

    #[test]
    fn form_bodies_have_one_spelling() {
        assert!(parse_form(b"a=b%20c").is_err());
        assert!(parse_form(b"a=b+c").is_ok());
        assert!(parse_form(b"a=%2f").is_err());
        assert!(parse_form(b"a=1&a=2").is_err());
        assert_eq!(parse_form(b"x_nats=MC4w%2FA%3D").unwrap()["x_nats"], "MC4w/A=");
    }
}
