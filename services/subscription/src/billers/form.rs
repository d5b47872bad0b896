//! Form bodies (Epoch-style and Segpay-style) in their one canonical spelling.

use std::collections::BTreeMap;

use super::Rejection;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_bodies_have_one_spelling() {
        assert!(parse_form(b"a=b%20c").is_err());
        assert!(parse_form(b"a=b+c").is_ok());
        assert!(parse_form(b"a=%2f").is_err());
        assert!(parse_form(b"a=1&a=2").is_err());
        assert_eq!(parse_form(b"x_nats=MC4w%2FA%3D").unwrap()["x_nats"], "MC4w/A=");
    }
}
