//! Who has paid for what: one stream per subscription (`subscription-<uuid>`).
//!
//! Readers: profile (account, badges), wallet (Friday gems, credits, forfeits on
//! cancel), unlocks (access, forfeits on cancel), deals (special offers). Whether a
//! subscription is cancelled or has ended after each event is one rule, [`StandingChange`],
//! which the subscription service's own state and every reader fold.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::{DecodeError, EventFamily};

/// The kind of membership a subscription grants (spec: member, trial, porn-portal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MembershipKind {
    Member,
    Trial,
    PornPortal,
}

impl MembershipKind {
    pub const ALL: [MembershipKind; 3] = [MembershipKind::Member, MembershipKind::Trial, MembershipKind::PornPortal];

    /// The spec's name, as the wire carries it (`porn-portal`).
    pub fn as_str(self) -> &'static str {
        match self {
            MembershipKind::Member => "member",
            MembershipKind::Trial => "trial",
            MembershipKind::PornPortal => "porn-portal",
        }
    }

    pub fn from_name(name: &str) -> Option<MembershipKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Where a subscription stands, as the readers of these events keep it (deals, wallet,
/// unlocks), and the name they store it under: [`SubscriptionStanding::status`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubscriptionStatus {
    Active,
    /// Cancelled by the member or the biller: access runs on until the paid period ends.
    Cancelled,
    /// Expired, charged back or refunded.
    Ended,
}

impl SubscriptionStatus {
    pub const ALL: [SubscriptionStatus; 3] =
        [SubscriptionStatus::Active, SubscriptionStatus::Cancelled, SubscriptionStatus::Ended];

    /// The stored name (`active`, `cancelled`, `ended`).
    pub fn as_str(self) -> &'static str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Cancelled => "cancelled",
            SubscriptionStatus::Ended => "ended",
        }
    }

    pub fn from_name(name: &str) -> Option<SubscriptionStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// Where a subscription stands after each of its events: the subscription service's rules
/// (its domain's module docs), and the one fold of these events into a standing. The
/// subscription service's own state folds it, and so does every reader that keeps a copy
/// (deals, wallet, unlocks); what a standing means to a reader (gems earned, packs forfeited,
/// offers shown) is the reader's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SubscriptionStanding {
    /// No more rebills; access runs on to the end of the paid period.
    pub cancelled: bool,
    /// Expired, charged back or refunded.
    pub ended: bool,
}

/// What one event sets of a subscription's standing (`None`: left as it was). It does not
/// depend on the standing before it, so a reader may also apply it as a patch it has not read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StandingChange {
    pub cancelled: Option<bool>,
    pub ended: Option<bool>,
}

impl StandingChange {
    /// The change `event` makes:
    /// - a start, or a reactivation: active, not cancelled. A subscription that runs again is
    ///   always told by a reactivation, whatever fact revived it (a retention offer taken, or a
    ///   rebill or upgrade of an expired one), so that readers never revive on an event that
    ///   happened before an end they have already been told of;
    /// - a cancel: cancelled; an expiry, chargeback or refund: ended;
    /// - a rebill, an upgrade (the kind only) or a credits purchase: nothing.
    pub fn of(event: &SubscriptionEvent) -> StandingChange {
        use SubscriptionEvent as E;
        let (cancelled, ended) = match event {
            E::SubscriptionStarted { .. } | E::SubscriptionReactivated { .. } => (Some(false), Some(false)),
            E::SubscriptionCancelled { .. } => (Some(true), None),
            E::SubscriptionExpired { .. } | E::SubscriptionChargedBack { .. } | E::SubscriptionRefunded { .. } => {
                (None, Some(true))
            }
            E::SubscriptionRenewed { .. } | E::SubscriptionUpgraded { .. } | E::PayPerVideoCreditsPurchased { .. } => {
                (None, None)
            }
        };
        StandingChange { cancelled, ended }
    }
}

impl SubscriptionStanding {
    /// The standing after `event`. A reader that has not heard of the subscription starts from
    /// the default (active), as its start would leave it.
    pub fn after(self, event: &SubscriptionEvent) -> SubscriptionStanding {
        let change = StandingChange::of(event);
        SubscriptionStanding {
            cancelled: change.cancelled.unwrap_or(self.cancelled),
            ended: change.ended.unwrap_or(self.ended),
        }
    }

