//! Who has paid for what: one stream per subscription (`subscription-<uuid>`).
//!
//! Readers: profile (account, badges), wallet (Friday gems, credits, forfeits on
//! cancel), unlocks (access, forfeits on cancel).

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
/// unlocks), and the name they store it under. Each reader folds the events with its own rule
/// (what a renewal after a cancel means to gems is the wallet's); the standings and their
/// names are one.
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
    /// and unlocked channels are lost now (spec §1).
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
    use super::{MembershipKind, SubscriptionStatus};

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
