//! What an operator sends to create or edit a deal, and its checks: required fields, ranks
//! not negative, addresses well-formed, prices in the displayed format. Every refusal names
//! its field and says what is wrong.

use proto_events::deals::{Deal, DealImage};
use reqwest::Url;
use uuid::Uuid;

pub use crate::api::{DealInput, ImageInput};

/// Longest name and partner name.
pub const MAX_NAME: usize = 100;
/// Longest deal text.
pub const MAX_TEXT: usize = 500;
/// Longest discount part, campaign or zone id.
pub const MAX_SHORT: usize = 50;
/// Longest address.
pub const MAX_URL: usize = 2048;
/// Most images per kind (logo, thumbnail).
pub const MAX_IMAGES: usize = 10;
/// Largest image side in pixels.
pub const MAX_SIDE: u32 = 4096;

/// A refused field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InvalidDeal {
    pub field: &'static str,
    pub message: String,
}

fn invalid(field: &'static str, message: impl Into<String>) -> InvalidDeal {
    InvalidDeal { field, message: message.into() }
}

/// Checks `input` and makes it the deal `deal_id`. `known_site` says whether a brand key exists.
pub fn validate(input: DealInput, deal_id: Uuid, known_site: impl Fn(&str) -> bool) -> Result<Deal, InvalidDeal> {
    let name = required("name", input.name, MAX_NAME)?;
    let site = required("site", input.site, MAX_NAME)?.to_ascii_lowercase();
    if !known_site(&site) {
        return Err(invalid("site", format!("{site:?} is not a brand of this platform")));
    }
    let partner_name = required("partnerName", input.partner_name, MAX_NAME)?;
    let deal_text = required("dealText", input.deal_text, MAX_TEXT)?;
    let deal_text_listing =
        optional("dealTextListing", input.deal_text_listing, MAX_TEXT)?.unwrap_or(deal_text.clone());
    let discount = optional("discount", input.discount, MAX_SHORT)?;
    if let Some(d) = &discount {
        if !is_percentage(d) {
            return Err(invalid("discount", "must be a whole percentage from 1 to 100, such as 75"));
        }
    }
    let url = required("url", input.url, MAX_URL)?;
    check_web_address("url", &url)?;
    let one_click_url = optional("oneClickUrl", input.one_click_url, MAX_URL)?;
    if let Some(u) = &one_click_url {
        check_web_address("oneClickUrl", u)?;
    }
    if input.one_click_enabled && one_click_url.is_none() {
        return Err(invalid("oneClickUrl", "is required when oneClickEnabled is true"));
    }
    if input.request_partner_consent && !input.one_click_enabled {
        return Err(invalid("requestPartnerConsent", "applies to one-click purchases: set oneClickEnabled too"));
    }
    let initial_price = optional("initialPrice", input.initial_price, MAX_SHORT)?;
    if let Some(p) = &initial_price {
        if !is_price(p) {
            return Err(invalid(
                "initialPrice",
                "must be an amount with an optional currency sign and two decimals, such as $1.00 or 29.95",
            ));
        }
    }
    Ok(Deal {
        deal_id,
        name,
        site,
        partner_name,
        deal_text,
        deal_text_listing,
        discount,
        discount_prefix: optional("discountPrefix", input.discount_prefix, MAX_SHORT)?,
        discount_text_post_prefix: optional("discountTextPostPrefix", input.discount_text_post_prefix, MAX_SHORT)?,
        discount_literal: optional("discountLiteral", input.discount_literal, MAX_SHORT)?,
        exclusive: input.exclusive,
        url,
        one_click_url,
        internal_one_click: input.internal_one_click,
        initial_price,
        logo: images("logo", input.logo)?,
        thumbnail: images("thumbnail", input.thumbnail)?,
        request_partner_consent: input.request_partner_consent,
        one_click_enabled: input.one_click_enabled,
        its_up_zone_id: optional("itsUpZoneId", input.its_up_zone_id, MAX_SHORT)?,
        its_up_campaign_id: optional("itsUpCampaignId", input.its_up_campaign_id, MAX_SHORT)?,
        rank: rank("rank", input.rank)?,
        rank_listing: rank("rankListing", input.rank_listing)?,
        rank_interstitial: rank("rankInterstitial", input.rank_interstitial)?,
        enabled: input.enabled,
        enabled_list: input.enabled_list,
        enabled_interstitial: input.enabled_interstitial,
        special_offer: input.special_offer,
    })
}

