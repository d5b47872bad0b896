//! Read models kept from events: the profile's own (`user_profile`, `user_group`, written in the
//! append's transaction) and the memberships its badges and relationship rules read
//! (`member_subscription`, written by the `profile.projections` consumer from the subscription
//! service's events). The live writers call the same functions as a rebuild, so a rebuilt
//! model equals the live one. Credits, gems, unlocks and download quotas are not kept here:
//! the gateway asks their owners (docs/decisions/profile/who-owns-each-fact-findoneuserprofile-how.md).

use proto_events::profile::{HealthWarningState, ProfileEvent};
use proto_events::subscription::{StandingChange, SubscriptionEvent};
use proto_events::Envelope;
use runtime::projection::{decode_known, ReadModel};
use sqlx::PgConnection;

/// `user_profile` and `user_group`, from the profile's own events.
pub const USER_PROFILES: ReadModel =
    ReadModel::own_events("profile.user_profile", &["user_profile", "user_group"], |tx, event| {
        Box::pin(async move { Ok(apply_profile_event(tx, event).await?) })
    });

/// Applies one of the profile's own events to its read models.
pub async fn apply_profile_event(tx: &mut PgConnection, envelope: &Envelope) -> Result<(), sqlx::Error> {
    let event: ProfileEvent = match proto_events::decode(envelope) {
        Ok(event) => event,
        Err(e) => return Err(sqlx::Error::Decode(Box::new(e))),
    };
    let version = envelope.stream_version;
    let update = |sql: &'static str| sqlx::query(sql);
    match &event {
        ProfileEvent::UserRegistered { user_id, email, username, site, tandem_parent_user_id, registered_at } => {
            sqlx::query(
                "insert into user_profile (user_id, version, email, username, site, registered_at, tandem_parent_user_id)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(user_id)
            .bind(version)
            .bind(email)
            .bind(username)
            .bind(site)
            .bind(registered_at)
            .bind(tandem_parent_user_id)
            .execute(&mut *tx)
            .await?;
            return Ok(());
        }
        ProfileEvent::CredentialsChanged { user_id, changed_at, .. } => {
            update("update user_profile set credentials_changed_at = $2 where user_id = $1")
                .bind(user_id)
                .bind(changed_at)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::UsernameChosen { user_id, username, .. } => {
            update("update user_profile set username = $2 where user_id = $1")
                .bind(user_id)
                .bind(username)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::DisplayNameSet { user_id, display_name, .. } => {
            update("update user_profile set display_name = $2 where user_id = $1")
                .bind(user_id)
                .bind(display_name)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::EmailConsentSet { user_id, email_consent, .. } => {
            update("update user_profile set has_email_consent = $2, email_consent_set = true where user_id = $1")
                .bind(user_id)
                .bind(email_consent)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::TermsConsentGiven { user_id, .. } => {
            update("update user_profile set terms_consent_given = true where user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::CamsConsentGiven { user_id, .. } => {
            update("update user_profile set cams_consent_given = true where user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::AutoplaySet { user_id, autoplay_enabled, .. } => {
            update("update user_profile set autoplay_enabled = $2 where user_id = $1")
                .bind(user_id)
                .bind(autoplay_enabled)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::RelationshipSet { user_id, relationship_status, relationship_role, .. } => {
            update("update user_profile set relationship_status = $2, relationship_role = $3 where user_id = $1")
                .bind(user_id)
                .bind(relationship_status)
                .bind(relationship_role)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::GemsIntroAcknowledged { user_id, acknowledged_at } => {
            update("update user_profile set gems_intro_acknowledged_at = $2 where user_id = $1")
                .bind(user_id)
                .bind(acknowledged_at)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::PromotionalTeaserViewed { user_id, .. } => {
            update("update user_profile set teaser_viewed = true where user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::HealthWarningAcknowledged { user_id, state_code, .. } => {
            let sql = match state_code {
                HealthWarningState::Texas => {
                    "update user_profile set texas_health_warning_acknowledged = true where user_id = $1"
                }
                HealthWarningState::Alabama => {
                    "update user_profile set alabama_health_warning_acknowledged = true where user_id = $1"
                }
            };
            sqlx::query(sql).bind(user_id).execute(&mut *tx).await?;
        }
        ProfileEvent::GroupGranted { user_id, group, .. } => {
            sqlx::query("insert into user_group (user_id, group_name) values ($1, $2) on conflict do nothing")
                .bind(user_id)
                .bind(group.as_str())
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::GroupRevoked { user_id, group, .. } => {
            sqlx::query("delete from user_group where user_id = $1 and group_name = $2")
                .bind(user_id)
                .bind(group.as_str())
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::SpecialAttributesSet { user_id, attributes, .. } => {
            update("update user_profile set special_attributes = $2 where user_id = $1")
                .bind(user_id)
                .bind(serde_json::to_value(attributes).unwrap_or_default())
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::TandemChildAccountCreated { parent_user_id, .. } => {
            update("update user_profile set has_tandem_child_account = true where user_id = $1")
                .bind(parent_user_id)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::VipUserInvited { user_id, .. } => {
            update("update user_profile set vip_invited = true where user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        ProfileEvent::VipUserConverted { user_id, new_email, .. } => {
            update("update user_profile set vip_converted = true, email = $2 where user_id = $1")
                .bind(user_id)
                .bind(new_email)
                .execute(&mut *tx)
                .await?;
        }
        // Sessions live in the security tables, not in the profile.
        ProfileEvent::SessionsRevoked { .. } | ProfileEvent::SignedIn { .. } | ProfileEvent::SignedOut { .. } => {}
    }
    // Every event of the stream moves the row's version; the tandem creation is on the parent's.
    sqlx::query("update user_profile set version = greatest(version, $2) where user_id = $1")
        .bind(event.user_id())
        .bind(version)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// What the subscription service tells the profile: the memberships badges and the
/// relationship section read. Fed by the `profile.projections` consumer reading `queue`.
pub fn members(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox("profile.members", queue, &["member_subscription"], |tx, envelope| {
        Box::pin(apply_member_event(tx, envelope))
    })
}

/// Routing keys the consumer binds. (A queue declared by an older build keeps its other
/// bindings until it is deleted; their events are of no interest and are acknowledged.)
pub const BINDINGS: &[&str] = &["subscription.*"];

/// Applies one subscription event (a type of no interest to the profile is passed over).
pub async fn apply_member_event(tx: &mut PgConnection, envelope: &Envelope) -> anyhow::Result<()> {
    if let Some(event) = decode_known::<SubscriptionEvent>(envelope)? {
        apply_subscription(tx, &event).await?;
    }
    Ok(())
}

/// The member read model's change for one subscription event, once decoded (the benchmark's
/// members are written through it too).
pub(crate) async fn apply_subscription(tx: &mut PgConnection, event: &SubscriptionEvent) -> Result<(), sqlx::Error> {
    match event {
        SubscriptionEvent::SubscriptionStarted {
            subscription_id,
            user_id,
            site,
            sites,
            kind,
            is_free_limited_trial,
            biller,
            active_since,
            ..
        } => {
            sqlx::query(
                "insert into member_subscription (subscription_id, user_id, site, sites, kind, is_free_limited_trial,
                     biller, active_since, active, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, true, $8)
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
            .execute(&mut *tx)
            .await?;
        }
        _ => {
            // Cancelled and active as the events' one rule sets them (`None`: left as it was);
            // an upgrade sets the kind.
            let change = StandingChange::of(event);
            let to = match event {
                SubscriptionEvent::SubscriptionUpgraded { to, .. } => Some(to.as_str()),
                SubscriptionEvent::PayPerVideoCreditsPurchased { .. } => return Ok(()),
                _ => None,
            };
            sqlx::query(
                "update member_subscription set
                     kind = coalesce($2, kind),
                     is_free_limited_trial = is_free_limited_trial and $2 is null,
                     cancelled = coalesce($3, cancelled),
                     active = coalesce(not $4, active),
                     ended_at = case when $4 is null then ended_at when $4 then $5 end,
                     updated_at = $5
                 where subscription_id = $1",
            )
            .bind(event.subscription_id())
            .bind(to)
            .bind(change.cancelled)
            .bind(change.ended)
            .bind(event.happened_at())
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}
