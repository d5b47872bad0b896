//! The /deals confirmation payload (product.md, "Deals, offers and upsells"): the query `confirmation` holds base64 of
//! a JSON object with title, confirmationLink, component, price and description, and opens
//! the outgoing-upsell confirmation modal with the props component, confirmationLink,
//! confirmationTitle, description and price (product.md, "Deals, offers and upsells").
//!
//! The link must be non-empty, else 'Outgoing upsell - Confirmation link is missing'. It
//! must also be a path on the site or an http(s) address: the modal sends the user there,
//! so a `javascript:` link in a crafted URL would run script on the brand's origin.

use base64::{
    alphabet,
    engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig},
    Engine,
};
use reqwest::Url;
use serde_json::Value;

pub use crate::api::ConfirmOutgoingUpsellProps;

/// The spec's message for an empty or absent link.
pub const LINK_MISSING: &str = "Outgoing upsell - Confirmation link is missing";
/// Longest payload accepted (a query value), in characters.
pub const MAX_PAYLOAD: usize = 8 * 1024;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfirmationError {
    #[error("Outgoing upsell - Confirmation is not valid base64")]
    NotBase64,
    #[error("Outgoing upsell - Confirmation is not valid JSON")]
    NotJson,
    #[error("Outgoing upsell - Confirmation must be a JSON object")]
    NotAnObject,
    #[error("Outgoing upsell - Confirmation field {field} must be {expected}")]
    BadField { field: &'static str, expected: &'static str },
    #[error("Outgoing upsell - Confirmation link is missing")]
    LinkMissing,
    #[error("Outgoing upsell - Confirmation link must be a path on this site or an http(s) address")]
    LinkNotWebAddress,
    #[error("Outgoing upsell - Confirmation is longer than {MAX_PAYLOAD} characters")]
    TooLong,
}

impl ConfirmationError {
    /// The SCREAMING_SNAKE code answered with the message.
    pub fn code(&self) -> &'static str {
        match self {
            ConfirmationError::NotBase64 => "CONFIRMATION_NOT_BASE64",
            ConfirmationError::NotJson => "CONFIRMATION_NOT_JSON",
            ConfirmationError::NotAnObject | ConfirmationError::BadField { .. } | ConfirmationError::TooLong => {
                "CONFIRMATION_MALFORMED"
            }
            ConfirmationError::LinkMissing => "CONFIRMATION_LINK_MISSING",
            ConfirmationError::LinkNotWebAddress => "CONFIRMATION_LINK_INVALID",
        }
    }
}

fn engine(alphabet: &alphabet::Alphabet) -> GeneralPurpose {
    GeneralPurpose::new(alphabet, GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent))
}

/// Decodes base64 in the standard or the URL-safe alphabet, padded or not. A space stands
/// for `+`: a query string decoder turns an unescaped `+` into one.
pub fn decode_base64(encoded: &str) -> Result<Vec<u8>, ConfirmationError> {
    let text: String = encoded.trim().chars().map(|c| if c == ' ' { '+' } else { c }).collect();
    let url_safe = text.contains(['-', '_']);
    let alphabet = if url_safe { &alphabet::URL_SAFE } else { &alphabet::STANDARD };
    engine(alphabet).decode(text.as_bytes()).map_err(|_| ConfirmationError::NotBase64)
}

