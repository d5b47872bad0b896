//! Partner deals shown in the carousel, the listing and the offers interstitial, each
//! user's answer to the interstitial, and the deal carousel's tracking. Streams:
//! `deal-<uuid>`, `interstitial-<user uuid>` and `deal-carousel-<uuid>` (one per tracked
//! carousel event: tracking has no invariant to guard, so no writer waits on another).
//!
//! Readers: the deals read model (findDeals by type and site, ordered by the type's rank),
//! the gateway (whether the interstitial is snoozed), analytics (interstitial_snooze,
//! interstitial_continue and the carousel's requested / success / failed).

use chrono::{DateTime, Months, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::{DecodeError, EventFamily};

/// The stream of a deal.
pub fn deal_stream_id(deal_id: Uuid) -> String {
    format!("deal-{deal_id}")
}

/// The stream of a user's answers to the offers interstitial.
pub fn interstitial_stream_id(user_id: Uuid) -> String {
    format!("interstitial-{user_id}")
}

/// The stream of one tracked deal carousel event.
pub fn deal_carousel_stream_id(tracking_id: Uuid) -> String {
    format!("deal-carousel-{tracking_id}")
}

/// Where a deal can show; each has its own enabled flag and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealType {
    /// Ranked by `rank`, shown when `enabled`.
    Carousel,
    /// Ranked by `rank_interstitial`, shown when `enabled_interstitial`.
    Interstitial,
    /// Ranked by `rank_listing`, shown when `enabled_list`.
    Listing,
}

/// One size of a deal's logo or thumbnail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealImage {
    pub src: String,
    pub width: u32,
    pub height: u32,
}

/// A deal, every field of product.md, "Deals, offers and upsells".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    pub deal_id: Uuid,
    pub name: String,
    /// Brand key of the site the deal shows on.
    pub site: String,
    pub partner_name: String,
    pub deal_text: String,
    /// The text used in the listing.
    pub deal_text_listing: String,
    /// The discount figure, as displayed with its prefix and post-prefix text ("75").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_text_post_prefix: Option<String>,
    /// A discount written out in full, shown instead of the composed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_literal: Option<String>,
    pub exclusive: bool,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_click_url: Option<String>,
    /// The one-click purchase runs through the site's own payments, not the partner's page.
    pub internal_one_click: bool,
    /// The first charge as displayed ("$1.00"); prices are configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_price: Option<String>,
    pub logo: Vec<DealImage>,
    pub thumbnail: Vec<DealImage>,
    /// A one-click purchase first asks consent to share details with the partner.
    pub request_partner_consent: bool,
    pub one_click_enabled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub its_up_zone_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub its_up_campaign_id: Option<String>,
    /// Carousel rank (lower first).
    pub rank: u32,
    pub rank_listing: u32,
    pub rank_interstitial: u32,
    /// Shown in the carousel.
    pub enabled: bool,
    pub enabled_list: bool,
    pub enabled_interstitial: bool,
    /// A special offer: shown only to porn-portal subscribers (product.md, "Deals, offers and upsells", "porn-portal
    /// subscribers get special offers"), beside the deals everyone sees. Added in v2 of
    /// `DealCreated` and `DealEdited`; v1 deals are not special.
    pub special_offer: bool,
}

/// A step of the deal carousel's loading, as the spec names them (product.md, "Deals, offers and upsells": requested, then
/// success or failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealCarouselStep {
    Requested,
    Success,
    Failed,
}

