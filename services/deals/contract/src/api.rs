//! The shapes of the internal API, shared by the service's handlers and the typed client
//! ([`crate::client`]). Answers use the spec's names (camelCase).

use chrono::{DateTime, Utc};
use proto_events::deals::{Deal, DealCarouselStep, DealType};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The port the service listens on by default (`PAYSITE_DEALS_URL` overrides the address).
pub const PORT: u16 = 8105;

/// The ConfirmOutgoingUpsell modal's props.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmOutgoingUpsellProps {
    pub component: Option<String>,
    pub confirmation_link: String,
    pub confirmation_title: Option<String>,
    pub description: Option<String>,
    pub price: Option<String>,
}

/// One size of a logo or thumbnail, as sent and as answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageInput {
    pub src: String,
    pub width: u32,
    pub height: u32,
}

/// A deal as an operator writes it (camelCase, the spec's names). Absent flags are false,
/// absent ranks 0; `dealTextListing` defaults to `dealText`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DealInput {
    /// Only on create, to choose the id (a seed); a new id otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,
    pub name: Option<String>,
    pub site: Option<String>,
    pub partner_name: Option<String>,
    pub deal_text: Option<String>,
    pub deal_text_listing: Option<String>,
    pub discount: Option<String>,
    pub discount_prefix: Option<String>,
    pub discount_text_post_prefix: Option<String>,
    pub discount_literal: Option<String>,
    pub exclusive: bool,
    pub url: Option<String>,
    pub one_click_url: Option<String>,
    pub internal_one_click: bool,
    pub initial_price: Option<String>,
    pub logo: Vec<ImageInput>,
    pub thumbnail: Vec<ImageInput>,
    pub request_partner_consent: bool,
    pub one_click_enabled: bool,
    pub its_up_zone_id: Option<String>,
    pub its_up_campaign_id: Option<String>,
    pub rank: Option<i64>,
    pub rank_listing: Option<i64>,
    pub rank_interstitial: Option<i64>,
    pub enabled: bool,
    pub enabled_list: bool,
    pub enabled_interstitial: bool,
    pub special_offer: bool,
}

/// A deal with every field of product.md, "Deals, offers and upsells", plus the props of its one-click consent modal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DealView {
    pub id: Uuid,
    pub name: String,
    pub site: String,
    pub partner_name: String,
    pub deal_text: String,
    pub deal_text_listing: String,
    pub discount: Option<String>,
    pub discount_prefix: Option<String>,
    pub discount_text_post_prefix: Option<String>,
    pub discount_literal: Option<String>,
    pub exclusive: bool,
    pub url: String,
    pub one_click_url: Option<String>,
    pub internal_one_click: bool,
    pub initial_price: Option<String>,
    pub logo: Vec<ImageInput>,
    pub thumbnail: Vec<ImageInput>,
    pub request_partner_consent: bool,
    pub one_click_enabled: bool,
    pub its_up_zone_id: Option<String>,
    pub its_up_campaign_id: Option<String>,
    pub rank: u32,
    pub rank_listing: u32,
    pub rank_interstitial: u32,
    pub enabled: bool,
    pub enabled_list: bool,
    pub enabled_interstitial: bool,
    /// Shown only to porn-portal subscribers.
    pub special_offer: bool,
    /// The OneClickConsent modal's props, when a one-click purchase of this deal asks consent.
    pub one_click_consent: Option<OneClickConsentProps>,
}

/// The OneClickConsent modal's props (product.md, "Deals, offers and upsells").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OneClickConsentProps {
    pub partner_name: String,
    /// The deal's initial price as displayed.
    pub price: Option<String>,
    pub one_click_url: String,
    /// The partner's logo (its largest size), shown in the modal.
    pub src: Option<String>,
}

/// The consent props of a deal whose one-click purchase asks the user's consent to share
/// details with the partner; `None` when no consent is asked.
pub fn one_click_consent(deal: &Deal) -> Option<OneClickConsentProps> {
    if !(deal.one_click_enabled && deal.request_partner_consent) {
        return None;
    }
    let one_click_url = deal.one_click_url.clone()?;
    let src = deal.logo.iter().max_by_key(|i| (i.width, i.height)).or(deal.thumbnail.first()).map(|i| i.src.clone());
    Some(OneClickConsentProps {
        partner_name: deal.partner_name.clone(),
        price: deal.initial_price.clone(),
        one_click_url,
        src,
    })
}

