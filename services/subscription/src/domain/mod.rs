//! The subscription decider: one normalised state machine for every biller.
//!
//! A biller tells us facts (an initial sale, a rebill, a cancel, a chargeback ...), each with
//! the biller's own transaction id and time. Postbacks arrive late, twice, or out of order, so
//! the decider does not apply "the next postback" to the current state. It folds *every* fact
//! known for the subscription in the biller's time order ([`standing`]) and emits the events
//! that move what readers know ([`Subscription`], folded from the published events) to that
//! standing. Whatever order the facts arrive in, the last decision leaves readers at the same
//! place: the fold of all facts.
//!
//! Rules of the fold (biller time order, a fact timed before the initial counts just after it):
//! - initial: the subscription starts (member, trial, free limited trial or porn-portal);
//! - trial conversion, upgrade, or a rebill of a trial: the trial becomes a membership (kept
//!   even if the payment is reversed later: the kind says what was bought, activity says the rest);
//! - rebill: another paid period; an expired subscription is active again;
//! - rebill failed: counted; the biller expires the subscription when it gives up;
//! - cancel: no more rebills; access runs to the end of the paid period;
//! - expire: the paid period ran out;
//! - reactivation: a cancelled or expired subscription is taken up again;
//! - chargeback, refund: access ends at once and for good (nothing after them revives it);
//! - credits purchase: pay-per-video credits for the wallet to grant.
//!
//! The inputs and states are here; the fold of the facts ([`standing()`]) in `standing.rs`, the
//! decider ([`decide`], [`evolve`]) in `decider.rs`.

mod decider;
mod standing;

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent as E, SubscriptionStanding};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use decider::{decide, evolve};
pub use standing::{standing, Standing};

/// What a biller says happened (the normalised machine's inputs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    Initial {
        kind: MembershipKind,
        #[serde(default)]
        free_limited_trial: bool,
    },
    TrialConversion,
    Rebill,
    RebillFailed,
    Cancel,
    Expire,
    Chargeback,
    Refund,
    Reactivation {
        #[serde(default)]
        retention_offer_name: Option<String>,
        #[serde(default)]
        offered_gems: u32,
    },
    Upgrade,
    CreditsPurchase {
        credits: u32,
    },
}

impl Step {
    /// An initial sale as the billers flag it: a trial (or a free limited trial, which is one)
    /// or a full membership.
    pub fn initial(trial: bool, free_limited_trial: bool) -> Step {
        let kind = if trial || free_limited_trial { MembershipKind::Trial } else { MembershipKind::Member };
        Step::Initial { kind, free_limited_trial }
    }

    /// The normalised name (`initial`, `trial`, `rebill_failed` ...), as stored and logged.
    pub fn name(&self) -> &'static str {
        match self {
            Step::Initial { kind: MembershipKind::Trial, .. } => "trial",
            Step::Initial { .. } => "initial",
            Step::TrialConversion => "trial_conversion",
            Step::Rebill => "rebill",
            Step::RebillFailed => "rebill_failed",
            Step::Cancel => "cancel",
            Step::Expire => "expire",
            Step::Chargeback => "chargeback",
            Step::Refund => "refund",
            Step::Reactivation { .. } => "reactivation",
            Step::Upgrade => "upgrade",
            Step::CreditsPurchase { .. } => "credits_purchase",
        }
    }

    /// Tie-break of facts at the same instant: the order a biller would have done them in.
    fn rank(&self) -> u8 {
        match self {
            Step::Initial { .. } => 0,
            Step::TrialConversion | Step::Upgrade => 1,
            Step::Rebill => 2,
            Step::RebillFailed => 3,
            Step::Reactivation { .. } => 4,
            Step::Cancel => 5,
            Step::Expire => 6,
            Step::Refund => 7,
            Step::Chargeback => 8,
            Step::CreditsPurchase { .. } => 9,
        }
    }
}

