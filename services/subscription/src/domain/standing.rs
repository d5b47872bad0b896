//! Where every known fact puts a subscription: the fold of the facts in biller time order.

use chrono::{DateTime, Utc};
use proto_events::subscription::MembershipKind;

use super::{Ending, Fact, Step, View};

/// Where every known fact puts a subscription: the fold of the facts in biller time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The initial sale (its transaction id, time, kind and free-trial flag); None while only
    /// later facts have arrived.
    pub initial: Option<(String, DateTime<Utc>, MembershipKind, bool)>,
    pub kind: Option<MembershipKind>,
    pub is_free_limited_trial: bool,
    /// The fact that made the trial a membership.
    pub conversion: Option<(String, DateTime<Utc>)>,
    /// Rebills that counted, in order.
    pub renewals: Vec<(String, DateTime<Utc>)>,
    pub rebill_failures: u32,
    pub cancelled: Option<(String, DateTime<Utc>)>,
    /// The last reactivation that counted, with its retention deal.
    pub reactivation: Option<(String, DateTime<Utc>, Option<String>, u32)>,
    pub ended: Option<(Ending, String, DateTime<Utc>)>,
    pub credits: Vec<(String, DateTime<Utc>, u32)>,
}

impl Standing {
    pub fn view(&self) -> View {
        View {
            started: self.initial.is_some(),
            kind: self.kind,
            is_free_limited_trial: self.is_free_limited_trial,
            active: self.initial.is_some() && self.ended.is_none(),
            cancelled: self.cancelled.is_some(),
            ended: self.ended.as_ref().map(|e| e.0),
        }
    }

    fn is_final(&self) -> bool {
        self.ended.as_ref().is_some_and(|e| e.0.is_final())
    }
}

/// Folds every fact of a subscription, whatever order they are given in.
pub fn standing(facts: &[Fact]) -> Standing {
    let mut s = Standing::default();
    let Some(initial) = facts
        .iter()
        .filter(|f| matches!(f.step, Step::Initial { .. }))
        .min_by(|a, b| (a.at, &a.transaction_id).cmp(&(b.at, &b.transaction_id)))
    else {
        return s;
    };
    let start = initial.at;
    let mut ordered: Vec<&Fact> = facts.iter().collect();
    ordered.sort_by(|a, b| {
        let key = |f: &Fact| (f.at.max(start), f.step.rank(), f.transaction_id.clone());
        key(a).cmp(&key(b))
    });
    for fact in ordered {
        let (tx, at) = (fact.transaction_id.clone(), fact.at.max(start));
        match &fact.step {
            Step::Initial { kind, free_limited_trial } => {
                if s.initial.is_none() {
                    s.initial = Some((tx, at, *kind, *free_limited_trial));
                    s.kind = Some(*kind);
                    s.is_free_limited_trial = *free_limited_trial && *kind == MembershipKind::Trial;
                }
            }
            Step::TrialConversion | Step::Upgrade | Step::Rebill => {
                // The kind says what was bought: a converted trial stays converted even when
                // a chargeback later ends it (and must, or a late chargeback would un-convert).
                if s.kind == Some(MembershipKind::Trial) {
                    s.kind = Some(MembershipKind::Member);
                    s.is_free_limited_trial = false;
                    s.conversion = Some((tx.clone(), at));
                }
                if !s.is_final() {
                    if matches!(fact.step, Step::Rebill) {
                        s.renewals.push((tx, at));
                    }
                    s.ended = None;
                }
            }
            Step::RebillFailed => s.rebill_failures += 1,
            Step::Cancel => s.cancelled = Some((tx, at)),
            Step::Expire => {
                if s.ended.is_none() {
                    s.ended = Some((Ending::Expired, tx, at));
                }
            }
            Step::Chargeback | Step::Refund => {
                if !s.is_final() {
                    let how =
                        if matches!(fact.step, Step::Chargeback) { Ending::ChargedBack } else { Ending::Refunded };
                    s.ended = Some((how, tx, at));
                }
            }
            Step::Reactivation { retention_offer_name, offered_gems } => {
                if !s.is_final() && (s.cancelled.is_some() || s.ended.is_some()) {
                    s.cancelled = None;
                    s.ended = None;
                    s.reactivation = Some((tx, at, retention_offer_name.clone(), *offered_gems));
                }
            }
            Step::CreditsPurchase { credits } => s.credits.push((tx, at, *credits)),
        }
    }
    s
}
