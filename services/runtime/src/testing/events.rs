//! Events as other services publish them, made up by a test, and fed to a consumer's handler
//! without the broker.

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Utc};
use proto_events::catalog::{Video, VideoChannel, VideoQuality};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope, EventFamily};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::consumer::Handler;

/// Hands out 1, 2, 3, ...: the stream versions of the envelopes one test makes up.
#[derive(Debug, Default)]
pub struct Versions(AtomicI64);

impl Versions {
    /// The next version (1 first).
    pub fn next(&self) -> i64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// `event` as its owner's relay publishes it: on `stream_id` at `stream_version`, of
/// `tenant`, by `actor`, with a fresh event id and correlation id, stamped now.
pub fn envelope<E: EventFamily>(
    event: &E,
    stream_id: String,
    stream_version: i64,
    tenant: &str,
    actor: Actor,
) -> Envelope {
    let encoded = proto_events::encode(event);
    Envelope {
        event_id: Uuid::now_v7(),
        stream_id,
        stream_version,
        event_type: encoded.event_type,
        schema_version: encoded.schema_version,
        occurred_at: Utc::now(),
        tenant: Some(tenant.to_owned()),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        actor,
        payload: encoded.payload,
    }
}

/// A video released now on `site`, in every quality, of `channel` when given, with a fresh id
/// and the slug, ids and title that id makes.
pub fn video(site: &str, channel: Option<VideoChannel>) -> Video {
    let video_id = Uuid::now_v7();
    Video {
        video_id,
        legacy_id: format!("{}", video_id.as_u128() % 1_000_000),
        new_id: format!("n{}", video_id.simple()),
        slug: format!("video-{}", video_id.simple()),
        site: site.into(),
        title: "A neutral title".into(),
        description: "Generated.".into(),
        release_date: Utc::now(),
        duration_seconds: 600,
        performer_ids: vec![],
        category_slugs: vec![],
        channel,
        is_third_party_channel: false,
        is_free_limited_trial: false,
        award: 0,
        qualities: VideoQuality::ALL.to_vec(),
    }
}

/// A subscription of `kind` through EPOCH, active since `at`, on `sites` (the first is the
/// site joined).
pub fn subscription_started(
    subscription_id: Uuid,
    user_id: Uuid,
    kind: MembershipKind,
    sites: &[&str],
    free_limited_trial: bool,
    at: DateTime<Utc>,
) -> SubscriptionEvent {
    SubscriptionEvent::SubscriptionStarted {
        subscription_id,
        user_id,
        site: sites[0].into(),
        sites: sites.iter().map(|s| (*s).to_owned()).collect(),
        kind,
        is_free_limited_trial: free_limited_trial,
        biller: "EPOCH".into(),
        transaction_id: format!("EPOCH-{}", Uuid::now_v7()),
        active_since: at,
        nats_code: None,
    }
}

/// A subscription cancelled through EPOCH at `at`.
pub fn subscription_cancelled(subscription_id: Uuid, user_id: Uuid, at: DateTime<Utc>) -> SubscriptionEvent {
    SubscriptionEvent::SubscriptionCancelled {
        subscription_id,
        user_id,
        transaction_id: format!("EPOCH-{}", Uuid::now_v7()),
        cancelled_at: at,
    }
}

/// Records `envelope` in `consumer`'s inbox as the consumer does; true when it was not there
/// yet, and the caller applies it in the same transaction.
pub async fn record_in_inbox(tx: &mut PgConnection, consumer: &str, envelope: &Envelope) -> bool {
    sqlx::query("insert into inbox (consumer, event_id, envelope) values ($1, $2, $3) on conflict do nothing")
        .bind(consumer)
        .bind(envelope.event_id)
        .bind(serde_json::to_value(envelope).unwrap())
        .execute(&mut *tx)
        .await
        .unwrap()
        .rows_affected()
        == 1
}

/// Applies `envelopes` as `consumer`'s consumer does (inbox rows and `handler` in one
/// transaction; an event already in the inbox is skipped), without the broker. Answers how
/// many were new.
pub async fn feed(pool: &PgPool, consumer: &str, handler: &dyn Handler, envelopes: &[Envelope]) -> usize {
    let mut tx = pool.begin().await.unwrap();
    let mut fresh = 0;
    for envelope in envelopes {
        if record_in_inbox(&mut tx, consumer, envelope).await {
            handler.handle(&mut tx, envelope).await.unwrap();
            fresh += 1;
        }
    }
    tx.commit().await.unwrap();
    fresh
}