/// The input that [`validate`] turns into `deal` (for editing a deal as it is).
pub fn input_of(deal: &Deal) -> DealInput {
    let image = |i: &DealImage| ImageInput { src: i.src.clone(), width: i.width, height: i.height };
    DealInput {
        id: Some(deal.deal_id),
        name: Some(deal.name.clone()),
        site: Some(deal.site.clone()),
        partner_name: Some(deal.partner_name.clone()),
        deal_text: Some(deal.deal_text.clone()),
        deal_text_listing: Some(deal.deal_text_listing.clone()),
        discount: deal.discount.clone(),
        discount_prefix: deal.discount_prefix.clone(),
        discount_text_post_prefix: deal.discount_text_post_prefix.clone(),
        discount_literal: deal.discount_literal.clone(),
        exclusive: deal.exclusive,
        url: Some(deal.url.clone()),
        one_click_url: deal.one_click_url.clone(),
        internal_one_click: deal.internal_one_click,
        initial_price: deal.initial_price.clone(),
        logo: deal.logo.iter().map(image).collect(),
        thumbnail: deal.thumbnail.iter().map(image).collect(),
        request_partner_consent: deal.request_partner_consent,
        one_click_enabled: deal.one_click_enabled,
        its_up_zone_id: deal.its_up_zone_id.clone(),
        its_up_campaign_id: deal.its_up_campaign_id.clone(),
        rank: Some(deal.rank.into()),
        rank_listing: Some(deal.rank_listing.into()),
        rank_interstitial: Some(deal.rank_interstitial.into()),
        enabled: deal.enabled,
        enabled_list: deal.enabled_list,
        enabled_interstitial: deal.enabled_interstitial,
        special_offer: deal.special_offer,
    }
}

fn required(field: &'static str, value: Option<String>, max: usize) -> Result<String, InvalidDeal> {
    optional(field, value, max)?.ok_or_else(|| invalid(field, "is required"))
}

/// Trimmed; blank is absent.
fn optional(field: &'static str, value: Option<String>, max: usize) -> Result<Option<String>, InvalidDeal> {
    let Some(value) = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else { return Ok(None) };
    if value.chars().count() > max {
        return Err(invalid(field, format!("must be at most {max} characters")));
    }
    if value.chars().any(char::is_control) {
        return Err(invalid(field, "must not contain control characters"));
    }
    Ok(Some(value))
}

/// A rank is a whole number from 0; absent is 0.
pub fn rank(field: &'static str, value: Option<i64>) -> Result<u32, InvalidDeal> {
    let value = value.unwrap_or(0);
    u32::try_from(value).map_err(|_| {
        if value < 0 {
            invalid(field, "must not be negative")
        } else {
            invalid(field, format!("must be at most {}", u32::MAX))
        }
    })
}

