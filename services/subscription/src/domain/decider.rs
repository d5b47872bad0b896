//! The decider: the events that take readers to the standing of every known fact, and what
//! readers know after each event.

use proto_events::subscription::{MembershipKind, SubscriptionEvent as E};

use super::{standing, Command, DomainError, Ending, Identity, Subscription};

/// The events that take readers from `state` to the standing of `facts`.
pub fn decide(state: &Subscription, command: Command) -> Result<Vec<E>, DomainError> {
    let Command::Reconcile { identity, facts } = command;
    if let Some(known) = &state.identity {
        if known.subscription_id != identity.subscription_id {
            return Err(DomainError::WrongSubscription {
                expected: known.subscription_id,
                given: identity.subscription_id,
            });
        }
    }
    let target = standing(&facts);
    let Some((initial_tx, initial_at, initial_kind, initial_free)) = target.initial.clone() else {
        // Only later facts so far: they wait for the initial sale.
        return Ok(Vec::new());
    };
    let identity = state.identity.clone().unwrap_or(identity);
    let (subscription_id, user_id) = (identity.subscription_id, identity.user_id);
    let mut now = state.clone();
    let mut out = Vec::new();
    let mut emit = |now: &mut Subscription, event: E| {
        *now = evolve(std::mem::take(now), &event);
        out.push(event);
    };
    let last_at = facts.iter().map(|f| f.at).max().unwrap_or(initial_at);

    if now.identity.is_none() {
        emit(
            &mut now,
            E::SubscriptionStarted {
                subscription_id,
                user_id,
                site: identity.site.clone(),
                sites: identity.sites.clone(),
                kind: initial_kind,
                is_free_limited_trial: initial_free && initial_kind == MembershipKind::Trial,
                biller: identity.biller.clone(),
                transaction_id: initial_tx.clone(),
                active_since: initial_at,
                nats_code: identity.nats_code.clone(),
            },
        );
    }
    if let (Some(from), Some(to)) = (now.kind, target.kind) {
        if from != to {
            let (transaction_id, upgraded_at) = target.conversion.clone().unwrap_or((initial_tx.clone(), initial_at));
            emit(&mut now, E::SubscriptionUpgraded { subscription_id, user_id, from, to, transaction_id, upgraded_at });
        }
    }
    for (transaction_id, renewed_at) in &target.renewals {
        if !now.renewed.contains(transaction_id) {
            emit(
                &mut now,
                E::SubscriptionRenewed {
                    subscription_id,
                    user_id,
                    transaction_id: transaction_id.clone(),
                    renewed_at: *renewed_at,
                },
            );
        }
    }
    let revived = (now.cancelled && target.cancelled.is_none()) || (!now.is_active() && target.ended.is_none());
    // A reactivation whose cancel arrived after it (out of order) changes nothing visible, but
    // the member took it, with its retention deal: it is told all the same, once, so that its
    // gems are granted whatever the delivery order.
    let untold = target.reactivation.as_ref().is_some_and(|(tx, ..)| !now.reactivated.contains(tx));
    if revived || untold {
        let (transaction_id, reactivated_at, retention_offer_name, offered_gems) =
            target.reactivation.clone().unwrap_or((initial_tx.clone(), last_at, None, 0));
        emit(
            &mut now,
            E::SubscriptionReactivated {
                subscription_id,
                user_id,
                transaction_id,
                reactivated_at,
                retention_offer_name,
                offered_gems,
            },
        );
    }
    if let Some((transaction_id, cancelled_at)) = &target.cancelled {
        if !now.cancelled {
            emit(
                &mut now,
                E::SubscriptionCancelled {
                    subscription_id,
                    user_id,
                    transaction_id: transaction_id.clone(),
                    cancelled_at: *cancelled_at,
                },
            );
        }
    }
    if let Some((how, transaction_id, at)) = &target.ended {
        if now.ended != Some(*how) {
            let (transaction_id, at) = (transaction_id.clone(), *at);
            let event = match how {
                Ending::Expired => E::SubscriptionExpired { subscription_id, user_id, expired_at: at },
                Ending::ChargedBack => {
                    E::SubscriptionChargedBack { subscription_id, user_id, transaction_id, charged_back_at: at }
                }
                Ending::Refunded => {
                    E::SubscriptionRefunded { subscription_id, user_id, transaction_id, refunded_at: at }
                }
            };
            emit(&mut now, event);
        }
    }
    for (transaction_id, purchased_at, credits) in &target.credits {
        if !now.credited.contains(transaction_id) {
            emit(
                &mut now,
                E::PayPerVideoCreditsPurchased {
                    subscription_id,
                    user_id,
                    credits: *credits,
                    transaction_id: transaction_id.clone(),
                    purchased_at: *purchased_at,
                },
            );
        }
    }
    Ok(out)
}

