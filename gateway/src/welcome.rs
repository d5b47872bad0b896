//! The welcome data (product.md, "Sign-up and join"): what the biller's redirect after a
//! signup carries in its query (`memberid`, `hashedMemberId`, `username`, `siteId`,
//! `isTrial`, or a decline's `reason`) and the signup and upgrade result pages read.
//!
//! The edge hands it to the page in the bootstrap (`user.welcome`), and keeps it for an hour
//! in an HttpOnly cookie, so the later pages of the same signup (`/_upgrademembership` after a
//! trial's welcome, a reload) still have it without the query. `memberid` with its signed
//! `hashedMemberId` is what `welcomeCheck` needs for the autologin, which the subscription
//! service honours only within an hour of the approval: the cookie lives no longer.

use axum::http::{HeaderMap, HeaderValue};
use percent_encoding::{percent_decode_str, utf8_percent_encode, NON_ALPHANUMERIC};
use serde_json::{Map, Value};

pub const WELCOME_COOKIE: &str = "paysite_welcome";
/// The cookie's life: the subscription service's autologin window.
pub const WELCOME_COOKIE_MAX_AGE_SECS: u64 = 3600;
/// Longest value of a field kept (anything longer is not a biller's).
const MAX_FIELD: usize = 200;

/// The paths that read the welcome data.
pub fn reads_welcome(path: &str) -> bool {
    matches!(
        path.trim_end_matches('/'),
        "/_signupsuccess" | "/_signupdenial" | "/_upgrademembership" | "/_upgradesuccess" | "/_upgradedenial"
    ) || path.starts_with("/_signup-extern/")
}

fn decode(raw: &str) -> Option<String> {
    let text = percent_decode_str(&raw.replace('+', " ")).decode_utf8().ok()?.trim().to_owned();
    (!text.is_empty() && text.len() <= MAX_FIELD && !text.chars().any(char::is_control)).then_some(text)
}

/// The welcome data a query carries: empty when it names neither a member nor a decline.
pub fn from_query(query: Option<&str>) -> Map<String, Value> {
    let mut welcome = Map::new();
    for pair in query.unwrap_or_default().split('&') {
        let Some((key, raw)) = pair.split_once('=') else { continue };
        let Some(value) = decode(raw) else { continue };
        match key {
            "memberid" | "hashedMemberId" | "username" | "reason" => {
                welcome.insert(key.to_owned(), Value::String(value));
            }
            "siteId" => {
                if let Ok(id) = value.parse::<u32>() {
                    welcome.insert(key.to_owned(), Value::from(id));
                }
            }
            "isTrial" => {
                welcome.insert(key.to_owned(), Value::Bool(value == "true"));
            }
            _ => {}
        }
    }
    if welcome.contains_key("memberid") || welcome.contains_key("reason") {
        welcome
    } else {
        Map::new()
    }
}

/// The welcome data kept in the cookie, if any (only what [`from_query`] would keep).
pub fn from_cookie(headers: &HeaderMap) -> Map<String, Value> {
    let Some(raw) = crate::session::cookie(headers, WELCOME_COOKIE) else { return Map::new() };
    let Ok(text) = percent_decode_str(&raw).decode_utf8() else { return Map::new() };
    from_query(Some(&text))
}

/// The `Set-Cookie` that keeps `welcome` (as a query string, so reading it back runs the same
/// checks), set like the session's cookies (`secure`: the site is served over https).
pub fn cookie(welcome: &Map<String, Value>, secure: bool) -> HeaderValue {
    let query: Vec<String> = welcome
        .iter()
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            format!("{k}={}", utf8_percent_encode(&text, NON_ALPHANUMERIC))
        })
        .collect();
    let value = utf8_percent_encode(&query.join("&"), NON_ALPHANUMERIC).to_string();
    HeaderValue::from_str(&crate::session::cookie_header(WELCOME_COOKIE, &value, WELCOME_COOKIE_MAX_AGE_SECS, secure))
        .expect("percent-encoded")
}

/// What a result page gets: the query's welcome data (then also to keep, in the cookie), else
/// the cookie's.
pub fn for_page(
    path: &str,
    query: Option<&str>,
    headers: &HeaderMap,
    secure: bool,
) -> (Map<String, Value>, Option<HeaderValue>) {
    if !reads_welcome(path) {
        return (Map::new(), None);
    }
    let fresh = from_query(query);
    if fresh.is_empty() {
        return (from_cookie(headers), None);
    }
    let keep = cookie(&fresh, secure);
    (fresh, Some(keep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header;

    #[test]
    fn the_biller_redirects_query_is_read_and_typed() {
        let w =
            from_query(Some("memberid=EP-77&hashedMemberId=ab12&username=new+joiner&siteId=2&isTrial=true&other=x"));
        assert_eq!(w["memberid"], "EP-77");
        assert_eq!(w["hashedMemberId"], "ab12");
        assert_eq!(w["username"], "new joiner");
        assert_eq!(w["siteId"], 2);
        assert_eq!(w["isTrial"], true);
        assert!(!w.contains_key("other"));
    }

    #[test]
    fn a_decline_keeps_its_reason_and_site() {
        let w = from_query(Some("siteId=9&reason=Insufficient%20funds"));
        assert_eq!(w["reason"], "Insufficient funds");
        assert_eq!(w["siteId"], 9);
    }

    #[test]
    fn a_query_naming_neither_member_nor_decline_is_no_welcome_data() {
        assert!(from_query(Some("siteId=2&username=x")).is_empty());
        assert!(from_query(None).is_empty());
        assert!(from_query(Some("memberid=")).is_empty());
        assert!(from_query(Some("memberid=ev%0Ail")).is_empty());
        assert!(from_query(Some(&format!("memberid={}", "a".repeat(MAX_FIELD + 1)))).is_empty());
    }

    #[test]
    fn the_cookie_round_trips_and_is_http_only_for_an_hour() {
        let w = from_query(Some("memberid=EP+1&hashedMemberId=h%26x&username=j%C3%B6e&siteId=3&isTrial=false"));
        let set = cookie(&w, false);
        let text = set.to_str().unwrap();
        assert!(text.contains("HttpOnly") && text.contains("Max-Age=3600") && text.contains("SameSite=Lax"));
        assert!(!text.contains("Secure"));
        // Over https it holds an autologin's key: never sent in clear.
        assert!(cookie(&w, true).to_str().unwrap().ends_with("; Secure"));
        let pair = text.split(';').next().unwrap().to_owned();
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(&format!("other=1; {pair}")).unwrap());
        assert_eq!(from_cookie(&headers), w);
    }

    #[test]
    fn only_the_result_pages_read_it_and_the_query_wins_over_the_cookie() {
        let old = cookie(&from_query(Some("memberid=OLD&hashedMemberId=h")), false);
        let mut headers = HeaderMap::new();
        let pair = old.to_str().unwrap().split(';').next().unwrap().to_owned();
        headers.insert(header::COOKIE, HeaderValue::from_str(&pair).unwrap());
        let (w, set) = for_page("/_upgrademembership", None, &headers, false);
        assert_eq!(w["memberid"], "OLD");
        assert!(set.is_none());
        let (w, set) = for_page("/_signupsuccess", Some("memberid=NEW&username=u"), &headers, false);
        assert_eq!(w["memberid"], "NEW");
        assert!(set.is_some());
        assert!(for_page("/videos", Some("memberid=NEW"), &headers, false).0.is_empty());
        assert!(reads_welcome("/_signup-extern/EPOCH"));
    }
}
