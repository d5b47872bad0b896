//! What tests do to a wallet they run beside them (this crate's, the unlocks service's, the
//! gateway's): a command run in a transaction of its own, a wallet funded. With the `testing`
//! feature only.

use proto_events::{Actor, EventMeta};
use runtime::EventStore;
use sqlx::PgPool;
use uuid::Uuid;

use crate::commands::{self, Item, Outcome};
use crate::domain::Command;

/// Runs one command on the wallet of `user_id` in a transaction of its own; panics on a refusal.
pub async fn run(pool: &PgPool, store: &EventStore, user_id: Uuid, command: Command) -> Outcome {
    let mut tx = pool.begin().await.unwrap();
    let meta = EventMeta::new(Actor::System("test".into()));
    let outcome = commands::run_in(&mut tx, store, user_id, &[Item::new(command, meta)]).await.unwrap().remove(0);
    tx.commit().await.unwrap();
    outcome.expect("the wallet accepts the command")
}

/// Gives a wallet `gems` gems, as a retention deal does.
pub async fn fund_gems(pool: &PgPool, store: &EventStore, user_id: Uuid, gems: u64) {
    let command = Command::GrantRetentionGems {
        subscription_id: Uuid::now_v7(),
        transaction_id: format!("FUND-{}", Uuid::now_v7()),
        amount: gems,
    };
    run(pool, store, user_id, command).await;
}

/// Gives a wallet `credits` pay-per-video credits, as a biller's purchase does.
pub async fn fund_credits(pool: &PgPool, store: &EventStore, user_id: Uuid, credits: u64) {
    let command = Command::GrantPurchasedCredits {
        subscription_id: Uuid::now_v7(),
        transaction_id: format!("PPV-{}", Uuid::now_v7()),
        amount: credits,
    };
    run(pool, store, user_id, command).await;
}