/// One biller fact: what happened, the biller's transaction id (unique per biller) and time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub transaction_id: String,
    pub at: DateTime<Utc>,
    #[serde(flatten)]
    pub step: Step,
}

/// Who and what a subscription is about; fixed when it starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub subscription_id: Uuid,
    pub user_id: Uuid,
    /// Brand key bought, or the multisite package name.
    pub site: String,
    /// Brand keys it opens.
    pub sites: Vec<String>,
    pub biller: String,
    pub nats_code: Option<String>,
}

/// How a subscription ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Expired,
    ChargedBack,
    Refunded,
}

impl Ending {
    /// The ending `event` tells of, if it is one.
    pub fn of(event: &E) -> Option<Ending> {
        match event {
            E::SubscriptionExpired { .. } => Some(Ending::Expired),
            E::SubscriptionChargedBack { .. } => Some(Ending::ChargedBack),
            E::SubscriptionRefunded { .. } => Some(Ending::Refunded),
            _ => None,
        }
    }

    /// A chargeback or refund ends a subscription for good.
    pub fn is_final(self) -> bool {
        !matches!(self, Ending::Expired)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Expired => "expired",
            Ending::ChargedBack => "charged_back",
            Ending::Refunded => "refunded",
        }
    }

    pub fn from_name(name: &str) -> Option<Ending> {
        [Ending::Expired, Ending::ChargedBack, Ending::Refunded].into_iter().find(|e| e.as_str() == name)
    }
}

/// What the readers of the events know: the decider's state, folded from published events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subscription {
    pub identity: Option<Identity>,
    pub kind: Option<MembershipKind>,
    pub is_free_limited_trial: bool,
    pub active_since: Option<DateTime<Utc>>,
    pub cancelled: bool,
    pub ended: Option<Ending>,
    /// Rebills told as `SubscriptionRenewed`, by transaction id.
    pub renewed: BTreeSet<String>,
    /// Credit purchases told, by transaction id.
    pub credited: BTreeSet<String>,
    /// Reactivations told, by transaction id.
    pub reactivated: BTreeSet<String>,
}

impl Subscription {
    pub fn is_active(&self) -> bool {
        self.identity.is_some() && self.ended.is_none()
    }

    /// Cancelled and ended, as the events' one rule folds them.
    pub fn standing(&self) -> SubscriptionStanding {
        SubscriptionStanding { cancelled: self.cancelled, ended: self.ended.is_some() }
    }

    /// The part of the state two deciders must agree on once they know the same facts.
    pub fn view(&self) -> View {
        View {
            started: self.identity.is_some(),
            kind: self.kind,
            is_free_limited_trial: self.is_free_limited_trial,
            active: self.is_active(),
            cancelled: self.cancelled,
            ended: self.ended,
        }
    }
}

/// A subscription as a member sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub started: bool,
    pub kind: Option<MembershipKind>,
    pub is_free_limited_trial: bool,
    pub active: bool,
    pub cancelled: bool,
    pub ended: Option<Ending>,
}

/// Commands of the decider.
#[derive(Clone, Debug)]
pub enum Command {
    /// Bring readers to where every known fact puts the subscription. `facts` holds all of
    /// them (the one just received included), looked up before deciding.
    Reconcile { identity: Identity, facts: Vec<Fact> },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("the postback names subscription {given}, not {expected}")]
    WrongSubscription { expected: Uuid, given: Uuid },
}

/// The decider as the event store runs it.
pub struct SubscriptionDecider;

impl runtime::Decider for SubscriptionDecider {
    type Event = E;
    type State = Subscription;
    type Command = Command;
    type Error = DomainError;

    fn decide(state: &Subscription, command: Command) -> Result<Vec<E>, DomainError> {
        decide(state, command)
    }

    fn evolve(state: Subscription, event: &E) -> Subscription {
        evolve(state, event)
    }
}

/// The event stream of a subscription.
pub fn stream_id(subscription_id: Uuid) -> String {
    format!("subscription-{subscription_id}")
}
