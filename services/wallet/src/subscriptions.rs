//! What the wallet knows of subscriptions, folded from subscription events: which ones earn
//! Friday gems and since when, and which wallet commands each subscription event asks for.
//!
//! The Friday scheduler lists the earning subscriptions from this read model and puts each
//! one's [`Earning`] in its grant command; the subscription-events consumer turns every event
//! into the commands of [`wallet_commands`].

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent, SubscriptionStanding};
use proto_events::wallet::GemsForfeitReason;
use uuid::Uuid;

use crate::domain::{Command, Earning};

/// Where a subscription stands (a cancelled one's gems do not run on, whatever its access does).
pub use proto_events::subscription::SubscriptionStatus as Status;

#[derive(Clone, Debug, PartialEq)]
pub struct Subscription {
    pub user_id: Uuid,
    pub kind: MembershipKind,
    /// Cancelled and ended, by the events' one rule ([`SubscriptionStanding::after`]).
    pub standing: SubscriptionStanding,
    /// Start of the current stretch as an active member: started, upgraded or reactivated.
    pub member_since: Option<DateTime<Utc>>,
}

impl Subscription {
    /// Only an active full membership earns Friday gems: a trial earns once upgraded, and a
    /// porn-portal subscription buys credits instead.
    pub fn earning(&self) -> Earning {
        match (self.status(), self.member_since) {
            (Status::Active, Some(since)) if self.kind == MembershipKind::Member => Earning::Since(since),
            _ => Earning::NotEarning,
        }
    }

    pub fn status(&self) -> Status {
        self.standing.status()
    }

    fn earns_gems(&self) -> bool {
        self.earning() != Earning::NotEarning
    }
}

/// A subscription after `event`. An event of a subscription not seen started leaves it unknown.
///
/// Its standing is the events' one rule; the stretch it earns gems for is the wallet's own: it
/// starts when the subscription becomes an active membership (its start, an upgrade of a
/// trial, a reactivation, which is also how a rebill of an expired one is told) and ends when
/// it stops being one.
pub fn evolve(before: Option<Subscription>, event: &SubscriptionEvent) -> Option<Subscription> {
    use SubscriptionEvent as E;
    let was_earning = before.as_ref().is_some_and(Subscription::earns_gems);
    let mut subscription = match (event, before) {
        // A start told again keeps its stretch: the start's own time, as the first telling set it.
        (E::SubscriptionStarted { user_id, kind, active_since, .. }, _) => Subscription {
            user_id: *user_id,
            kind: *kind,
            standing: SubscriptionStanding::default(),
            member_since: Some(*active_since),
        },
        (_, Some(before)) => before,
        (_, None) => return None,
    };
    if let E::SubscriptionUpgraded { to, .. } = event {
        subscription.kind = *to;
    }
    subscription.standing = subscription.standing.after(event);
    let active_member = subscription.status() == Status::Active && subscription.kind == MembershipKind::Member;
    subscription.member_since = match (active_member, was_earning) {
        (false, _) => None,
        (true, true) if !matches!(event, E::SubscriptionReactivated { .. }) => subscription.member_since,
        (true, _) => Some(event.happened_at()),
    };
    Some(subscription)
}

/// The wallet commands a subscription event asks for, given the subscription before it.
///
/// The end of a gem-earning subscription forfeits the user's gems once: a cancel does, and an
/// expiry, chargeback or refund does only if no cancel or end came first, so the gems another
/// subscription earned since are not taken twice. An end of a subscription not seen started
/// forfeits too (the cautious side of an event that overtook its start).
pub fn wallet_commands(before: Option<&Subscription>, event: &SubscriptionEvent) -> Vec<Command> {
    use SubscriptionEvent as E;
    let forfeits = before.is_none_or(Subscription::earns_gems);
    let forfeit = |reason| Command::ForfeitGems { subscription_id: event.subscription_id(), reason };
    match event {
        E::SubscriptionCancelled { .. } if forfeits => {
            vec![forfeit(GemsForfeitReason::SubscriptionCancelled)]
        }
        E::SubscriptionChargedBack { .. } if forfeits => {
            vec![forfeit(GemsForfeitReason::SubscriptionChargedBack)]
        }
        E::SubscriptionRefunded { .. } if forfeits => {
            vec![forfeit(GemsForfeitReason::SubscriptionRefunded)]
        }
        E::SubscriptionExpired { .. } if forfeits => {
            vec![forfeit(GemsForfeitReason::SubscriptionExpired)]
        }
        E::SubscriptionReactivated { subscription_id, transaction_id, offered_gems, .. } if *offered_gems > 0 => {
            vec![Command::GrantRetentionGems {
                subscription_id: *subscription_id,
                transaction_id: transaction_id.clone(),
                amount: (*offered_gems).into(),
            }]
        }
        E::PayPerVideoCreditsPurchased { subscription_id, credits, transaction_id, .. } => {
            vec![Command::GrantPurchasedCredits {
                subscription_id: *subscription_id,
                transaction_id: transaction_id.clone(),
                amount: (*credits).into(),
            }]
        }
        _ => vec![],
    }
}

