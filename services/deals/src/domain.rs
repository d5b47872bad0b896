//! The rules of deals, as two deciders and a few pure functions.
//!
//! - A deal (`deal-<uuid>`): operators create it, edit it, enable or disable it per type
//!   and rank it per type. Each type (carousel, interstitial, listing) has its own enabled
//!   flag and rank (product.md, "Deals, offers and upsells"): carousel `enabled`/`rank`, listing `enabledList`/`rankListing`,
//!   interstitial `enabledInterstitial`/`rankInterstitial`.
//! - A user's interstitial (`interstitial-<user uuid>`): hidden (snoozed) for one calendar
//!   month per site, or continued; both are tracked (interstitial_snooze, interstitial_continue).
//!
//! The clock is read by the caller and put in the command. Input checks live in [`crate::input`].

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use proto_events::deals::{interstitial_snooze_until, Deal, DealEvent, DealType};
use runtime::Decider;
use uuid::Uuid;

/// The deals carousel's limit (product.md, "Deals, offers and upsells").
pub const CAROUSEL_LIMIT: u32 = 40;
/// The deals grid and the offers grid show 15 each (product.md, "Deals, offers and upsells").
pub const GRID_LIMIT: u32 = 15;

/// The most deals findDeals answers for a type, and its default `limit`: the carousel 40,
/// the listing (the /deals grid) 15, the interstitial (the /offers grid) 15.
pub fn max_limit(deal_type: DealType) -> u32 {
    match deal_type {
        DealType::Carousel => CAROUSEL_LIMIT,
        DealType::Listing | DealType::Interstitial => GRID_LIMIT,
    }
}

/// Whether a deal shows as `deal_type`.
pub fn enabled_for(deal: &Deal, deal_type: DealType) -> bool {
    match deal_type {
        DealType::Carousel => deal.enabled,
        DealType::Listing => deal.enabled_list,
        DealType::Interstitial => deal.enabled_interstitial,
    }
}

/// A deal's rank as `deal_type` (lower shows first).
pub fn rank_for(deal: &Deal, deal_type: DealType) -> u32 {
    match deal_type {
        DealType::Carousel => deal.rank,
        DealType::Listing => deal.rank_listing,
        DealType::Interstitial => deal.rank_interstitial,
    }
}

/// Who sees special offers: porn-portal subscribers only (product.md, "Deals, offers and upsells").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    PornPortalSubscriber,
    Everyone,
}

/// findDeals as a pure rule: the deals of `site` enabled for `deal_type`, special offers
/// only for porn-portal subscribers, ordered by the type's rank (ties by id, which is
/// creation order for generated ids), at most `limit`. The read model's SQL does the same;
/// a test holds them together.
pub fn find_deals<'a>(
    deals: impl IntoIterator<Item = &'a Deal>,
    site: &str,
    deal_type: DealType,
    viewer: Viewer,
    limit: u32,
) -> Vec<&'a Deal> {
    let mut found: Vec<&Deal> = deals
        .into_iter()
        .filter(|d| d.site == site && enabled_for(d, deal_type))
        .filter(|d| !d.special_offer || viewer == Viewer::PornPortalSubscriber)
        .collect();
    found.sort_by_key(|d| (rank_for(d, deal_type), d.deal_id));
    found.truncate(limit as usize);
    found
}

// --- a deal ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum DealCommand {
    /// Creating the same deal again changes nothing (a re-run seed); another deal under an
    /// existing id is refused.
    Create {
        deal: Deal,
        at: DateTime<Utc>,
    },
    /// Replaces the whole deal; an edit that changes nothing records nothing.
    Edit {
        deal: Deal,
        at: DateTime<Utc>,
    },
    Enable {
        deal_type: DealType,
        at: DateTime<Utc>,
    },
    Disable {
        deal_type: DealType,
        at: DateTime<Utc>,
    },
    Rerank {
        deal_type: DealType,
        rank: u32,
        at: DateTime<Utc>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("a different deal {0} already exists")]
    AlreadyExists(Uuid),
    #[error("no deal {0}")]
    NotFound(Uuid),
    #[error("the deal's id {given} does not match its stream's {stream}")]
    WrongId { given: Uuid, stream: Uuid },
}

