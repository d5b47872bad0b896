//! Read models kept from events: the deals and the interstitial snoozes (the service's own
//! events, written in the append's transaction) and who is a porn-portal subscriber (from
//! the subscription events the consumer receives).
//!
//! The live writers call the same functions as a rebuild, so a rebuilt model equals the live one.

use chrono::{DateTime, Utc};
use proto_events::deals::{Deal, DealEvent};
use proto_events::subscription::{MembershipKind, StandingChange, SubscriptionEvent, SubscriptionStanding};
use proto_events::Envelope;
use runtime::projection::{decode_known, ReadModel};
use runtime::StoreError;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::api::DealView;
use crate::domain::evolve_deal;

/// `deal` and `interstitial_snooze`, from the deals service's own events.
pub const DEALS: ReadModel = ReadModel::own_events("deals.deals", &["deal", "interstitial_snooze"], |tx, event| {
    Box::pin(async move { Ok(apply_deal_events(tx, std::slice::from_ref(event)).await?) })
});

fn decode(envelope: &Envelope) -> Result<DealEvent, StoreError> {
    runtime::event_store::decode(envelope)
}

/// Writes the read models of deals events, in order.
pub async fn apply_deal_events(conn: &mut PgConnection, envelopes: &[Envelope]) -> Result<(), StoreError> {
    for envelope in envelopes {
        let event = decode(envelope)?;
        match &event {
            DealEvent::DealCreated { .. }
            | DealEvent::DealEdited { .. }
            | DealEvent::DealEnabled { .. }
            | DealEvent::DealDisabled { .. }
            | DealEvent::DealReranked { .. } => {
                let Some(deal_id) = event.deal_id() else { continue };
                let before = deal(&mut *conn, deal_id, true).await?;
                match evolve_deal(before, &event) {
                    Some(after) => write_deal(conn, &after, envelope.stream_version).await?,
                    None => {
                        tracing::warn!(event_id = %envelope.event_id, %deal_id, "change of an unknown deal ignored")
                    }
                }
            }
            DealEvent::InterstitialSnoozed { user_id, site, snoozed_at, until, .. } => {
                sqlx::query(
                    "insert into interstitial_snooze (user_id, site, snoozed_at, snoozed_until) values ($1, $2, $3, $4)
                     on conflict (user_id, site) do update
                         set snoozed_at = excluded.snoozed_at, snoozed_until = excluded.snoozed_until",
                )
                .bind(user_id)
                .bind(site)
                .bind(snoozed_at)
                .bind(until)
                .execute(&mut *conn)
                .await?;
            }
            // Tracking only: the event store is their record.
            DealEvent::InterstitialContinued { .. } | DealEvent::DealCarouselTracked { .. } => {}
        }
    }
    Ok(())
}

/// A deal as the read model holds it; `lock` takes its row `for update`.
pub async fn deal(conn: &mut PgConnection, deal_id: Uuid, lock: bool) -> Result<Option<Deal>, StoreError> {
    let sql = if lock {
        "select body from deal where deal_id = $1 for update"
    } else {
        "select body from deal where deal_id = $1"
    };
    let body: Option<serde_json::Value> = sqlx::query_scalar(sql).bind(deal_id).fetch_optional(&mut *conn).await?;
    body.map(|b| {
        serde_json::from_value(b)
            .map_err(|e| StoreError::Corrupt { event_id: Uuid::nil(), reason: format!("deal {deal_id}: {e}") })
    })
    .transpose()
}