    /// The status a reader shows and stores: ended wins over cancelled.
    pub fn status(self) -> SubscriptionStatus {
        match (self.ended, self.cancelled) {
            (true, _) => SubscriptionStatus::Ended,
            (false, true) => SubscriptionStatus::Cancelled,
            (false, false) => SubscriptionStatus::Active,
        }
    }

    /// The standing a reader stored as its status and its cancelled flag (an ended status
    /// hides whether a cancel came first, so the flag is kept beside it).
    pub fn stored(status: SubscriptionStatus, cancelled: bool) -> SubscriptionStanding {
        SubscriptionStanding {
            cancelled: cancelled || status == SubscriptionStatus::Cancelled,
            ended: status == SubscriptionStatus::Ended,
        }
    }
}

/// Events of the subscription service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum SubscriptionEvent {
    /// A biller approved a signup or a purchase: the subscription is active from `active_since`.
    SubscriptionStarted {
        subscription_id: Uuid,
        user_id: Uuid,
        /// Brand key of the site bought (`vixen`, ...), or the multisite package name.
        site: String,
        /// Brand keys this subscription gives access to (one, or a multisite package's list).
        sites: Vec<String>,
        kind: MembershipKind,
        is_free_limited_trial: bool,
        biller: String,
        /// The biller's transaction id that started it.
        transaction_id: String,
        active_since: DateTime<Utc>,
        /// Affiliate (NATS) code carried through the biller's passthrough fields.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nats_code: Option<String>,
    },
    /// A rebill succeeded.
    SubscriptionRenewed { subscription_id: Uuid, user_id: Uuid, transaction_id: String, renewed_at: DateTime<Utc> },
    /// A trial became a full membership.
    SubscriptionUpgraded {
        subscription_id: Uuid,
        user_id: Uuid,
        from: MembershipKind,
        to: MembershipKind,
        transaction_id: String,
        upgraded_at: DateTime<Utc>,
    },
    /// The member or biller cancelled; access runs until the paid period ends, but gems
    /// and unlocked channels are lost now (product.md, "Subscriptions and their states").
    SubscriptionCancelled { subscription_id: Uuid, user_id: Uuid, transaction_id: String, cancelled_at: DateTime<Utc> },
    /// A cancelled subscription was taken up again.
    SubscriptionReactivated {
        subscription_id: Uuid,
        user_id: Uuid,
        transaction_id: String,
        reactivated_at: DateTime<Utc>,
        /// A retention deal's name, when the reactivation came with one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retention_offer_name: Option<String>,
        /// Gems a retention deal grants (`deal.offeredGems`).
        #[serde(default)]
        offered_gems: u32,
    },
    /// The paid period ran out: no more access.
    SubscriptionExpired { subscription_id: Uuid, user_id: Uuid, expired_at: DateTime<Utc> },
    /// The cardholder's bank reversed a payment: access ends at once.
    SubscriptionChargedBack {
        subscription_id: Uuid,
        user_id: Uuid,
        transaction_id: String,
        charged_back_at: DateTime<Utc>,
    },
    /// The biller refunded a payment: access ends at once.
    SubscriptionRefunded { subscription_id: Uuid, user_id: Uuid, transaction_id: String, refunded_at: DateTime<Utc> },
    /// A porn-portal user bought pay-per-video credits.
    PayPerVideoCreditsPurchased {
        subscription_id: Uuid,
        user_id: Uuid,
        credits: u32,
        transaction_id: String,
        purchased_at: DateTime<Utc>,
    },
}

impl SubscriptionEvent {
    pub fn subscription_id(&self) -> Uuid {
        match self {
            SubscriptionEvent::SubscriptionStarted { subscription_id, .. }
            | SubscriptionEvent::SubscriptionRenewed { subscription_id, .. }
            | SubscriptionEvent::SubscriptionUpgraded { subscription_id, .. }
            | SubscriptionEvent::SubscriptionCancelled { subscription_id, .. }
            | SubscriptionEvent::SubscriptionReactivated { subscription_id, .. }
            | SubscriptionEvent::SubscriptionExpired { subscription_id, .. }
            | SubscriptionEvent::SubscriptionChargedBack { subscription_id, .. }
            | SubscriptionEvent::SubscriptionRefunded { subscription_id, .. }
            | SubscriptionEvent::PayPerVideoCreditsPurchased { subscription_id, .. } => *subscription_id,
        }
    }