/// The deal decider: the state is the deal, once created.
pub struct DealStream;

impl Decider for DealStream {
    type Event = DealEvent;
    type State = Option<Deal>;
    type Command = DealCommand;
    type Error = DealError;

    fn decide(state: &Option<Deal>, command: DealCommand) -> Result<Vec<DealEvent>, DealError> {
        decide_deal(state.as_ref(), command)
    }

    fn evolve(state: Option<Deal>, event: &DealEvent) -> Option<Deal> {
        evolve_deal(state, event)
    }
}

pub fn decide_deal(deal: Option<&Deal>, command: DealCommand) -> Result<Vec<DealEvent>, DealError> {
    match (deal, command) {
        (None, DealCommand::Create { deal, at }) => Ok(vec![DealEvent::DealCreated { deal, created_at: at }]),
        (Some(existing), DealCommand::Create { deal, .. }) if *existing == deal => Ok(vec![]),
        (Some(existing), DealCommand::Create { .. }) => Err(DealError::AlreadyExists(existing.deal_id)),
        (None, DealCommand::Edit { deal, .. }) => Err(DealError::NotFound(deal.deal_id)),
        (None, DealCommand::Enable { .. } | DealCommand::Disable { .. } | DealCommand::Rerank { .. }) => {
            Err(DealError::NotFound(Uuid::nil()))
        }
        (Some(existing), DealCommand::Edit { deal, at }) => {
            if deal.deal_id != existing.deal_id {
                Err(DealError::WrongId { given: deal.deal_id, stream: existing.deal_id })
            } else if *existing == deal {
                Ok(vec![])
            } else {
                Ok(vec![DealEvent::DealEdited { deal, edited_at: at }])
            }
        }
        (Some(existing), DealCommand::Enable { deal_type, at }) => Ok(if enabled_for(existing, deal_type) {
            vec![]
        } else {
            vec![DealEvent::DealEnabled { deal_id: existing.deal_id, deal_type, enabled_at: at }]
        }),
        (Some(existing), DealCommand::Disable { deal_type, at }) => Ok(if enabled_for(existing, deal_type) {
            vec![DealEvent::DealDisabled { deal_id: existing.deal_id, deal_type, disabled_at: at }]
        } else {
            vec![]
        }),
        (Some(existing), DealCommand::Rerank { deal_type, rank, at }) => Ok(if rank_for(existing, deal_type) == rank {
            vec![]
        } else {
            vec![DealEvent::DealReranked { deal_id: existing.deal_id, deal_type, rank, reranked_at: at }]
        }),
    }
}

pub fn evolve_deal(deal: Option<Deal>, event: &DealEvent) -> Option<Deal> {
    match event {
        DealEvent::DealCreated { deal, .. } | DealEvent::DealEdited { deal, .. } => Some(deal.clone()),
        DealEvent::DealEnabled { deal_type, .. } => deal.map(|d| set_enabled(d, *deal_type, true)),
        DealEvent::DealDisabled { deal_type, .. } => deal.map(|d| set_enabled(d, *deal_type, false)),
        DealEvent::DealReranked { deal_type, rank, .. } => deal.map(|mut d| {
            match deal_type {
                DealType::Carousel => d.rank = *rank,
                DealType::Listing => d.rank_listing = *rank,
                DealType::Interstitial => d.rank_interstitial = *rank,
            }
            d
        }),
        DealEvent::InterstitialSnoozed { .. }
        | DealEvent::InterstitialContinued { .. }
        | DealEvent::DealCarouselTracked { .. } => deal,
    }
}

fn set_enabled(mut deal: Deal, deal_type: DealType, on: bool) -> Deal {
    match deal_type {
        DealType::Carousel => deal.enabled = on,
        DealType::Listing => deal.enabled_list = on,
        DealType::Interstitial => deal.enabled_interstitial = on,
    }
    deal
}

// --- a user's interstitial --------------------------------------------------------------

/// Until when the interstitial is hidden, per site.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interstitial {
    snoozed_until: BTreeMap<String, DateTime<Utc>>,
}