async fn write_deal(conn: &mut PgConnection, deal: &Deal, version: i64) -> Result<(), StoreError> {
    let json = |value: Result<serde_json::Value, serde_json::Error>| {
        value.map_err(|e| StoreError::Corrupt { event_id: Uuid::nil(), reason: e.to_string() })
    };
    let body = json(serde_json::to_value(deal))?;
    let view = json(serde_json::to_value(DealView::from(deal)))?;
    sqlx::query(
        "insert into deal (deal_id, version, site, rank, rank_listing, rank_interstitial, enabled, enabled_list,
                           enabled_interstitial, special_offer, body, view)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (deal_id) do update set
             version = excluded.version, site = excluded.site, rank = excluded.rank,
             rank_listing = excluded.rank_listing, rank_interstitial = excluded.rank_interstitial,
             enabled = excluded.enabled, enabled_list = excluded.enabled_list,
             enabled_interstitial = excluded.enabled_interstitial, special_offer = excluded.special_offer,
             body = excluded.body, view = excluded.view",
    )
    .bind(deal.deal_id)
    .bind(version)
    .bind(&deal.site)
    .bind(i64::from(deal.rank))
    .bind(i64::from(deal.rank_listing))
    .bind(i64::from(deal.rank_interstitial))
    .bind(deal.enabled)
    .bind(deal.enabled_list)
    .bind(deal.enabled_interstitial)
    .bind(deal.special_offer)
    .bind(body)
    .bind(view)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

// --- porn-portal subscribers --------------------------------------------------------------

/// Where a subscription stands, as far as special offers go (a cancelled one's offers run on
/// until the paid period ends, as its access does).
pub use proto_events::subscription::SubscriptionStatus as Status;

/// What the special offers need to know of one subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// From SubscriptionStarted (or an upgrade); unknown while only later events have arrived.
    pub kind: Option<MembershipKind>,
    /// Cancelled and ended, each as the events' one rule ([`StandingChange`]) last set it.
    pub standing: SubscriptionStanding,
    /// When the event that last set whether it has ended happened.
    pub status_at: DateTime<Utc>,
    /// When the event that last set whether it is cancelled happened (`None`: none has).
    pub cancelled_at: Option<DateTime<Utc>>,
}

impl Standing {
    pub fn status(&self) -> Status {
        self.standing.status()
    }
}

/// A subscription's standing after `event`, which happened `at`.
///
/// What an event sets is the events' one rule ([`StandingChange::of`]). Events may arrive out
/// of order (the broker redelivers, consumers run in parallel), so each part of the standing
/// only takes the value of an event that happened later than the one that set it: an expiry
/// that arrives before its subscription's start is kept, and the late start fills in the kind
/// without reviving the subscription. In time order this is the rule's own fold.
pub fn evolve_subscription(before: Option<Standing>, event: &SubscriptionEvent, at: DateTime<Utc>) -> Standing {
    use SubscriptionEvent as E;
    let kind = match event {
        E::SubscriptionUpgraded { to, .. } => Some(*to),
        // An upgrade that arrived first knows the newer kind.
        E::SubscriptionStarted { kind, .. } => before.and_then(|b| b.kind).or(Some(*kind)),
        _ => before.and_then(|b| b.kind),
    };
    let mut after = before.unwrap_or(Standing {
        kind,
        standing: SubscriptionStanding::default(),
        status_at: at,
        cancelled_at: None,
    });
    after.kind = kind;
    let change = StandingChange::of(event);
    if let Some(ended) = change.ended {
        if at >= after.status_at {
            after.standing.ended = ended;
            after.status_at = at;
        }
    }
    if let Some(cancelled) = change.cancelled {
        if after.cancelled_at.is_none_or(|t| at >= t) {
            after.standing.cancelled = cancelled;
            after.cancelled_at = Some(at);
        }
    }
    after
}

/// A porn-portal subscriber has a porn-portal subscription that has not ended.
pub fn is_porn_portal_subscriber(subscriptions: impl IntoIterator<Item = Standing>) -> bool {
    subscriptions.into_iter().any(|s| s.kind == Some(MembershipKind::PornPortal) && s.status() != Status::Ended)
}

/// `portal_subscription`, from what the subscription-events consumer reading `queue` received.
pub fn portal_subscriptions(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox("deals.portal-subscriptions", queue, &["portal_subscription"], |tx, envelope| {
        Box::pin(apply_subscription_event(tx, envelope))
    })
}

/// A `portal_subscription` row as stored.
#[derive(sqlx::FromRow)]
struct PortalRow {
    kind: Option<String>,
    status: String,
    status_at: DateTime<Utc>,
    cancelled: bool,
    cancelled_at: Option<DateTime<Utc>>,
}