impl From<&Deal> for DealView {
    fn from(d: &Deal) -> Self {
        let image =
            |i: &proto_events::deals::DealImage| ImageInput { src: i.src.clone(), width: i.width, height: i.height };
        DealView {
            id: d.deal_id,
            name: d.name.clone(),
            site: d.site.clone(),
            partner_name: d.partner_name.clone(),
            deal_text: d.deal_text.clone(),
            deal_text_listing: d.deal_text_listing.clone(),
            discount: d.discount.clone(),
            discount_prefix: d.discount_prefix.clone(),
            discount_text_post_prefix: d.discount_text_post_prefix.clone(),
            discount_literal: d.discount_literal.clone(),
            exclusive: d.exclusive,
            url: d.url.clone(),
            one_click_url: d.one_click_url.clone(),
            internal_one_click: d.internal_one_click,
            initial_price: d.initial_price.clone(),
            logo: d.logo.iter().map(image).collect(),
            thumbnail: d.thumbnail.iter().map(image).collect(),
            request_partner_consent: d.request_partner_consent,
            one_click_enabled: d.one_click_enabled,
            its_up_zone_id: d.its_up_zone_id.clone(),
            its_up_campaign_id: d.its_up_campaign_id.clone(),
            rank: d.rank,
            rank_listing: d.rank_listing,
            rank_interstitial: d.rank_interstitial,
            enabled: d.enabled,
            enabled_list: d.enabled_list,
            enabled_interstitial: d.enabled_interstitial,
            special_offer: d.special_offer,
            one_click_consent: one_click_consent(d),
        }
    }
}

/// A deal type as the API spells it: `carousel`, `interstitial`, `listing`.
pub fn deal_type_name(deal_type: DealType) -> &'static str {
    match deal_type {
        DealType::Carousel => "carousel",
        DealType::Interstitial => "interstitial",
        DealType::Listing => "listing",
    }
}

/// findDeals(input: {limit, type, site}), as query parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindDealsQuery {
    #[serde(rename = "type")]
    pub deal_type: DealType,
    pub site: String,
    /// 1 to the type's maximum (carousel 40, listing and interstitial 15); that maximum when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealsResponse {
    pub deals: Vec<DealView>,
}

/// Whether the offers interstitial is hidden for a user on a site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InterstitialView {
    pub site: String,
    pub snoozed: bool,
    /// When a snooze ends (one calendar month after it), while it runs.
    pub snoozed_until: Option<DateTime<Utc>>,
}

/// The offers page of a brand: its offer page id, the offers grid and the interstitial.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OffersResponse {
    pub site: String,
    pub offer_page_id: u32,
    /// The interstitial deals, ranked (the offers grid, 15).
    pub deals: Vec<DealView>,
    /// The signed-in user's interstitial; none for a visitor.
    pub interstitial: Option<InterstitialView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteQuery {
    pub site: String,
}

/// The user hides (snooze) or continues past the interstitial on `site`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InterstitialAnswer {
    pub site: String,
    /// The deal the interstitial was showing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_id: Option<Uuid>,
}

/// A step of loading the deal carousel, reported by the browser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CarouselEventRequest {
    pub site: String,
    /// `requested`, `success` or `failed`.
    pub step: DealCarouselStep,
    /// On success, the deals stored, in order (at most the carousel limit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deal_ids: Vec<Uuid>,
    /// On failure, the error the browser saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CarouselEventResponse {
    pub tracking_id: Uuid,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmationQuery {
    pub confirmation: String,
}

/// Enable or disable a deal as one type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementRequest {
    #[serde(rename = "type")]
    pub deal_type: DealType,
}

/// Rank a deal as one type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankRequest {
    #[serde(rename = "type")]
    pub deal_type: DealType,
    pub rank: i64,
}
