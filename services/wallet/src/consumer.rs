//! The subscription-events consumer: keeps the subscriptions read model and turns a
//! subscription's cancel, end, retention deal or credits purchase into wallet commands,
//! all in the consumer's transaction with its inbox row.

use async_trait::async_trait;
use proto_events::subscription::SubscriptionEvent;
use proto_events::{Actor, Envelope, EventMeta};
use runtime::consumer::Handler;
use runtime::projection::decode_known;
use runtime::EventStore;
use sqlx::PgConnection;

use crate::commands::{self, Item};
use crate::projections::apply_subscription_event;
use crate::subscriptions::wallet_commands;

/// Routing keys the consumer binds.
pub const BINDINGS: &[&str] = &["subscription.*"];

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
        // The row is locked from here to the commit: a Friday grant of this subscription
        // (which reads it `for share`) runs wholly before or wholly after this event.
        let before = apply_subscription_event(tx, &event).await?;
        let commands = wallet_commands(before.as_ref(), &event);
        if commands.is_empty() {
            return Ok(());
        }
        let meta = EventMeta::caused_by(envelope, Actor::System("wallet.subscriptions".into()));
        let items: Vec<Item> = commands.into_iter().map(|c| Item::new(c, meta.clone())).collect();
        let outcomes = commands::run_in(tx, &self.store, event.user_id(), &items).await?;
        for (item, outcome) in items.iter().zip(outcomes) {
            // A refusal is an answer that retrying would not change: note it and go on.
            if let Err(refused) = outcome {
                tracing::warn!(
                    event_id = %envelope.event_id,
                    command = ?item.command,
                    error = %refused,
                    "subscription event's wallet command refused"
                );
            }
        }
        Ok(())
    }
}