/// The read model as a map, for the scheduler's listing and for tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subscriptions {
    by_id: BTreeMap<Uuid, Subscription>,
}

impl Subscriptions {
    /// Folds `event` in and answers the wallet commands it asks for.
    pub fn apply(&mut self, event: &SubscriptionEvent) -> Vec<Command> {
        let id = event.subscription_id();
        let before = self.by_id.remove(&id);
        let commands = wallet_commands(before.as_ref(), event);
        if let Some(after) = evolve(before, event) {
            self.by_id.insert(id, after);
        }
        commands
    }

    pub fn get(&self, subscription_id: Uuid) -> Option<&Subscription> {
        self.by_id.get(&subscription_id)
    }

    /// How a subscription stands for a Friday grant; unknown ones do not earn.
    pub fn earning(&self, subscription_id: Uuid) -> Earning {
        self.get(subscription_id).map_or(Earning::NotEarning, Subscription::earning)
    }

    /// Every subscription that earns gems now, with its user: the Friday scheduler's work list.
    pub fn earning_gems(&self) -> impl Iterator<Item = (Uuid, &Subscription)> {
        self.by_id.iter().filter(|(_, s)| s.earns_gems()).map(|(id, s)| (*id, s))
    }

    pub fn ids(&self) -> impl Iterator<Item = Uuid> + '_ {
        self.by_id.keys().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, day, 12, 0, 0).unwrap()
    }

    const SUB: Uuid = Uuid::from_u128(0x5b);
    const USER: Uuid = Uuid::from_u128(0xa1);

    fn started(kind: MembershipKind, day: u32) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionStarted {
            subscription_id: SUB,
            user_id: USER,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: "EPOCH-1".into(),
            active_since: at(day),
            nats_code: None,
        }
    }

    fn cancelled(day: u32) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionCancelled {
            subscription_id: SUB,
            user_id: USER,
            transaction_id: "EPOCH-2".into(),
            cancelled_at: at(day),
        }
    }

    fn reactivated(day: u32, offered_gems: u32) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionReactivated {
            subscription_id: SUB,
            user_id: USER,
            transaction_id: "EPOCH-3".into(),
            reactivated_at: at(day),
            retention_offer_name: Some("stay-with-gems".into()),
            offered_gems,
        }
    }

    fn expired(day: u32) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionExpired { subscription_id: SUB, user_id: USER, expired_at: at(day) }
    }

    fn forfeit(reason: GemsForfeitReason) -> Command {
        Command::ForfeitGems { subscription_id: SUB, reason }
    }

    #[test]
    fn a_member_subscription_earns_from_its_start() {
        let mut subscriptions = Subscriptions::default();
        assert_eq!(subscriptions.apply(&started(MembershipKind::Member, 1)), vec![]);
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(1)));
        assert_eq!(subscriptions.earning_gems().count(), 1);
    }

    #[test]
    fn a_trial_earns_only_once_upgraded() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Trial, 1));
        assert_eq!(subscriptions.earning(SUB), Earning::NotEarning);
        subscriptions.apply(&SubscriptionEvent::SubscriptionUpgraded {
            subscription_id: SUB,
            user_id: USER,
            from: MembershipKind::Trial,
            to: MembershipKind::Member,
            transaction_id: "EPOCH-4".into(),
            upgraded_at: at(5),
        });
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(5)));
    }

    #[test]
    fn a_porn_portal_subscription_earns_no_gems_and_its_end_forfeits_none() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::PornPortal, 1));
        assert_eq!(subscriptions.earning(SUB), Earning::NotEarning);
        assert_eq!(subscriptions.apply(&cancelled(2)), vec![]);
    }

    #[test]
    fn a_cancel_stops_earning_and_forfeits_the_gems() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        assert_eq!(subscriptions.apply(&cancelled(3)), vec![forfeit(GemsForfeitReason::SubscriptionCancelled)]);
        assert_eq!(subscriptions.earning(SUB), Earning::NotEarning);
        assert_eq!(subscriptions.get(SUB).unwrap().status(), Status::Cancelled);
    }

    #[test]
    fn an_expiry_after_a_cancel_forfeits_nothing_twice() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&cancelled(3));
        assert_eq!(subscriptions.apply(&expired(20)), vec![]);
        assert_eq!(subscriptions.get(SUB).unwrap().status(), Status::Ended);
    }

    #[test]
    fn an_expiry_without_a_cancel_forfeits_the_gems() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        assert_eq!(subscriptions.apply(&expired(20)), vec![forfeit(GemsForfeitReason::SubscriptionExpired)]);
    }

    #[test]
    fn a_chargeback_or_refund_of_an_earning_subscription_forfeits_the_gems() {
        for (event, reason) in [
            (
                SubscriptionEvent::SubscriptionChargedBack {
                    subscription_id: SUB,
                    user_id: USER,
                    transaction_id: "EPOCH-5".into(),
                    charged_back_at: at(4),
                },
                GemsForfeitReason::SubscriptionChargedBack,
            ),
            (
                SubscriptionEvent::SubscriptionRefunded {
                    subscription_id: SUB,
                    user_id: USER,
                    transaction_id: "EPOCH-5".into(),
                    refunded_at: at(4),
                },
                GemsForfeitReason::SubscriptionRefunded,
            ),
        ] {
            let mut subscriptions = Subscriptions::default();
            subscriptions.apply(&started(MembershipKind::Member, 1));
            assert_eq!(subscriptions.apply(&event), vec![forfeit(reason)]);
            assert_eq!(subscriptions.earning(SUB), Earning::NotEarning);
        }
    }

    #[test]
    fn the_end_of_a_subscription_never_seen_started_forfeits() {
        let mut subscriptions = Subscriptions::default();
        assert_eq!(subscriptions.apply(&cancelled(3)), vec![forfeit(GemsForfeitReason::SubscriptionCancelled)]);
        assert_eq!(subscriptions.get(SUB), None);
    }

    #[test]
    fn a_reactivation_earns_again_from_its_date_and_grants_the_offered_gems() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&cancelled(3));
        assert_eq!(
            subscriptions.apply(&reactivated(6, 20)),
            vec![Command::GrantRetentionGems { subscription_id: SUB, transaction_id: "EPOCH-3".into(), amount: 20 }]
        );
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(6)));
    }

    fn renewed(day: u32) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionRenewed {
            subscription_id: SUB,
            user_id: USER,
            transaction_id: format!("EPOCH-R{day}"),
            renewed_at: at(day),
        }
    }

    #[test]
    fn a_subscription_a_rebill_runs_again_after_an_expiry_earns_from_its_reactivation() {
        // Spec: "rebill: another paid period; an expired subscription is active again". The
        // subscription service tells the rebill, then the reactivation that revives it.
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&expired(10));
        assert_eq!(subscriptions.apply(&renewed(12)), vec![]);
        assert_eq!(subscriptions.get(SUB).unwrap().status(), Status::Ended);
        assert_eq!(subscriptions.apply(&reactivated(12, 0)), vec![]);
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(12)));
        // So its next end forfeits what it earned since.
        assert_eq!(subscriptions.apply(&cancelled(20)), vec![forfeit(GemsForfeitReason::SubscriptionCancelled)]);
    }

    #[test]
    fn a_rebill_leaves_a_cancel_standing_and_earns_nothing() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&cancelled(3));
        subscriptions.apply(&renewed(5));
        assert_eq!(subscriptions.get(SUB).unwrap().status(), Status::Cancelled);
        assert_eq!(subscriptions.earning(SUB), Earning::NotEarning);
    }

    #[test]
    fn a_start_told_again_keeps_the_stretch_it_earns_for() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&started(MembershipKind::Member, 1));
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(1)));
    }

    #[test]
    fn a_rebill_of_an_earning_member_keeps_its_stretch() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&renewed(8));
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(1)));
    }

    #[test]
    fn a_reactivation_without_a_deal_grants_nothing() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::Member, 1));
        subscriptions.apply(&cancelled(3));
        assert_eq!(subscriptions.apply(&reactivated(6, 0)), vec![]);
        assert_eq!(subscriptions.earning(SUB), Earning::Since(at(6)));
    }

    #[test]
    fn a_pay_per_video_purchase_grants_its_credits() {
        let mut subscriptions = Subscriptions::default();
        subscriptions.apply(&started(MembershipKind::PornPortal, 1));
        assert_eq!(
            subscriptions.apply(&SubscriptionEvent::PayPerVideoCreditsPurchased {
                subscription_id: SUB,
                user_id: USER,
                credits: 5,
                transaction_id: "EPOCH-6".into(),
                purchased_at: at(2),
            }),
            vec![Command::GrantPurchasedCredits { subscription_id: SUB, transaction_id: "EPOCH-6".into(), amount: 5 }]
        );
    }
}
