//! Read models: `member_subscription` from the service's own events (written in the append's
//! transaction, rebuilt from the event store), and `account` from the profile's events (account
//! e-mails for the join form's "log in instead", tandem links for the child's read).

use async_trait::async_trait;
use proto_events::profile::ProfileEvent;
use proto_events::subscription::SubscriptionEvent as E;
use proto_events::{DecodeError, Envelope};
use runtime::consumer::Handler;
use runtime::projection::{Projection, Source};
use sqlx::PgConnection;

/// Routing keys the profile-events consumer binds.
pub const PROFILE_BINDINGS: &[&str] =
    &["profile.UserRegistered", "profile.TandemChildAccountCreated", "profile.VipUserConverted"];

/// Applies one of the service's own events to `member_subscription`.
pub async fn apply_subscription_event(tx: &mut PgConnection, event: &E) -> Result<(), sqlx::Error> {
    let id = event.subscription_id();
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
            sqlx::query(
                "insert into member_subscription (subscription_id, user_id, site, sites, kind, is_free_limited_trial,
                     biller, active_since, join_date, active, cancelled, nats_code, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $8, true, false, $9, $8)
                 on conflict (subscription_id) do nothing",
            )
            .bind(subscription_id)
            .bind(user_id)
            .bind(site)
            .bind(sites)
            .bind(kind.as_str())
            .bind(is_free_limited_trial)
            .bind(biller)
            .bind(active_since)
            .bind(nats_code)
            .execute(&mut *tx)
            .await?;
        }
        E::SubscriptionRenewed { renewed_at: at, .. } => {
            sqlx::query(
                "update member_subscription set active = true, ended = null, ended_at = null, updated_at = $2
                 where subscription_id = $1",
            )
            .bind(id)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        E::SubscriptionUpgraded { to, upgraded_at, .. } => {
            sqlx::query(
                "update member_subscription set kind = $2, is_free_limited_trial = false, active = true, ended = null,
                     ended_at = null, updated_at = $3 where subscription_id = $1",
            )
            .bind(id)
            .bind(to.as_str())
            .bind(upgraded_at)
            .execute(&mut *tx)
            .await?;
        }
        E::SubscriptionCancelled { cancelled_at, .. } => {
            sqlx::query("update member_subscription set cancelled = true, updated_at = $2 where subscription_id = $1")
                .bind(id)
                .bind(cancelled_at)
                .execute(&mut *tx)
                .await?;
        }
        E::SubscriptionReactivated { reactivated_at, .. } => {
            sqlx::query(
                "update member_subscription set cancelled = false, active = true, ended = null, ended_at = null,
                     updated_at = $2 where subscription_id = $1",
            )
            .bind(id)
            .bind(reactivated_at)
            .execute(&mut *tx)
            .await?;
        }
        E::SubscriptionExpired { expired_at: at, .. }
        | E::SubscriptionChargedBack { charged_back_at: at, .. }
        | E::SubscriptionRefunded { refunded_at: at, .. } => {
            let how = match event {
                E::SubscriptionExpired { .. } => "expired",
                E::SubscriptionChargedBack { .. } => "charged_back",
                _ => "refunded",
            };
            sqlx::query(
                "update member_subscription set active = false, ended = $2, ended_at = $3, updated_at = $3
                 where subscription_id = $1",
            )
            .bind(id)
            .bind(how)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        E::PayPerVideoCreditsPurchased { .. } => {}
    }
    Ok(())
}

/// Applies written envelopes (the append's own) to the read model.
pub async fn apply_envelopes(tx: &mut PgConnection, envelopes: &[Envelope]) -> Result<(), sqlx::Error> {
    for envelope in envelopes {
        let event: E = proto_events::decode(envelope).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        apply_subscription_event(tx, &event).await?;
    }
    Ok(())
}

/// `member_subscription`, rebuilt from the event store.
pub struct SubscriptionProjection;

#[async_trait]
impl Projection for SubscriptionProjection {
    fn name(&self) -> &str {
        "subscription.members"
    }

    fn source(&self) -> Source {
        Source::OwnEvents
    }

    fn tables(&self) -> &[&'static str] {
        &["member_subscription"]
    }

    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        apply_subscription_event(tx, &proto_events::decode(event)?).await?;
        Ok(())
    }
}

/// `account`, fed by the profile-events consumer and rebuilt from its inbox.
pub struct AccountProjection {
    queue: String,
}

impl AccountProjection {
    pub fn new(queue: impl Into<String>) -> Self {
        AccountProjection { queue: queue.into() }
    }
}

pub async fn apply_profile_event(tx: &mut PgConnection, envelope: &Envelope) -> anyhow::Result<()> {
    let event = match proto_events::decode::<ProfileEvent>(envelope) {
        Ok(event) => event,
        Err(DecodeError::UnknownType { event_type, .. }) => {
            tracing::debug!(event_id = %envelope.event_id, event_type, "profile event type ignored");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    match event {
        ProfileEvent::UserRegistered { user_id, email, tandem_parent_user_id, .. } => {
            sqlx::query(
                "insert into account (user_id, email, tandem_parent_user_id) values ($1, $2, $3)
                 on conflict (user_id) do update set email = excluded.email,
                     tandem_parent_user_id = coalesce(excluded.tandem_parent_user_id, account.tandem_parent_user_id)",
            )
            .bind(user_id)
            .bind(email)
            .bind(tandem_parent_user_id)
            .execute(&mut *tx)
            .await?;
        }
        ProfileEvent::TandemChildAccountCreated { parent_user_id, child_user_id, .. } => {
            sqlx::query(
                "insert into account (user_id, email, tandem_parent_user_id) values ($1, '', $2)
                 on conflict (user_id) do update set tandem_parent_user_id = excluded.tandem_parent_user_id",
            )
            .bind(child_user_id)
            .bind(parent_user_id)
            .execute(&mut *tx)
            .await?;
        }
        ProfileEvent::VipUserConverted { user_id, new_email, .. } => {
            sqlx::query("update account set email = $2 where user_id = $1")
                .bind(user_id)
                .bind(new_email)
                .execute(&mut *tx)
                .await?;
        }
        _ => {}
    }
    Ok(())
}

#[async_trait]
impl Projection for AccountProjection {
    fn name(&self) -> &str {
        "subscription.accounts"
    }

    fn source(&self) -> Source {
        Source::Inbox(self.queue.clone())
    }

    fn tables(&self) -> &[&'static str] {
        &["account"]
    }

    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        apply_profile_event(tx, event).await
    }
}

/// The profile-events consumer's handler: the same function as the rebuild.
pub struct ProfileEvents;

#[async_trait]
impl Handler for ProfileEvents {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        apply_profile_event(tx, event).await
    }
}
