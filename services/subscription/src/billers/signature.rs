//! The signatures: HMAC-SHA256 in lower-case hex, compared in constant time, and the
//! `t=<unix>,v1=<hex>` header of the CCBill-style and Segpay-style postbacks.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::Rejection;
use crate::config::{Biller, TIMESTAMP_WINDOW_SECS};

type HmacSha256 = Hmac<Sha256>;

/// The header CCBill-style and Segpay-style postbacks are signed in.
pub const SIGNATURE_HEADER: &str = "x-biller-signature";

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
pub(super) fn verify_mac(biller: &Biller, message: &[u8], signature_hex: &str) -> Result<(), Rejection> {
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

pub(super) fn check_window(ts: i64, now: i64) -> Result<(), Rejection> {
    if (ts - now).abs() > TIMESTAMP_WINDOW_SECS {
        return Err(Rejection::StaleTimestamp);
    }
    Ok(())
}

pub(super) fn parse_unix(text: &str) -> Option<i64> {
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

/// Parses `t=<unix>,v1=<hex>` exactly.
pub(super) fn parse_signature_header(header: &str) -> Result<(i64, &str), Rejection> {
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
