//! Test harness: a scratch schema (runtime + wallet tables) in `paysite_test` and a scratch
//! exchange and queue per test, on the real PostgreSQL and RabbitMQ.
#![allow(dead_code)]

use chrono::{DateTime, Utc};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope};
use runtime::testing::{self, Scratch, Versions};
use runtime::{db, EventStore};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;
use wallet::commands;
use wallet::domain::Command;
use wallet::{State, WalletConfig};

// Not every test binary takes each of them.
#[allow(unused_imports)]
pub use runtime::testing::{database_url, kill9, subscription_cancelled as cancelled, utc, TestClock};

/// A scratch namespace (see `runtime::testing`) with the wallet's tables and its state.
pub struct TestEnv {
    scratch: Scratch,
    pub queue: String,
    pub state: State,
    pub clock: TestClock,
    versions: Versions,
}

runtime::deref_scratch!(TestEnv, scratch);

impl TestEnv {
    /// A fresh schema with the wallet's tables; the clock stands at Wednesday 2026-01-07 12:00 UTC.
    pub async fn new() -> TestEnv {
        TestEnv::with(|c| c).await
    }

    /// As `new`, with the settings `tune` changes.
    pub async fn with(tune: impl FnOnce(WalletConfig) -> WalletConfig) -> TestEnv {
        let scratch = Scratch::new(&[("wallet", &wallet::MIGRATIONS)], 8).await;
        let queue = format!("{}.subscriptions", scratch.schema);
        scratch.track_queue(&queue);
        let clock = TestClock::at(utc(2026, 1, 7, 12, 0));
        let config = tune(WalletConfig { subscriptions_queue: queue.clone(), ..WalletConfig::default() });
        let state = State::new(scratch.pool.clone(), scratch.store.clone(), config).with_clock(clock.as_clock());
        TestEnv { scratch, queue, state, clock, versions: Versions::default() }
    }

    /// The wallet as another process sees it: its own pool and its own ledger.
    pub async fn another_process(&self) -> State {
        let pool = db::connect(&database_url(), &self.schema, 8).await.unwrap();
        State::new(pool.clone(), EventStore::new(pool, &self.schema), (*self.state.config).clone())
            .with_clock(self.clock.as_clock())
    }

    /// Declares the consumer's queue now, so nothing published before the consumer starts is dropped.
    pub async fn declare_queue(&self) {
        let bindings: Vec<String> = wallet::consumer::BINDINGS.iter().map(|b| (*b).to_owned()).collect();
        self.scratch.declare_queue(&self.queue, &bindings).await;
    }

    /// Runs the wallet's subscription consumer until `cancel`.
    pub fn consumer_task(&self, cancel: &CancellationToken) -> tokio::task::JoinHandle<()> {
        self.spawn_consumer(wallet::consumers(&self.state).remove(0), cancel)
    }

    /// A subscription event as the subscription service would publish it.
    pub fn envelope(&self, event: &SubscriptionEvent) -> Envelope {
        let stream_id = format!("subscription-{}", event.subscription_id());
        testing::envelope(event, stream_id, self.versions.next(), "vixen", Actor::Biller("EPOCH".into()))
    }

    /// Publishes envelopes on the test's exchange, with publisher confirms.
    pub async fn publish(&self, envelopes: &[Envelope]) {
        self.scratch.publish("subscription", envelopes).await;
    }

    /// Applies an envelope the way the consumer does (inbox row and handler in one
    /// transaction), without the broker. Returns false for one already applied.
    pub async fn feed(&self, envelope: &Envelope) -> bool {
        let handler = wallet::consumer::SubscriptionEvents::new(self.store.clone());
        testing::feed(&self.pool, &self.queue, &handler, std::slice::from_ref(envelope)).await == 1
    }

    /// Runs one command on a wallet in a transaction of its own; panics on a refusal.
    pub async fn run(&self, user_id: Uuid, command: Command) -> commands::Outcome {
        wallet::testing::run(&self.pool, &self.store, user_id, command).await
    }

    /// Gives a wallet `gems` gems through a retention deal.
    pub async fn fund(&self, user_id: Uuid, gems: u64) {
        wallet::testing::fund_gems(&self.pool, &self.store, user_id, gems).await
    }

    pub async fn cleanup(self) {
        self.scratch.cleanup().await;
    }
}

/// A subscription of `kind` on vixen, active since `at`.
pub fn started(subscription_id: Uuid, user_id: Uuid, kind: MembershipKind, at: DateTime<Utc>) -> SubscriptionEvent {
    testing::subscription_started(subscription_id, user_id, kind, &["vixen"], false, at)
}

pub fn reactivated(subscription_id: Uuid, user_id: Uuid, at: DateTime<Utc>, offered_gems: u32) -> SubscriptionEvent {
    SubscriptionEvent::SubscriptionReactivated {
        subscription_id,
        user_id,
        transaction_id: format!("EPOCH-{}", Uuid::now_v7()),
        reactivated_at: at,
        retention_offer_name: (offered_gems > 0).then(|| "stay-with-gems".into()),
        offered_gems,
    }
}

pub fn credits_purchased(
    subscription_id: Uuid,
    user_id: Uuid,
    credits: u32,
    transaction_id: &str,
) -> SubscriptionEvent {
    SubscriptionEvent::PayPerVideoCreditsPurchased {
        subscription_id,
        user_id,
        credits,
        transaction_id: transaction_id.into(),
        purchased_at: Utc::now(),
    }
}