/// Events of the deals service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum DealEvent {
    DealCreated {
        deal: Deal,
        created_at: DateTime<Utc>,
    },
    /// An operator edited a deal: the whole deal as it now is, ranks and flags included.
    DealEdited {
        deal: Deal,
        edited_at: DateTime<Utc>,
    },
    /// The deal now shows in one place (sets `enabled`, `enabled_list` or `enabled_interstitial`).
    DealEnabled {
        deal_id: Uuid,
        deal_type: DealType,
        enabled_at: DateTime<Utc>,
    },
    DealDisabled {
        deal_id: Uuid,
        deal_type: DealType,
        disabled_at: DateTime<Utc>,
    },
    /// The deal's rank in one place changed (sets `rank`, `rank_listing` or `rank_interstitial`).
    DealReranked {
        deal_id: Uuid,
        deal_type: DealType,
        rank: u32,
        reranked_at: DateTime<Utc>,
    },
    /// The user hid the offers interstitial for one month.
    InterstitialSnoozed {
        user_id: Uuid,
        site: String,
        /// The deal the interstitial was showing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deal_id: Option<Uuid>,
        snoozed_at: DateTime<Utc>,
        /// One calendar month after `snoozed_at`.
        until: DateTime<Utc>,
    },
    /// The user went on past the interstitial without hiding it.
    InterstitialContinued {
        user_id: Uuid,
        site: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deal_id: Option<Uuid>,
        continued_at: DateTime<Utc>,
    },
    /// The browser reported a step of loading the deal carousel.
    DealCarouselTracked {
        site: String,
        /// The signed-in user; none for a visitor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user_id: Option<Uuid>,
        step: DealCarouselStep,
        /// On success, the deals the carousel stored, in the order shown.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        deal_ids: Vec<Uuid>,
        /// On failure, what the browser said went wrong.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        tracked_at: DateTime<Utc>,
    },
}

impl DealEvent {
    /// The deal the event is about; `None` for an interstitial answer that named none.
    pub fn deal_id(&self) -> Option<Uuid> {
        match self {
            DealEvent::DealCreated { deal, .. } | DealEvent::DealEdited { deal, .. } => Some(deal.deal_id),
            DealEvent::DealEnabled { deal_id, .. }
            | DealEvent::DealDisabled { deal_id, .. }
            | DealEvent::DealReranked { deal_id, .. } => Some(*deal_id),
            DealEvent::InterstitialSnoozed { deal_id, .. } | DealEvent::InterstitialContinued { deal_id, .. } => {
                *deal_id
            }
            DealEvent::DealCarouselTracked { .. } => None,
        }
    }

    /// The user of an interstitial answer.
    pub fn user_id(&self) -> Option<Uuid> {
        match self {
            DealEvent::InterstitialSnoozed { user_id, .. } | DealEvent::InterstitialContinued { user_id, .. } => {
                Some(*user_id)
            }
            DealEvent::DealCarouselTracked { user_id, .. } => *user_id,
            DealEvent::DealCreated { .. }
            | DealEvent::DealEdited { .. }
            | DealEvent::DealEnabled { .. }
            | DealEvent::DealDisabled { .. }
            | DealEvent::DealReranked { .. } => None,
        }
    }
}

/// When an interstitial snoozed at `snoozed_at` shows again: one calendar month later (the
/// last day of the next month when it is shorter).
pub fn interstitial_snooze_until(snoozed_at: DateTime<Utc>) -> DateTime<Utc> {
    snoozed_at.checked_add_months(Months::new(1)).expect("a month after a real date is a real date")
}

impl EventFamily for DealEvent {
    const DOMAIN: &'static str = "deals";
    const TYPES: &'static [(&'static str, u32)] = &[
        // v2 added `deal.special_offer` (porn-portal subscribers' special offers).
        ("DealCreated", 2),
        ("DealEdited", 2),
        ("DealEnabled", 1),
        ("DealDisabled", 1),
        ("DealReranked", 1),
        ("InterstitialSnoozed", 1),
        ("InterstitialContinued", 1),
        ("DealCarouselTracked", 1),
    ];

    fn upcast_step(event_type: &str, version: u32, payload: Value) -> Result<Value, DecodeError> {
        match (event_type, version) {
            // A v1 deal was shown to everyone: not a special offer.
            ("DealCreated" | "DealEdited", 1) => {
                let mut payload = payload;
                if let Some(Value::Object(deal)) = payload.get_mut("deal") {
                    deal.entry("special_offer").or_insert(Value::Bool(false));
                }
                Ok(payload)
            }
            _ => Err(DecodeError::NoUpcaster { event_type: event_type.to_owned(), version }),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_snoozed_interstitial_returns_one_calendar_month_later() {
        let at = |y, m, d| Utc.with_ymd_and_hms(y, m, d, 9, 30, 0).unwrap();
        assert_eq!(interstitial_snooze_until(at(2026, 1, 2)), at(2026, 2, 2));
        assert_eq!(interstitial_snooze_until(at(2026, 1, 31)), at(2026, 2, 28));
        assert_eq!(interstitial_snooze_until(at(2026, 12, 15)), at(2027, 1, 15));
    }
}