/// Reads a confirmation payload into the modal's props, or says exactly what is wrong.
pub fn parse_confirmation(encoded: &str) -> Result<ConfirmOutgoingUpsellProps, ConfirmationError> {
    if encoded.chars().count() > MAX_PAYLOAD {
        return Err(ConfirmationError::TooLong);
    }
    let bytes = decode_base64(encoded)?;
    let json: Value = serde_json::from_slice(&bytes).map_err(|_| ConfirmationError::NotJson)?;
    let Value::Object(fields) = json else { return Err(ConfirmationError::NotAnObject) };
    let text = |field: &'static str| -> Result<Option<String>, ConfirmationError> {
        match fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(ConfirmationError::BadField { field, expected: "a string" }),
        }
    };
    let price = match fields.get("price") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err(ConfirmationError::BadField { field: "price", expected: "a string or a number" }),
    };
    let link = text("confirmationLink")?.map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    let Some(confirmation_link) = link else { return Err(ConfirmationError::LinkMissing) };
    check_link(&confirmation_link)?;
    Ok(ConfirmOutgoingUpsellProps {
        component: text("component")?,
        confirmation_link,
        confirmation_title: text("title")?,
        description: text("description")?,
        price,
    })
}

/// A path on this site (`/oneclick/outgoing-upsell?...`) or an absolute http(s) address.
fn check_link(link: &str) -> Result<(), ConfirmationError> {
    let ok = if link.starts_with('/') && !link.starts_with("//") && !link.starts_with("/\\") {
        Url::parse("http://site.invalid").and_then(|base| base.join(link)).is_ok()
    } else {
        Url::parse(link).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
    };
    if ok {
        Ok(())
    } else {
        Err(ConfirmationError::LinkNotWebAddress)
    }
}

/// Encodes props as a /deals confirmation payload (standard base64 of the spec's JSON).
pub fn encode_confirmation(props: &ConfirmOutgoingUpsellProps) -> String {
    let json = serde_json::json!({
        "title": props.confirmation_title,
        "confirmationLink": props.confirmation_link,
        "component": props.component,
        "price": props.price,
        "description": props.description,
    });
    base64::engine::general_purpose::STANDARD.encode(json.to_string())
}

#[cfg(test)]
mod tests {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn b64(value: &Value) -> String {
        STANDARD.encode(value.to_string())
    }

    fn full() -> Value {
        json!({
            "title": "Add Partner Stream?",
            "confirmationLink": "/oneclick/outgoing-upsell?epoch_upsellid=42&confirmed=1",
            "component": "ConfirmOutgoingUpsell",
            "price": "$1.00",
            "description": "One click, billed with your membership.",
        })
    }

    #[test]
    fn a_good_payload_gives_the_modal_props() {
        let props = parse_confirmation(&b64(&full())).unwrap();
        assert_eq!(
            props,
            ConfirmOutgoingUpsellProps {
                component: Some("ConfirmOutgoingUpsell".into()),
                confirmation_link: "/oneclick/outgoing-upsell?epoch_upsellid=42&confirmed=1".into(),
                confirmation_title: Some("Add Partner Stream?".into()),
                description: Some("One click, billed with your membership.".into()),
                price: Some("$1.00".into()),
            }
        );
        assert_eq!(parse_confirmation(&encode_confirmation(&props)), Ok(props));
    }

    #[test]
    fn url_safe_unpadded_and_space_for_plus_are_read_too() {
        let value = json!({ "confirmationLink": "https://partner.example.com/ok?a=1", "title": "~~~>>>???" });
        let props = parse_confirmation(&URL_SAFE_NO_PAD.encode(value.to_string())).unwrap();
        assert_eq!(props.confirmation_title.as_deref(), Some("~~~>>>???"));
        let standard = b64(&value);
        assert!(standard.contains('+'), "the sample must exercise '+': {standard}");
        assert_eq!(parse_confirmation(&standard.replace('+', " ")).unwrap(), props);
    }

    #[test]
    fn a_number_price_is_read_as_its_text() {
        let mut value = full();
        value["price"] = json!(29.95);
        assert_eq!(parse_confirmation(&b64(&value)).unwrap().price.as_deref(), Some("29.95"));
    }