/// What readers know after `event`. Whether it is cancelled or ended is the events' one rule
/// ([`proto_events::subscription::SubscriptionStanding::after`], which deals, wallet and unlocks fold too); which ending it
/// was, and which transactions were told, is this state's own.
pub fn evolve(mut s: Subscription, event: &E) -> Subscription {
    let standing = s.standing().after(event);
    s.cancelled = standing.cancelled;
    s.ended = if standing.ended { Ending::of(event).or(s.ended) } else { None };
    match event {
        E::SubscriptionStarted {
            subscription_id,
            user_id,
            site,
            sites,
            kind,
            is_free_limited_trial,
            biller,
            active_since,
            nats_code,
            ..
        } => {
            s.identity = Some(Identity {
                subscription_id: *subscription_id,
                user_id: *user_id,
                site: site.clone(),
                sites: sites.clone(),
                biller: biller.clone(),
                nats_code: nats_code.clone(),
            });
            s.kind = Some(*kind);
            s.is_free_limited_trial = *is_free_limited_trial;
            s.active_since = Some(*active_since);
        }
        E::SubscriptionRenewed { transaction_id, .. } => {
            s.renewed.insert(transaction_id.clone());
        }
        E::SubscriptionUpgraded { to, .. } => {
            s.kind = Some(*to);
            s.is_free_limited_trial = false;
        }
        E::SubscriptionReactivated { transaction_id, .. } => {
            s.reactivated.insert(transaction_id.clone());
        }
        E::PayPerVideoCreditsPurchased { transaction_id, .. } => {
            s.credited.insert(transaction_id.clone());
        }
        E::SubscriptionCancelled { .. }
        | E::SubscriptionExpired { .. }
        | E::SubscriptionChargedBack { .. }
        | E::SubscriptionRefunded { .. } => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::*;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn t(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    fn identity() -> Identity {
        Identity {
            subscription_id: Uuid::from_u128(7),
            user_id: Uuid::from_u128(9),
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            biller: "EPOCH".into(),
            nats_code: Some("NATS1".into()),
        }
    }

    fn fact(tx: &str, minutes: i64, step: Step) -> Fact {
        Fact { transaction_id: tx.into(), at: t(minutes), step }
    }

    fn initial(m: i64) -> Fact {
        fact("i", m, Step::Initial { kind: MembershipKind::Member, free_limited_trial: false })
    }

    /// Delivers facts one by one in `order`, deciding on all facts known so far each time.
    fn deliver(order: &[Fact]) -> (Subscription, Vec<E>) {
        let mut state = Subscription::default();
        let mut known = Vec::new();
        let mut all = Vec::new();
        for f in order {
            // The store keeps one row per transaction id: a repeated postback adds nothing.
            if !known.iter().any(|k: &Fact| k.transaction_id == f.transaction_id) {
                known.push(f.clone());
            }
            let events = decide(&state, Command::Reconcile { identity: identity(), facts: known.clone() }).unwrap();
            state = events.iter().fold(state, evolve);
            all.extend(events);
        }
        (state, all)
    }

    #[test]
    fn an_initial_sale_starts_an_active_membership_with_the_affiliate_code() {
        let (s, events) = deliver(&[initial(0)]);
        assert!(s.is_active() && !s.cancelled);
        assert!(
            matches!(&events[..], [E::SubscriptionStarted { nats_code: Some(n), kind: MembershipKind::Member, .. }] if n == "NATS1")
        );
    }

    #[test]
    fn a_rebill_of_a_trial_converts_it() {
        let trial = fact("i", 0, Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true });
        let (s, events) = deliver(&[trial, fact("r1", 10, Step::Rebill)]);
        assert_eq!((s.kind, s.is_free_limited_trial), (Some(MembershipKind::Member), false));
        assert!(matches!(
            events[1],
            E::SubscriptionUpgraded { from: MembershipKind::Trial, to: MembershipKind::Member, .. }
        ));
        assert!(matches!(events[2], E::SubscriptionRenewed { .. }));
    }

    #[test]
    fn a_rebill_after_an_expiry_is_told_with_the_reactivation_that_revives_it() {
        let (s, events) = deliver(&[initial(0), fact("x", 6, Step::Expire), fact("r", 8, Step::Rebill)]);
        assert!(s.is_active() && !s.cancelled);
        assert!(matches!(
            &events[..],
            [
                E::SubscriptionStarted { .. },
                E::SubscriptionExpired { .. },
                E::SubscriptionRenewed { .. },
                E::SubscriptionReactivated { offered_gems: 0, .. }
            ]
        ));
    }

    #[test]
    fn a_rebill_or_upgrade_told_after_a_later_chargeback_does_not_revive_it_on_the_way() {
        let trial = fact("i", 0, Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false });
        for late in [fact("r", 5, Step::Rebill), fact("u", 5, Step::Upgrade)] {
            let (s, events) = deliver(&[trial.clone(), fact("cb", 10, Step::Chargeback), late]);
            assert_eq!((s.ended, s.kind), (Some(Ending::ChargedBack), Some(MembershipKind::Member)));
            let ends = events.iter().filter(|e| matches!(e, E::SubscriptionChargedBack { .. })).count();
            assert_eq!(ends, 1, "the chargeback is told once: {events:?}");
            assert!(!events.iter().any(|e| matches!(e, E::SubscriptionReactivated { .. })));
        }
    }

    #[test]
    fn a_failed_rebill_changes_nothing_until_the_biller_expires_it() {
        let (s, events) = deliver(&[initial(0), fact("f", 5, Step::RebillFailed)]);
        assert!(s.is_active());
        assert_eq!(events.len(), 1);
        let (s, _) = deliver(&[initial(0), fact("f", 5, Step::RebillFailed), fact("x", 6, Step::Expire)]);
        assert_eq!(s.ended, Some(Ending::Expired));
    }

    #[test]
    fn a_cancelled_subscription_stays_active_until_it_expires() {
        let (s, _) = deliver(&[initial(0), fact("c", 5, Step::Cancel)]);
        assert!(s.is_active() && s.cancelled);
        let (s, _) = deliver(&[initial(0), fact("c", 5, Step::Cancel), fact("x", 9, Step::Expire)]);
        assert!(!s.is_active() && s.cancelled);
    }

    #[test]
    fn a_reactivation_takes_back_a_cancel_with_its_retention_deal() {
        let re = Step::Reactivation { retention_offer_name: Some("stay".into()), offered_gems: 20 };
        let (s, events) = deliver(&[initial(0), fact("c", 5, Step::Cancel), fact("re", 6, re)]);
        assert!(s.is_active() && !s.cancelled);
        assert!(matches!(events.last(), Some(E::SubscriptionReactivated { offered_gems: 20, .. })));
    }

    #[test]
    fn nothing_revives_a_charged_back_subscription() {
        let re = Step::Reactivation { retention_offer_name: None, offered_gems: 0 };
        let (s, _) = deliver(&[
            initial(0),
            fact("cb", 5, Step::Chargeback),
            fact("r", 6, Step::Rebill),
            fact("re", 7, re),
            fact("rf", 8, Step::Refund),
        ]);
        assert_eq!(s.ended, Some(Ending::ChargedBack));
    }

    #[test]
    fn facts_before_the_initial_wait_for_it() {
        let (s, events) = deliver(&[fact("c", 5, Step::Cancel)]);
        assert!(events.is_empty() && s.identity.is_none());
        let (s, events) = deliver(&[fact("c", 5, Step::Cancel), initial(0)]);
        assert!(s.cancelled && s.is_active());
        assert!(matches!(&events[..], [E::SubscriptionStarted { .. }, E::SubscriptionCancelled { .. }]));
    }

    #[test]
    fn a_credits_purchase_is_told_once() {
        let pp = fact("i", 0, Step::Initial { kind: MembershipKind::PornPortal, free_limited_trial: false });
        let buy = fact("p1", 3, Step::CreditsPurchase { credits: 5 });
        let (s, events) = deliver(&[pp, buy.clone(), buy]);
        assert_eq!(s.credited.len(), 1);
        assert_eq!(events.iter().filter(|e| matches!(e, E::PayPerVideoCreditsPurchased { credits: 5, .. })).count(), 1);
    }

    #[test]
    fn the_same_facts_twice_decide_nothing() {
        let facts = vec![initial(0), fact("r", 3, Step::Rebill), fact("c", 4, Step::Cancel)];
        let (state, _) = deliver(&facts);
        assert!(decide(&state, Command::Reconcile { identity: identity(), facts }).unwrap().is_empty());
    }

    #[test]
    fn another_subscriptions_facts_are_refused() {
        let (state, _) = deliver(&[initial(0)]);
        let other = Identity { subscription_id: Uuid::from_u128(8), ..identity() };
        assert!(decide(&state, Command::Reconcile { identity: other, facts: vec![initial(0)] }).is_err());
    }

    fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let head = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, head.clone());
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn every_ordering_of_initial_rebill_cancel_chargeback_reactivation_converges() {
        let re = Step::Reactivation { retention_offer_name: None, offered_gems: 0 };
        // Two timelines: chargeback last, and chargeback before the reactivation.
        for cb_at in [40, 25] {
            let facts = vec![
                initial(0),
                fact("r", 10, Step::Rebill),
                fact("c", 20, Step::Cancel),
                fact("cb", cb_at, Step::Chargeback),
                fact("re", 30, re.clone()),
            ];
            let expected = standing(&facts).view();
            assert_eq!(expected.ended, Some(Ending::ChargedBack));
            for order in permutations(&facts) {
                let (state, _) = deliver(&order);
                assert_eq!(
                    state.view(),
                    expected,
                    "delivery order {:?}",
                    order.iter().map(|f| &f.transaction_id).collect::<Vec<_>>()
                );
            }
        }
        // Without the chargeback: cancelled, then reactivated.
        let facts = vec![initial(0), fact("r", 10, Step::Rebill), fact("c", 20, Step::Cancel), fact("re", 30, re)];
        for order in permutations(&facts) {
            let (state, _) = deliver(&order);
            assert!(state.is_active() && !state.cancelled);
        }
    }

    #[test]
    fn a_retention_deals_gems_are_told_once_whatever_the_delivery_order() {
        let re = Step::Reactivation { retention_offer_name: Some("stay-with-gems".into()), offered_gems: 20 };
        let facts = vec![initial(0), fact("c", 20, Step::Cancel), fact("re", 30, re)];
        for order in permutations(&facts) {
            let (state, events) = deliver(&order);
            let gems: Vec<u32> = events
                .iter()
                .filter_map(|e| match e {
                    E::SubscriptionReactivated { offered_gems, .. } => Some(*offered_gems),
                    _ => None,
                })
                .collect();
            let names: Vec<_> = order.iter().map(|f| &f.transaction_id).collect();
            assert_eq!(gems, [20], "delivery order {names:?}");
            assert!(state.is_active() && !state.cancelled, "delivery order {names:?}");
        }
    }

    fn any_step() -> impl Strategy<Value = Step> {
        prop_oneof![
            Just(Step::TrialConversion),
            Just(Step::Rebill),
            Just(Step::RebillFailed),
            Just(Step::Cancel),
            Just(Step::Expire),
            Just(Step::Chargeback),
            Just(Step::Refund),
            (0u32..3).prop_map(|g| Step::Reactivation { retention_offer_name: None, offered_gems: g * 10 }),
            Just(Step::Upgrade),
            (1u32..10).prop_map(|credits| Step::CreditsPurchase { credits }),
        ]
    }

    fn any_history() -> impl Strategy<Value = Vec<Fact>> {
        let initial = (prop_oneof![Just(MembershipKind::Member), Just(MembershipKind::Trial)], any::<bool>(), 0i64..5)
            .prop_map(|(kind, free, at)| fact("i", at, Step::Initial { kind, free_limited_trial: free }));
        (initial, prop::collection::vec((any_step(), 0i64..30), 0..9)).prop_map(|(first, rest)| {
            let mut facts = vec![first];
            facts.extend(rest.into_iter().enumerate().map(|(n, (step, at))| fact(&format!("t{n}"), at, step)));
            facts
        })
    }

    proptest! {
        /// Out-of-order (and repeated) postbacks converge: whatever the delivery order, readers
        /// end where the fold of every fact puts the subscription.
        #[test]
        fn out_of_order_postbacks_converge(facts in any_history(), seed in any::<u64>(), repeat in 0usize..3) {
            use rand::{seq::SliceRandom, SeedableRng};
            let mut order = facts.clone();
            order.extend(facts.iter().take(repeat).cloned());
            order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
            let (state, events) = deliver(&order);
            let (in_order, _) = deliver(&facts);
            prop_assert_eq!(state.view(), standing(&facts).view());
            prop_assert_eq!(state.view(), in_order.view());
            // A reader that keeps only the standing (deals, wallet, unlocks) folds the same
            // events to the same place.
            let read = events.iter().fold(proto_events::subscription::SubscriptionStanding::default(), |s, e| s.after(e));
            let view = state.view();
            prop_assert_eq!((read.cancelled, read.ended), (view.cancelled, view.ended.is_some()));
            // Each rebill and each credit purchase is told at most once.
            let renewed: Vec<_> = events.iter().filter_map(|e| match e { E::SubscriptionRenewed { transaction_id, .. } => Some(transaction_id), _ => None }).collect();
            let unique: BTreeSet<_> = renewed.iter().collect();
            prop_assert_eq!(renewed.len(), unique.len());
            let credits: u32 = events.iter().map(|e| match e { E::PayPerVideoCreditsPurchased { credits, .. } => *credits, _ => 0 }).sum();
            let bought: u32 = facts.iter().map(|f| match f.step { Step::CreditsPurchase { credits } => credits, _ => 0 }).sum();
            prop_assert_eq!(credits, bought);
            // Exactly one start, first.
            let starts_first = matches!(events.first(), Some(E::SubscriptionStarted { .. }));
            prop_assert!(starts_first, "the first event is not the start");
            prop_assert_eq!(events.iter().filter(|e| matches!(e, E::SubscriptionStarted { .. })).count(), 1);
        }

        /// Deciding again on the same facts changes nothing.
        #[test]
        fn deciding_twice_is_deciding_once(facts in any_history()) {
            let (state, _) = deliver(&facts);
            let again = decide(&state, Command::Reconcile { identity: identity(), facts }).unwrap();
            prop_assert!(again.is_empty(), "decided again: {:?}", again);
        }
    }
}