impl Interstitial {
    pub fn snoozed_until(&self, site: &str) -> Option<DateTime<Utc>> {
        self.snoozed_until.get(site).copied()
    }
}

/// The interstitial is hidden while `now` is before the end of its snooze.
pub fn is_snoozed(snoozed_until: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    snoozed_until.is_some_and(|until| now < until)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterstitialCommand {
    /// Hide for one calendar month. While already hidden, nothing changes: the month runs
    /// from the first snooze (the interstitial was not showing to be snoozed again).
    Snooze { user_id: Uuid, site: String, deal_id: Option<Uuid>, now: DateTime<Utc> },
    /// Go on past the interstitial; always recorded (interstitial_continue).
    Continue { user_id: Uuid, site: String, deal_id: Option<Uuid>, now: DateTime<Utc> },
}

/// The interstitial decider; it refuses nothing.
pub struct InterstitialStream;

impl Decider for InterstitialStream {
    type Event = DealEvent;
    type State = Interstitial;
    type Command = InterstitialCommand;
    type Error = std::convert::Infallible;

    fn decide(state: &Interstitial, command: InterstitialCommand) -> Result<Vec<DealEvent>, Self::Error> {
        Ok(decide_interstitial(state, command))
    }

    fn evolve(state: Interstitial, event: &DealEvent) -> Interstitial {
        evolve_interstitial(state, event)
    }
}

pub fn decide_interstitial(state: &Interstitial, command: InterstitialCommand) -> Vec<DealEvent> {
    match command {
        InterstitialCommand::Snooze { user_id, site, deal_id, now } => {
            if is_snoozed(state.snoozed_until(&site), now) {
                return vec![];
            }
            let until = interstitial_snooze_until(now);
            vec![DealEvent::InterstitialSnoozed { user_id, site, deal_id, snoozed_at: now, until }]
        }
        InterstitialCommand::Continue { user_id, site, deal_id, now } => {
            vec![DealEvent::InterstitialContinued { user_id, site, deal_id, continued_at: now }]
        }
    }
}

pub fn evolve_interstitial(mut state: Interstitial, event: &DealEvent) -> Interstitial {
    if let DealEvent::InterstitialSnoozed { site, until, .. } = event {
        state.snoozed_until.insert(site.clone(), *until);
    }
    state
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::TimeZone;
    use proptest::prelude::*;

    use super::*;

    pub fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 9, 30, 0).unwrap()
    }

    pub fn deal(n: u128, site: &str) -> Deal {
        Deal {
            deal_id: Uuid::from_u128(n),
            name: format!("deal-{n}"),
            site: site.into(),
            partner_name: "Northwind Stream".into(),
            deal_text: "A year at a member price".into(),
            deal_text_listing: "One year".into(),
            discount: Some("50".into()),
            discount_prefix: Some("SAVE".into()),
            discount_text_post_prefix: Some("% OFF".into()),
            discount_literal: None,
            exclusive: false,
            url: "https://northwind.example.com/join".into(),
            one_click_url: Some("https://northwind.example.com/oneclick".into()),
            internal_one_click: false,
            initial_price: Some("$1.00".into()),
            logo: vec![],
            thumbnail: vec![],
            request_partner_consent: true,
            one_click_enabled: true,
            its_up_zone_id: None,
            its_up_campaign_id: None,
            rank: 0,
            rank_listing: 0,
            rank_interstitial: 0,
            enabled: true,
            enabled_list: true,
            enabled_interstitial: true,
            special_offer: false,
        }
    }

    fn given(events: &[DealEvent]) -> Option<Deal> {
        events.iter().fold(None, evolve_deal)
    }

    #[test]
    fn creating_a_deal_records_it_and_creating_it_again_changes_nothing() {
        let d = deal(1, "tushy");
        let events = decide_deal(None, DealCommand::Create { deal: d.clone(), at: at(2026, 1, 2) }).unwrap();
        assert_eq!(events, vec![DealEvent::DealCreated { deal: d.clone(), created_at: at(2026, 1, 2) }]);
        let state = given(&events);
        assert_eq!(
            decide_deal(state.as_ref(), DealCommand::Create { deal: d.clone(), at: at(2026, 1, 3) }),
            Ok(vec![])
        );
        let other = Deal { partner_name: "Other".into(), ..d };
        assert_eq!(
            decide_deal(state.as_ref(), DealCommand::Create { deal: other, at: at(2026, 1, 3) }),
            Err(DealError::AlreadyExists(Uuid::from_u128(1)))
        );
    }

    #[test]
    fn a_deal_that_does_not_exist_cannot_be_edited_enabled_or_ranked() {
        let now = at(2026, 1, 2);
        assert!(matches!(
            decide_deal(None, DealCommand::Edit { deal: deal(1, "tushy"), at: now }),
            Err(DealError::NotFound(_))
        ));
        for command in [
            DealCommand::Enable { deal_type: DealType::Carousel, at: now },
            DealCommand::Disable { deal_type: DealType::Listing, at: now },
            DealCommand::Rerank { deal_type: DealType::Interstitial, rank: 3, at: now },
        ] {
            assert!(matches!(decide_deal(None, command), Err(DealError::NotFound(_))));
        }
    }

    #[test]
    fn enabling_and_ranking_touch_only_their_type_and_repeats_record_nothing() {
        let now = at(2026, 1, 2);
        let d = Deal { enabled: false, enabled_list: false, enabled_interstitial: false, ..deal(1, "vixen") };
        let mut state = Some(d);
        for command in [
            DealCommand::Enable { deal_type: DealType::Listing, at: now },
            DealCommand::Rerank { deal_type: DealType::Interstitial, rank: 7, at: now },
        ] {
            let events = decide_deal(state.as_ref(), command.clone()).unwrap();
            assert_eq!(events.len(), 1);
            state = events.iter().fold(state, evolve_deal);
            assert_eq!(decide_deal(state.as_ref(), command), Ok(vec![]), "a repeat records nothing");
        }
        let d = state.unwrap();
        assert!((!d.enabled, d.enabled_list, !d.enabled_interstitial) == (true, true, true));
        assert_eq!((d.rank, d.rank_listing, d.rank_interstitial), (0, 0, 7));
        assert_eq!(decide_deal(Some(&d), DealCommand::Disable { deal_type: DealType::Carousel, at: now }), Ok(vec![]));
    }

    #[test]
    fn an_edit_replaces_the_whole_deal_and_an_unchanged_edit_records_nothing() {
        let d = deal(1, "vixen");
        let edited = Deal { deal_text: "Now cheaper".into(), rank: 4, ..d.clone() };
        let events = decide_deal(Some(&d), DealCommand::Edit { deal: edited.clone(), at: at(2026, 1, 2) }).unwrap();
        assert_eq!(given(&events), Some(edited.clone()));
        assert_eq!(
            decide_deal(Some(&edited), DealCommand::Edit { deal: edited.clone(), at: at(2026, 1, 3) }),
            Ok(vec![])
        );
        let moved = Deal { deal_id: Uuid::from_u128(2), ..edited.clone() };
        assert!(matches!(
            decide_deal(Some(&edited), DealCommand::Edit { deal: moved, at: at(2026, 1, 3) }),
            Err(DealError::WrongId { .. })
        ));
    }

    #[test]
    fn a_snooze_hides_the_interstitial_for_one_calendar_month_on_its_site() {
        let user = Uuid::from_u128(0xa1);
        let snooze = |now| InterstitialCommand::Snooze { user_id: user, site: "tushy".into(), deal_id: None, now };
        let events = decide_interstitial(&Interstitial::default(), snooze(at(2026, 1, 31)));
        let state = events.iter().fold(Interstitial::default(), evolve_interstitial);
        assert_eq!(state.snoozed_until("tushy"), Some(at(2026, 2, 28)));
        assert_eq!(state.snoozed_until("vixen"), None);
        assert!(is_snoozed(state.snoozed_until("tushy"), at(2026, 2, 28) - chrono::Duration::seconds(1)));
        assert!(!is_snoozed(state.snoozed_until("tushy"), at(2026, 2, 28)));
        // Snoozing again while hidden keeps the first month; after it, a new month starts.
        assert_eq!(decide_interstitial(&state, snooze(at(2026, 2, 10))), vec![]);
        let again = decide_interstitial(&state, snooze(at(2026, 3, 1)));
        assert!(matches!(&again[..], [DealEvent::InterstitialSnoozed { until, .. }] if *until == at(2026, 4, 1)));
    }

    #[test]
    fn a_continue_is_always_recorded() {
        let command = InterstitialCommand::Continue {
            user_id: Uuid::from_u128(0xa1),
            site: "tushy".into(),
            deal_id: Some(Uuid::from_u128(1)),
            now: at(2026, 1, 2),
        };
        let state = Interstitial::default();
        assert_eq!(decide_interstitial(&state, command.clone()).len(), 1);
        assert_eq!(decide_interstitial(&state, command).len(), 1);
    }

    #[test]
    fn the_limits_are_those_of_the_spec() {
        assert_eq!(max_limit(DealType::Carousel), 40);
        assert_eq!(max_limit(DealType::Listing), 15);
        assert_eq!(max_limit(DealType::Interstitial), 15);
    }

    fn any_deal() -> impl Strategy<Value = Deal> {
        (0u128..40, prop_oneof![Just("tushy"), Just("vixen")], any::<[bool; 4]>(), 0u32..5, 0u32..5, 0u32..5).prop_map(
            |(n, site, [e, l, i, special], r, rl, ri)| Deal {
                enabled: e,
                enabled_list: l,
                enabled_interstitial: i,
                special_offer: special,
                rank: r,
                rank_listing: rl,
                rank_interstitial: ri,
                ..deal(n, site)
            },
        )
    }

    fn any_type() -> impl Strategy<Value = DealType> {
        prop_oneof![Just(DealType::Carousel), Just(DealType::Listing), Just(DealType::Interstitial)]
    }

    proptest! {
        /// findDeals answers only the site's deals enabled for the type, special offers only
        /// to porn-portal subscribers, in the type's rank order, at most `limit`.
        #[test]
        fn find_deals_filters_orders_and_limits(
            deals in proptest::collection::vec(any_deal(), 0..60),
            deal_type in any_type(),
            portal in any::<bool>(),
            limit in 1u32..45,
        ) {
            let viewer = if portal { Viewer::PornPortalSubscriber } else { Viewer::Everyone };
            let found = find_deals(&deals, "tushy", deal_type, viewer, limit);
            prop_assert!(found.len() <= limit as usize);
            for d in &found {
                prop_assert!(d.site == "tushy" && enabled_for(d, deal_type));
                prop_assert!(portal || !d.special_offer);
            }
            for pair in found.windows(2) {
                prop_assert!((rank_for(pair[0], deal_type), pair[0].deal_id) <= (rank_for(pair[1], deal_type), pair[1].deal_id));
            }
            let eligible = deals.iter().filter(|d| d.site == "tushy" && enabled_for(d, deal_type)
                && (portal || !d.special_offer)).count();
            prop_assert_eq!(found.len(), eligible.min(limit as usize));
        }

        /// Whatever the history, the interstitial is hidden exactly until a month after the
        /// snooze that started the current hiding.
        #[test]
        fn a_snooze_never_extends_itself(days in proptest::collection::vec(0i64..90, 1..20)) {
            let user = Uuid::from_u128(1);
            let mut state = Interstitial::default();
            let mut now = at(2026, 1, 1);
            for d in days {
                now += chrono::Duration::days(d);
                let before = state.snoozed_until("tushy");
                let events = decide_interstitial(&state, InterstitialCommand::Snooze {
                    user_id: user, site: "tushy".into(), deal_id: None, now,
                });
                state = events.iter().fold(state, evolve_interstitial);
                if is_snoozed(before, now) {
                    prop_assert!(events.is_empty());
                    prop_assert_eq!(state.snoozed_until("tushy"), before);
                } else {
                    prop_assert_eq!(state.snoozed_until("tushy"), Some(interstitial_snooze_until(now)));
                }
                prop_assert!(is_snoozed(state.snoozed_until("tushy"), now));
            }
        }
    }
}