    #[test]
    fn not_base64_not_json_and_not_an_object_are_told_apart() {
        assert_eq!(parse_confirmation("%%%not base64%%%"), Err(ConfirmationError::NotBase64));
        assert_eq!(parse_confirmation("abcde"), Err(ConfirmationError::NotBase64), "a length no encoding gives");
        assert_eq!(parse_confirmation(&STANDARD.encode("{title: nope")), Err(ConfirmationError::NotJson));
        assert_eq!(parse_confirmation(""), Err(ConfirmationError::NotJson));
        assert_eq!(parse_confirmation(&STANDARD.encode([0xff, 0xfe, 0x00])), Err(ConfirmationError::NotJson));
        assert_eq!(parse_confirmation(&b64(&json!(["/x"]))), Err(ConfirmationError::NotAnObject));
        let mut value = full();
        value["title"] = json!(7);
        assert_eq!(
            parse_confirmation(&b64(&value)).unwrap_err().to_string(),
            "Outgoing upsell - Confirmation field title must be a string"
        );
    }

    #[test]
    fn an_empty_or_absent_link_is_the_spec_message() {
        for link in [json!(""), json!("   "), Value::Null] {
            let mut value = full();
            value["confirmationLink"] = link;
            let err = parse_confirmation(&b64(&value)).unwrap_err();
            assert_eq!(err.to_string(), LINK_MISSING);
            assert_eq!(err.code(), "CONFIRMATION_LINK_MISSING");
        }
        let mut value = full();
        value.as_object_mut().unwrap().remove("confirmationLink");
        assert_eq!(parse_confirmation(&b64(&value)).unwrap_err().to_string(), LINK_MISSING);
    }

    #[test]
    fn a_link_that_is_no_web_address_is_refused() {
        for link in
            ["javascript:alert(1)", "//evil.example.com/x", "data:text/html,hi", "nota link", "/\\evil.example.com"]
        {
            let mut value = full();
            value["confirmationLink"] = json!(link);
            assert_eq!(parse_confirmation(&b64(&value)), Err(ConfirmationError::LinkNotWebAddress), "{link}");
        }
    }

    fn text() -> impl Strategy<Value = Option<String>> {
        proptest::option::of("\\PC{0,40}")
    }

    proptest! {
        /// Any props with a path link survive encode then parse unchanged.
        #[test]
        fn props_round_trip(
            path in "/[a-z0-9/_?=&.-]{0,60}",
            component in text(), title in text(), description in text(), price in text(),
        ) {
            prop_assume!(!path.starts_with("//"));
            let props = ConfirmOutgoingUpsellProps {
                component, confirmation_link: path, confirmation_title: title, description, price,
            };
            prop_assert_eq!(parse_confirmation(&encode_confirmation(&props)), Ok(props));
        }

        /// Text with a character outside both base64 alphabets is never read.
        #[test]
        fn non_base64_text_is_refused_as_such(prefix in "[A-Za-z0-9]{0,20}", bad in "[!#%&*(),.:;<>@\\[\\]{}|~^`\"']", suffix in "[A-Za-z0-9]{0,20}") {
            let input = format!("{prefix}{bad}{suffix}");
            prop_assert_eq!(parse_confirmation(&input), Err(ConfirmationError::NotBase64));
        }

        /// Bytes that are not JSON, well encoded, are refused as not JSON.
        #[test]
        fn encoded_non_json_is_refused_as_such(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assume!(serde_json::from_slice::<Value>(&bytes).is_err());
            prop_assert_eq!(parse_confirmation(&STANDARD.encode(&bytes)), Err(ConfirmationError::NotJson));
        }

        /// Whatever else the object holds, a blank or absent link is the spec's message.
        #[test]
        fn a_blank_link_is_always_the_spec_message(
            blank in "[ \t]{0,5}", absent in any::<bool>(), title in text(), price in text(),
        ) {
            let mut value = json!({ "title": title, "price": price, "component": "C" });
            if !absent {
                value["confirmationLink"] = json!(blank);
            }
            let err = parse_confirmation(&b64(&value)).unwrap_err();
            prop_assert_eq!(err.to_string(), LINK_MISSING);
        }
    }
}