    /// When it happened, by the biller's time (the start: since when it is active).
    pub fn happened_at(&self) -> DateTime<Utc> {
        match self {
            SubscriptionEvent::SubscriptionStarted { active_since: at, .. }
            | SubscriptionEvent::SubscriptionRenewed { renewed_at: at, .. }
            | SubscriptionEvent::SubscriptionUpgraded { upgraded_at: at, .. }
            | SubscriptionEvent::SubscriptionCancelled { cancelled_at: at, .. }
            | SubscriptionEvent::SubscriptionReactivated { reactivated_at: at, .. }
            | SubscriptionEvent::SubscriptionExpired { expired_at: at, .. }
            | SubscriptionEvent::SubscriptionChargedBack { charged_back_at: at, .. }
            | SubscriptionEvent::SubscriptionRefunded { refunded_at: at, .. }
            | SubscriptionEvent::PayPerVideoCreditsPurchased { purchased_at: at, .. } => *at,
        }
    }

    pub fn user_id(&self) -> Uuid {
        match self {
            SubscriptionEvent::SubscriptionStarted { user_id, .. }
            | SubscriptionEvent::SubscriptionRenewed { user_id, .. }
            | SubscriptionEvent::SubscriptionUpgraded { user_id, .. }
            | SubscriptionEvent::SubscriptionCancelled { user_id, .. }
            | SubscriptionEvent::SubscriptionReactivated { user_id, .. }
            | SubscriptionEvent::SubscriptionExpired { user_id, .. }
            | SubscriptionEvent::SubscriptionChargedBack { user_id, .. }
            | SubscriptionEvent::SubscriptionRefunded { user_id, .. }
            | SubscriptionEvent::PayPerVideoCreditsPurchased { user_id, .. } => *user_id,
        }
    }
}

impl EventFamily for SubscriptionEvent {
    const DOMAIN: &'static str = "subscription";
    const TYPES: &'static [(&'static str, u32)] = &[
        // v2 added `sites` (the brands a multisite package opens) and `nats_code`.
        ("SubscriptionStarted", 2),
        ("SubscriptionRenewed", 1),
        ("SubscriptionUpgraded", 1),
        ("SubscriptionCancelled", 1),
        ("SubscriptionReactivated", 1),
        ("SubscriptionExpired", 1),
        ("SubscriptionChargedBack", 1),
        ("SubscriptionRefunded", 1),
        ("PayPerVideoCreditsPurchased", 1),
    ];

    fn upcast_step(event_type: &str, version: u32, payload: Value) -> Result<Value, DecodeError> {
        match (event_type, version) {
            // v1 knew single-site subscriptions only: the site bought is the one site opened.
            ("SubscriptionStarted", 1) => {
                let mut payload = payload;
                let site = payload.get("site").cloned().unwrap_or(Value::Null);
                if let Value::Object(map) = &mut payload {
                    map.insert("sites".into(), Value::Array(vec![site]));
                }
                Ok(payload)
            }
            _ => Err(DecodeError::NoUpcaster { event_type: event_type.to_owned(), version }),
        }
    }
}

#[cfg(test)]
mod kind_tests {
    use super::{MembershipKind, SubscriptionStanding, SubscriptionStatus};

