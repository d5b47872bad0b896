mod support;

use chrono::{TimeZone, Utc};
use proto_events::deals::{interstitial_snooze_until, Deal, DealCarouselStep, DealEvent as E, DealImage, DealType};
use uuid::Uuid;

fn id(n: u32) -> Uuid {
    Uuid::parse_str(&format!("0190f5a2-0000-7000-8000-{n:012x}")).unwrap()
}

fn deal() -> Deal {
    let image = |kind: &str, width: u32, height: u32| DealImage {
        src: format!("https://assets.example.com/deals/partner-stream/{kind}-{width}x{height}.png"),
        width,
        height,
    };
    Deal {
        deal_id: id(0xde),
        name: "partner-stream-annual".into(),
        site: "tushy".into(),
        partner_name: "Partner Stream".into(),
        deal_text: "A year of Partner Stream at a member price".into(),
        deal_text_listing: "Partner Stream, one year".into(),
        discount: Some("75".into()),
        discount_prefix: Some("SAVE".into()),
        discount_text_post_prefix: Some("% OFF".into()),
        discount_literal: Some("SAVE 75% OFF".into()),
        exclusive: true,
        url: "https://partner.example.com/join?ref=paysite".into(),
        one_click_url: Some("https://partner.example.com/oneclick?ref=paysite".into()),
        internal_one_click: false,
        initial_price: Some("$1.00".into()),
        logo: vec![image("logo", 200, 60), image("logo", 400, 120)],
        thumbnail: vec![image("thumb", 320, 180), image("thumb", 640, 360)],
        request_partner_consent: true,
        one_click_enabled: true,
        its_up_zone_id: Some("zone-1042".into()),
        its_up_campaign_id: Some("campaign-88".into()),
        rank: 1,
        rank_listing: 4,
        rank_interstitial: 2,
        enabled: true,
        enabled_list: true,
        enabled_interstitial: false,
        special_offer: true,
    }
}

fn samples() -> Vec<E> {
    let deal_id = id(0xde);
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    vec![
        E::DealCreated { deal: deal(), created_at: at },
        E::DealEdited {
            deal: Deal { deal_text: "A year of Partner Stream, member price".into(), ..deal() },
            edited_at: at,
        },
        E::DealEnabled { deal_id, deal_type: DealType::Interstitial, enabled_at: at },
        E::DealDisabled { deal_id, deal_type: DealType::Listing, disabled_at: at },
        E::DealReranked { deal_id, deal_type: DealType::Carousel, rank: 3, reranked_at: at },
        E::InterstitialSnoozed {
            user_id: id(0xa1),
            site: "tushy".into(),
            deal_id: Some(deal_id),
            snoozed_at: at,
            until: interstitial_snooze_until(at),
        },
        E::InterstitialContinued { user_id: id(0xa1), site: "tushy".into(), deal_id: Some(deal_id), continued_at: at },
        E::DealCarouselTracked {
            site: "tushy".into(),
            user_id: Some(id(0xa1)),
            step: DealCarouselStep::Success,
            deal_ids: vec![deal_id, id(0xdf)],
            reason: None,
            tracked_at: at,
        },
    ]
}

#[test]
fn every_deals_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn every_deals_event_but_carousel_tracking_names_its_deal() {
    for sample in samples() {
        let expected = match sample {
            E::DealCarouselTracked { .. } => None,
            _ => Some(id(0xde)),
        };
        assert_eq!(sample.deal_id(), expected, "{sample:?}");
    }
}

#[test]
fn a_v1_deal_reads_as_no_special_offer() {
    let v1 = Deal { special_offer: false, ..deal() };
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    support::assert_upcasts("DealCreated", 1, E::DealCreated { deal: v1.clone(), created_at: at });
    support::assert_upcasts(
        "DealEdited",
        1,
        E::DealEdited {
            deal: Deal { deal_text: "A year of Partner Stream, member price".into(), ..v1 },
            edited_at: at,
        },
    );
}

#[test]
fn deal_and_interstitial_streams_are_named_after_their_deal_and_user() {
    use proto_events::deals::{deal_stream_id, interstitial_stream_id};
    assert_eq!(deal_stream_id(id(0xde)), "deal-0190f5a2-0000-7000-8000-0000000000de");
    assert_eq!(interstitial_stream_id(id(0xa1)), "interstitial-0190f5a2-0000-7000-8000-0000000000a1");
}