/// An absolute http(s) address with a host.
pub fn check_web_address(field: &'static str, value: &str) -> Result<(), InvalidDeal> {
    let url = Url::parse(value).map_err(|_| invalid(field, "must be an absolute http or https address"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(invalid(field, "must be an absolute http or https address"));
    }
    Ok(())
}

/// An image address: absolute http(s), or a path on the serving host (`/media/...`).
fn check_image_address(field: &'static str, value: &str) -> Result<(), InvalidDeal> {
    if value.starts_with('/') && !value.starts_with("//") {
        return Url::parse("http://host")
            .and_then(|base| base.join(value))
            .map(|_| ())
            .map_err(|_| invalid(field, "must be a well-formed path or http(s) address"));
    }
    check_web_address(field, value).map_err(|_| invalid(field, "must be a path on this host or an http(s) address"))
}

fn images(field: &'static str, list: Vec<ImageInput>) -> Result<Vec<DealImage>, InvalidDeal> {
    if list.len() > MAX_IMAGES {
        return Err(invalid(field, format!("at most {MAX_IMAGES} sizes")));
    }
    list.into_iter()
        .map(|i| {
            let src = i.src.trim().to_owned();
            if src.is_empty() || src.len() > MAX_URL {
                return Err(invalid(field, "every size needs a src"));
            }
            check_image_address(field, &src)?;
            if !(1..=MAX_SIDE).contains(&i.width) || !(1..=MAX_SIDE).contains(&i.height) {
                return Err(invalid(field, format!("width and height must be from 1 to {MAX_SIDE} pixels")));
            }
            Ok(DealImage { src, width: i.width, height: i.height })
        })
        .collect()
}

/// `75`: a whole number from 1 to 100.
pub fn is_percentage(value: &str) -> bool {
    value.len() <= 3
        && value.bytes().all(|b| b.is_ascii_digit())
        && value.parse::<u32>().is_ok_and(|n| (1..=100).contains(&n))
}

/// A displayed price: an optional currency sign ($, €, £), 1 to 7 digits, and optionally a
/// point and exactly two decimals (`$1.00`, `29.95`, `€9`).
pub fn is_price(value: &str) -> bool {
    let amount = value.strip_prefix(['$', '€', '£']).unwrap_or(value);
    let (whole, cents) = match amount.split_once('.') {
        Some((w, c)) => (w, Some(c)),
        None => (amount, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && whole.len() <= 7 && cents.is_none_or(|c| c.len() == 2 && digits(c))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn known(site: &str) -> bool {
        matches!(site, "tushy" | "vixen")
    }

    pub fn good() -> DealInput {
        DealInput {
            name: Some("northwind-annual".into()),
            site: Some("tushy".into()),
            partner_name: Some("Northwind Stream".into()),
            deal_text: Some("A year at a member price".into()),
            url: Some("https://northwind.example.com/join?ref=tushy".into()),
            one_click_url: Some("https://northwind.example.com/oneclick".into()),
            one_click_enabled: true,
            request_partner_consent: true,
            initial_price: Some("$1.00".into()),
            discount: Some("75".into()),
            logo: vec![ImageInput { src: "/media/deals/x/logo-200x60.svg".into(), width: 200, height: 60 }],
            rank: Some(3),
            enabled: true,
            ..DealInput::default()
        }
    }

    fn refusal(input: DealInput) -> InvalidDeal {
        validate(input, Uuid::from_u128(1), known).unwrap_err()
    }

    #[test]
    fn a_complete_deal_is_accepted_with_its_defaults() {
        let deal = validate(good(), Uuid::from_u128(1), known).unwrap();
        assert_eq!(deal.deal_text_listing, "A year at a member price", "the listing text defaults to the deal text");
        assert_eq!((deal.rank, deal.rank_listing, deal.rank_interstitial), (3, 0, 0));
        assert!(deal.enabled && !deal.enabled_list && !deal.enabled_interstitial && !deal.special_offer);
        assert_eq!(validate(input_of(&deal), deal.deal_id, known), Ok(deal), "input_of round-trips");
    }

    #[test]
    fn missing_required_fields_are_named() {
        for (field, input) in [
            ("name", DealInput { name: None, ..good() }),
            ("site", DealInput { site: Some("  ".into()), ..good() }),
            ("partnerName", DealInput { partner_name: None, ..good() }),
            ("dealText", DealInput { deal_text: Some(String::new()), ..good() }),
            ("url", DealInput { url: None, ..good() }),
        ] {
            assert_eq!(refusal(input), invalid(field, "is required"));
        }
    }

    #[test]
    fn negative_ranks_bad_addresses_and_prices_are_refused_clearly() {
        assert_eq!(
            refusal(DealInput { rank_listing: Some(-1), ..good() }),
            invalid("rankListing", "must not be negative")
        );
        assert_eq!(refusal(DealInput { url: Some("northwind.example.com".into()), ..good() }).field, "url");
        assert_eq!(refusal(DealInput { url: Some("javascript:alert(1)".into()), ..good() }).field, "url");
        assert_eq!(
            refusal(DealInput { one_click_url: Some("ftp://x.example.com".into()), ..good() }).field,
            "oneClickUrl"
        );
        assert_eq!(refusal(DealInput { initial_price: Some("1,00 $".into()), ..good() }).field, "initialPrice");
        assert_eq!(refusal(DealInput { discount: Some("150".into()), ..good() }).field, "discount");
        assert_eq!(refusal(DealInput { site: Some("elsewhere".into()), ..good() }).field, "site");
        assert_eq!(refusal(DealInput { one_click_url: None, ..good() }).field, "oneClickUrl");
        assert_eq!(
            refusal(DealInput { one_click_enabled: false, ..good() }).field,
            "requestPartnerConsent",
            "consent without one-click means nothing"
        );
        let image = ImageInput { src: "//cdn.example.com/x.png".into(), width: 10, height: 10 };
        assert_eq!(refusal(DealInput { thumbnail: vec![image], ..good() }).field, "thumbnail");
        let image = ImageInput { src: "/media/x.svg".into(), width: 0, height: 10 };
        assert_eq!(refusal(DealInput { logo: vec![image], ..good() }).field, "logo");
    }

    #[test]
    fn prices_look_like_displayed_prices() {
        for ok in ["$1.00", "29.95", "€9", "£1234567.50", "0.99"] {
            assert!(is_price(ok), "{ok}");
        }
        for bad in ["", "$", "1.0", "1.000", "$-1.00", "12345678", "1,00", "USD 1.00", "$ 1.00", "1."] {
            assert!(!is_price(bad), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn every_rank_from_zero_is_kept_and_every_negative_is_refused(n in any::<i64>()) {
            match rank("rank", Some(n)) {
                Ok(r) => prop_assert_eq!(i64::from(r), n),
                Err(e) => prop_assert!(n < 0 || n > i64::from(u32::MAX), "{e}"),
            }
        }

        #[test]
        fn a_price_is_accepted_exactly_in_its_format(whole in 0u32..10_000_000, cents in 0u32..100, sign in 0usize..4) {
            let sign = ["", "$", "€", "£"][sign];
            let with_cents = format!("{sign}{whole}.{cents:02}");
            let plain = format!("{sign}{whole}");
            let one_digit = format!("{sign}{whole}.{}", cents % 10);
            prop_assert!(is_price(&with_cents));
            prop_assert!(is_price(&plain));
            prop_assert!(!is_price(&one_digit));
        }
    }
}