    fn every_kind_of_event() -> Vec<super::SubscriptionEvent> {
        use super::SubscriptionEvent as E;
        let (subscription_id, user_id, at) = (uuid::Uuid::from_u128(1), uuid::Uuid::from_u128(2), chrono::Utc::now());
        let transaction_id = String::from("T");
        vec![
            E::SubscriptionStarted {
                subscription_id,
                user_id,
                site: "a".into(),
                sites: vec!["a".into()],
                kind: MembershipKind::Member,
                is_free_limited_trial: false,
                biller: "B".into(),
                transaction_id: transaction_id.clone(),
                active_since: at,
                nats_code: None,
            },
            E::SubscriptionRenewed { subscription_id, user_id, transaction_id: transaction_id.clone(), renewed_at: at },
            E::SubscriptionUpgraded {
                subscription_id,
                user_id,
                from: MembershipKind::Trial,
                to: MembershipKind::Member,
                transaction_id: transaction_id.clone(),
                upgraded_at: at,
            },
            E::SubscriptionCancelled {
                subscription_id,
                user_id,
                transaction_id: transaction_id.clone(),
                cancelled_at: at,
            },
            E::SubscriptionReactivated {
                subscription_id,
                user_id,
                transaction_id: transaction_id.clone(),
                reactivated_at: at,
                retention_offer_name: None,
                offered_gems: 0,
            },
            E::SubscriptionExpired { subscription_id, user_id, expired_at: at },
            E::SubscriptionChargedBack {
                subscription_id,
                user_id,
                transaction_id: transaction_id.clone(),
                charged_back_at: at,
            },
            E::SubscriptionRefunded {
                subscription_id,
                user_id,
                transaction_id: transaction_id.clone(),
                refunded_at: at,
            },
            E::PayPerVideoCreditsPurchased { subscription_id, user_id, credits: 1, transaction_id, purchased_at: at },
        ]
    }

    fn every_standing() -> Vec<SubscriptionStanding> {
        [(false, false), (true, false), (false, true), (true, true)]
            .map(|(cancelled, ended)| SubscriptionStanding { cancelled, ended })
            .to_vec()
    }

    #[test]
    fn an_event_sets_what_its_change_names_and_keeps_the_rest() {
        for event in every_kind_of_event() {
            let change = super::StandingChange::of(&event);
            for before in every_standing() {
                let after = before.after(&event);
                assert_eq!(after.cancelled, change.cancelled.unwrap_or(before.cancelled), "{event:?}");
                assert_eq!(after.ended, change.ended.unwrap_or(before.ended), "{event:?}");
                assert_eq!(after.after(&event), after, "told twice, {event:?} changes nothing more");
            }
        }
    }

    #[test]
    fn the_spec_rules_of_the_standing() {
        use SubscriptionStatus::*;
        let [started, renewed, upgraded, cancelled, reactivated, expired, charged_back, refunded, credits] =
            <[_; 9]>::try_from(every_kind_of_event()).unwrap();
        let fold = |events: &[&super::SubscriptionEvent]| {
            events.iter().fold(SubscriptionStanding::default(), |s, e| s.after(e)).status()
        };
        assert_eq!(fold(&[&started]), Active);
        assert_eq!(fold(&[&started, &cancelled]), Cancelled, "access runs on to the end of the period");
        assert_eq!(fold(&[&started, &cancelled, &renewed]), Cancelled, "a rebill leaves a cancel standing");
        assert_eq!(fold(&[&started, &expired, &renewed]), Ended, "a revival is told by a reactivation");
        assert_eq!(fold(&[&started, &expired, &renewed, &reactivated]), Active);
        assert_eq!(fold(&[&started, &expired, &upgraded]), Ended);
        assert_eq!(fold(&[&started, &cancelled, &expired, &reactivated]), Active);
        assert_eq!(fold(&[&started, &charged_back]), Ended);
        assert_eq!(fold(&[&started, &cancelled, &refunded]), Ended, "an end wins over a cancel");
        assert_eq!(fold(&[&started, &credits]), Active);
    }

    #[test]
    fn a_standing_reads_back_from_its_status_and_cancelled_flag() {
        for cancelled in [false, true] {
            for ended in [false, true] {
                let standing = SubscriptionStanding { cancelled, ended };
                assert_eq!(SubscriptionStanding::stored(standing.status(), standing.cancelled), standing);
            }
        }
    }

    #[test]
    fn statuses_read_back_from_their_stored_names() {
        for status in SubscriptionStatus::ALL {
            assert_eq!(SubscriptionStatus::from_name(status.as_str()), Some(status));
        }
        assert_eq!(SubscriptionStatus::from_name("expired"), None);
    }

    #[test]
    fn kind_names_are_the_wire_names() {
        for kind in MembershipKind::ALL {
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", kind.as_str()));
            assert_eq!(MembershipKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(MembershipKind::from_name("expired"), None);
    }
}