/// Applies one subscription event to `portal_subscription` (a type added after this service
/// was built says nothing about porn-portal).
async fn apply_subscription_event(tx: &mut PgConnection, envelope: &Envelope) -> anyhow::Result<()> {
    let Some(event) = decode_known::<SubscriptionEvent>(envelope)? else { return Ok(()) };
    let id = event.subscription_id();
    let row: Option<PortalRow> = sqlx::query_as(
        "select kind, status, status_at, cancelled, cancelled_at from portal_subscription
         where subscription_id = $1 for update",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let before = match row {
        Some(PortalRow { kind, status, status_at, cancelled, cancelled_at }) => Some(Standing {
            kind: match kind {
                Some(k) => Some(MembershipKind::from_name(&k).ok_or_else(|| anyhow::anyhow!("stored kind {k:?}"))?),
                None => None,
            },
            standing: SubscriptionStanding::stored(
                Status::from_name(&status).ok_or_else(|| anyhow::anyhow!("stored status {status:?}"))?,
                cancelled,
            ),
            status_at,
            cancelled_at,
        }),
        None => None,
    };
    let after = evolve_subscription(before, &event, envelope.occurred_at);
    sqlx::query(
        "insert into portal_subscription (subscription_id, user_id, kind, status, status_at, cancelled, cancelled_at)
             values ($1, $2, $3, $4, $5, $6, $7)
             on conflict (subscription_id) do update
             set kind = excluded.kind, status = excluded.status, status_at = excluded.status_at,
                 cancelled = excluded.cancelled, cancelled_at = excluded.cancelled_at",
    )
    .bind(id)
    .bind(event.user_id())
    .bind(after.kind.map(|k| k.as_str()))
    .bind(after.status().as_str())
    .bind(after.status_at)
    .bind(after.standing.cancelled)
    .bind(after.cancelled_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn started(kind: MembershipKind) -> SubscriptionEvent {
        SubscriptionEvent::SubscriptionStarted {
            subscription_id: Uuid::from_u128(1),
            user_id: Uuid::from_u128(2),
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: "T".into(),
            active_since: Utc::now(),
            nats_code: None,
        }
    }

    fn ended(kind: u8, s: Uuid, u: Uuid) -> SubscriptionEvent {
        let now = Utc::now();
        match kind {
            0 => SubscriptionEvent::SubscriptionExpired { subscription_id: s, user_id: u, expired_at: now },
            1 => SubscriptionEvent::SubscriptionChargedBack {
                subscription_id: s,
                user_id: u,
                transaction_id: "T".into(),
                charged_back_at: now,
            },
            _ => SubscriptionEvent::SubscriptionRefunded {
                subscription_id: s,
                user_id: u,
                transaction_id: "T".into(),
                refunded_at: now,
            },
        }
    }

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap()
    }

    #[test]
    fn a_porn_portal_subscriber_keeps_the_special_offers_until_the_subscription_ends() {
        let (s, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let mut state = evolve_subscription(None, &started(MembershipKind::PornPortal), at(0));
        assert!(is_porn_portal_subscriber([state]));
        let cancel = SubscriptionEvent::SubscriptionCancelled {
            subscription_id: s,
            user_id: u,
            transaction_id: "T".into(),
            cancelled_at: Utc::now(),
        };
        state = evolve_subscription(Some(state), &cancel, at(10));
        assert!(is_porn_portal_subscriber([state]), "a cancelled subscription runs to its end");
        state = evolve_subscription(Some(state), &ended(0, s, u), at(20));
        assert!(!is_porn_portal_subscriber([state]));
    }

    #[test]
    fn members_and_trials_are_not_porn_portal_subscribers_and_an_upgrade_changes_the_kind() {
        assert!(!is_porn_portal_subscriber([evolve_subscription(None, &started(MembershipKind::Member), at(0))]));
        let trial = evolve_subscription(None, &started(MembershipKind::Trial), at(0));
        assert!(!is_porn_portal_subscriber([trial]));
        let upgraded = evolve_subscription(
            Some(trial),
            &SubscriptionEvent::SubscriptionUpgraded {
                subscription_id: Uuid::from_u128(1),
                user_id: Uuid::from_u128(2),
                from: MembershipKind::Trial,
                to: MembershipKind::PornPortal,
                transaction_id: "T".into(),
                upgraded_at: Utc::now(),
            },
            at(5),
        );
        assert!(is_porn_portal_subscriber([upgraded]));
    }

    #[test]
    fn a_reactivation_runs_an_expired_subscription_again_and_a_rebill_leaves_a_cancel_standing() {
        let (s, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let renewed = SubscriptionEvent::SubscriptionRenewed {
            subscription_id: s,
            user_id: u,
            transaction_id: "R".into(),
            renewed_at: Utc::now(),
        };
        let reactivated = SubscriptionEvent::SubscriptionReactivated {
            subscription_id: s,
            user_id: u,
            transaction_id: "I".into(),
            reactivated_at: Utc::now(),
            retention_offer_name: None,
            offered_gems: 0,
        };
        let started = evolve_subscription(None, &started(MembershipKind::PornPortal), at(0));
        let expired = evolve_subscription(Some(started), &ended(0, s, u), at(10));
        let renewed_only = evolve_subscription(Some(expired), &renewed, at(20));
        assert_eq!(renewed_only.status(), Status::Ended, "a revival is told by a reactivation");
        let again = evolve_subscription(Some(renewed_only), &reactivated, at(20));
        assert_eq!(again.status(), Status::Active);
        assert!(is_porn_portal_subscriber([again]));
        let cancel = SubscriptionEvent::SubscriptionCancelled {
            subscription_id: s,
            user_id: u,
            transaction_id: "C".into(),
            cancelled_at: Utc::now(),
        };
        let cancelled = evolve_subscription(Some(again), &cancel, at(30));
        assert_eq!(evolve_subscription(Some(cancelled), &renewed, at(40)).status(), Status::Cancelled);
    }

    #[test]
    fn an_end_that_arrives_before_the_start_is_kept() {
        let (s, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
        for kind in 0..3 {
            let early_end = evolve_subscription(None, &ended(kind, s, u), at(30));
            assert_eq!(early_end.kind, None);
            assert!(!is_porn_portal_subscriber([early_end]), "an unknown kind is no porn-portal subscription");
            let late_start = evolve_subscription(Some(early_end), &started(MembershipKind::PornPortal), at(0));
            assert_eq!(late_start.kind, Some(MembershipKind::PornPortal));
            assert_eq!(late_start.status(), Status::Ended, "the late start does not revive it");
            assert!(!is_porn_portal_subscriber([late_start]));
        }
    }

    proptest! {
        /// Whatever order the events arrive in, the status is the one of the last event in time
        /// and the kind the start's.
        #[test]
        fn any_arrival_order_gives_the_same_standing(order in Just(vec![0usize, 1, 2, 3]).prop_shuffle()) {
            let (s, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
            let events = [
                (started(MembershipKind::PornPortal), at(0)),
                (SubscriptionEvent::SubscriptionRenewed {
                    subscription_id: s, user_id: u, transaction_id: "R".into(), renewed_at: Utc::now(),
                }, at(10)),
                (SubscriptionEvent::SubscriptionCancelled {
                    subscription_id: s, user_id: u, transaction_id: "C".into(), cancelled_at: Utc::now(),
                }, at(20)),
                (ended(1, s, u), at(30)),
            ];
            let in_time = events.iter().fold(None, |st, (e, t)| Some(evolve_subscription(st, e, *t))).unwrap();
            let shuffled = order.iter().fold(None, |st, i| Some(evolve_subscription(st, &events[*i].0, events[*i].1)));
            let shuffled = shuffled.unwrap();
            prop_assert_eq!(shuffled, in_time);
            prop_assert_eq!(in_time.status(), Status::Ended);
            prop_assert_eq!(in_time.kind, Some(MembershipKind::PornPortal));
        }
    }
}
