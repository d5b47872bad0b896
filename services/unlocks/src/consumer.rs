//! Consumers: catalog facts (a projection fed from its queue) and subscription events (the
//! entitlement facts, plus the forfeit of unlocked channel packs when a subscription ends,
//! in the consumer's transaction with its inbox row).

use async_trait::async_trait;
use proto_events::subscription::SubscriptionEvent;
use proto_events::unlocks::ForfeitReason;
use proto_events::{Actor, Envelope, EventMeta};
use runtime::consumer::Handler;
use runtime::projection::decode_known;
use runtime::EventStore;
use sqlx::PgConnection;

use crate::commands;
use crate::domain::Command;
use crate::projections::{apply_subscription_event, Standing};

/// Routing keys of the catalog consumer: the facts the rules need.
pub const CATALOG_BINDINGS: &[&str] = &[
    "catalog.VideoPublished",
    "catalog.VideoUpdated",
    "catalog.VideoUnpublished",
    "catalog.ChannelPublished",
    "catalog.ChannelPackPublished",
];
pub const SUBSCRIPTION_BINDINGS: &[&str] = &["subscription.*"];

/// Why an ending event forfeits, given the standing before it. A cancel forfeits; an
/// expiry, chargeback or refund forfeits unless a cancel already did (packs unlocked since
/// through another subscription are not this one's to take).
pub fn forfeit_reason(event: &SubscriptionEvent, before: Option<Standing>) -> Option<ForfeitReason> {
    let not_cancelled_before = before != Some(Standing::Cancelled) && before != Some(Standing::Ended);
    match event {
        SubscriptionEvent::SubscriptionCancelled { .. } if before != Some(Standing::Ended) => {
            Some(ForfeitReason::SubscriptionCancelled)
        }
        SubscriptionEvent::SubscriptionExpired { .. } if not_cancelled_before => {
            Some(ForfeitReason::SubscriptionExpired)
        }
        SubscriptionEvent::SubscriptionChargedBack { .. } if not_cancelled_before => {
            Some(ForfeitReason::SubscriptionChargedBack)
        }
        SubscriptionEvent::SubscriptionRefunded { .. } if not_cancelled_before => {
            Some(ForfeitReason::SubscriptionRefunded)
        }
        _ => None,
    }
}

pub struct SubscriptionEvents {
    store: EventStore,
}

impl SubscriptionEvents {
    pub fn new(store: EventStore) -> Self {
        SubscriptionEvents { store }
    }
}

#[async_trait]
impl Handler for SubscriptionEvents {
    async fn handle(&self, tx: &mut PgConnection, envelope: &Envelope) -> anyhow::Result<()> {
        let Some(event) = decode_known::<SubscriptionEvent>(envelope)? else { return Ok(()) };
        let before = apply_subscription_event(tx, &event, envelope.occurred_at).await?;
        let Some(reason) = forfeit_reason(&event, before) else { return Ok(()) };
        let command =
            Command::ForfeitPacks { subscription_id: event.subscription_id(), reason, now: chrono::Utc::now() };
        let meta = EventMeta::caused_by(envelope, Actor::System("unlocks.subscriptions".into()));
        if let Err(refused) = commands::run_in(tx, &self.store, event.user_id(), command, &meta).await? {
            tracing::warn!(event_id = %envelope.event_id, error = %refused, "forfeit refused");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use uuid::Uuid;

    #[test]
    fn a_cancel_forfeits_and_a_later_expiry_does_not_forfeit_again() {
        let (s, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let cancel = SubscriptionEvent::SubscriptionCancelled {
            subscription_id: s,
            user_id: u,
            transaction_id: "t".into(),
            cancelled_at: Utc::now(),
        };
        let expire = SubscriptionEvent::SubscriptionExpired { subscription_id: s, user_id: u, expired_at: Utc::now() };
        let chargeback = SubscriptionEvent::SubscriptionChargedBack {
            subscription_id: s,
            user_id: u,
            transaction_id: "t".into(),
            charged_back_at: Utc::now(),
        };
        assert_eq!(forfeit_reason(&cancel, Some(Standing::Active)), Some(ForfeitReason::SubscriptionCancelled));
        assert_eq!(forfeit_reason(&cancel, None), Some(ForfeitReason::SubscriptionCancelled));
        assert_eq!(forfeit_reason(&expire, Some(Standing::Cancelled)), None);
        assert_eq!(forfeit_reason(&expire, Some(Standing::Active)), Some(ForfeitReason::SubscriptionExpired));
        assert_eq!(forfeit_reason(&chargeback, Some(Standing::Active)), Some(ForfeitReason::SubscriptionChargedBack));
        assert_eq!(forfeit_reason(&chargeback, Some(Standing::Ended)), None);
    }
}
