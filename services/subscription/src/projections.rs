//! Read models: `member_subscription` from the service's own events (written in the append's
//! transaction, rebuilt from the event store), and `account` from the profile's events (account
//! e-mails for the join form's "log in instead", tandem links for the child's read).

use chrono::{DateTime, SubsecRound, Utc};
use proto_events::profile::ProfileEvent;
use proto_events::subscription::{StandingChange, SubscriptionEvent as E};
use proto_events::Envelope;
use runtime::projection::{decode_known, ReadModel};
use serde::Serialize;
use sqlx::types::Json;
use sqlx::PgConnection;
use std::collections::BTreeMap;
use uuid::Uuid;

use crate::domain::Ending;

/// Routing keys the profile-events consumer binds.
pub const PROFILE_BINDINGS: &[&str] =
    &["profile.UserRegistered", "profile.TandemChildAccountCreated", "profile.VipUserConverted"];

/// Applies one of the service's own events to `member_subscription`.
pub async fn apply_subscription_event(tx: &mut PgConnection, event: &E) -> Result<(), sqlx::Error> {
    let mut changes = MemberChanges::default();
    changes.add(event);
    changes.write(tx).await
}

/// A `member_subscription` row as `SubscriptionStarted` makes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct MemberRow {
    subscription_id: Uuid,
    user_id: Uuid,
    site: String,
    sites: Vec<String>,
    kind: &'static str,
    is_free_limited_trial: bool,
    biller: String,
    active_since: DateTime<Utc>,
    active: bool,
    cancelled: bool,
    ended: Option<&'static str>,
    ended_at: Option<DateTime<Utc>>,
    nats_code: Option<String>,
    updated_at: DateTime<Utc>,
}

/// What later events set on a row: `None` keeps the column. `ended` and `ended_at` go together
/// (`set_ended`): set to how and when it ended, or cleared.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct MemberPatch {
    kind: Option<&'static str>,
    is_free_limited_trial: Option<bool>,
    active: Option<bool>,
    cancelled: Option<bool>,
    set_ended: bool,
    ended: Option<&'static str>,
    ended_at: Option<DateTime<Utc>>,
    updated_at: Option<DateTime<Utc>>,
}

impl MemberPatch {
    fn is_empty(&self) -> bool {
        *self == MemberPatch::default()
    }

    /// This patch, then `later`.
    fn then(&mut self, later: &MemberPatch) {
        fn over<T: Clone>(kept: &mut Option<T>, later: &Option<T>) {
            if later.is_some() {
                kept.clone_from(later);
            }
        }
        over(&mut self.kind, &later.kind);
        over(&mut self.is_free_limited_trial, &later.is_free_limited_trial);
        over(&mut self.active, &later.active);
        over(&mut self.cancelled, &later.cancelled);
        over(&mut self.updated_at, &later.updated_at);
        if later.set_ended {
            (self.set_ended, self.ended, self.ended_at) = (true, later.ended, later.ended_at);
        }
    }

    fn apply_to(&self, row: &mut MemberRow) {
        row.kind = self.kind.unwrap_or(row.kind);
        row.is_free_limited_trial = self.is_free_limited_trial.unwrap_or(row.is_free_limited_trial);
        row.active = self.active.unwrap_or(row.active);
        row.cancelled = self.cancelled.unwrap_or(row.cancelled);
        row.updated_at = self.updated_at.unwrap_or(row.updated_at);
        if self.set_ended {
            (row.ended, row.ended_at) = (self.ended, self.ended_at);
        }
    }
}

/// What one event does to its subscription's row.
enum Effect {
    Start(MemberRow),
    Patch(MemberPatch),
    Nothing,
}

/// Microseconds, cut as sqlx cuts a bound timestamp (Postgres would round the text's nanoseconds).
fn micros(at: &DateTime<Utc>) -> DateTime<Utc> {
    at.trunc_subsecs(6)
}

fn effect_of(event: &E) -> Effect {
    let change = StandingChange::of(event);
    let at = micros(&event.happened_at());
    match event {
        E::SubscriptionStarted {
            subscription_id,
            user_id,
            site,
            sites,
            kind,
            is_free_limited_trial,
            biller,
            nats_code,
            ..
        } => Effect::Start(MemberRow {
            subscription_id: *subscription_id,
            user_id: *user_id,
            site: site.clone(),
            sites: sites.clone(),
            kind: kind.as_str(),
            is_free_limited_trial: *is_free_limited_trial,
            biller: biller.clone(),
            active_since: at,
            active: true,
            cancelled: false,
            ended: None,
            ended_at: None,
            nats_code: nats_code.clone(),
            updated_at: at,
        }),
        E::PayPerVideoCreditsPurchased { .. } => Effect::Nothing,
        _ => {
            // Cancelled and ended as the events' one rule sets them; which ending, and when, beside.
            let mut patch = MemberPatch {
                cancelled: change.cancelled,
                active: change.ended.map(|ended| !ended),
                updated_at: Some(at),
                ..MemberPatch::default()
            };
            if let Some(ended) = change.ended {
                patch.set_ended = true;
                patch.ended = Ending::of(event).map(Ending::as_str);
                patch.ended_at = ended.then_some(at);
            }
            if let E::SubscriptionUpgraded { to, .. } = event {
                patch.kind = Some(to.as_str());
                patch.is_free_limited_trial = Some(false);
            }
            Effect::Patch(patch)
        }
    }
}

/// Events of many subscriptions folded into one write of `member_subscription`: the same rows
/// as applying them one by one (a statement each), in one statement.
///
/// Per subscription: the row its `SubscriptionStarted` inserts (if any) with every later event's
/// change already applied, and the patch of all its events, applied to a row that was there
/// before (one statement's update does not see the rows its own insert adds, so a row started
/// here is written whole, and a started row that was somehow there already is patched as before).
#[derive(Default)]
pub struct MemberChanges {
    changes: BTreeMap<Uuid, (Option<MemberRow>, MemberPatch)>,
}

impl MemberChanges {
    /// Adds `event`, after those added before it.
    pub fn add(&mut self, event: &E) {
        let (started, patch) = self.changes.entry(event.subscription_id()).or_default();
        match effect_of(event) {
            // A second start of one row inserts nothing (`on conflict do nothing`).
            Effect::Start(row) => {
                if started.is_none() {
                    *started = Some(row);
                }
            }
            Effect::Patch(later) => {
                if let Some(row) = started {
                    later.apply_to(row);
                }
                patch.then(&later);
            }
            Effect::Nothing => {}
        }
    }

    pub fn is_empty(&self) -> bool {
        self.changes.values().all(|(started, patch)| started.is_none() && patch.is_empty())
    }

    /// Writes every change in one statement.
    pub async fn write(&self, tx: &mut PgConnection) -> Result<(), sqlx::Error> {
        if self.is_empty() {
            return Ok(());
        }
        let started: Vec<&MemberRow> = self.changes.values().filter_map(|(s, _)| s.as_ref()).collect();
        // The ids again as an array: the planner cannot count a JSON record set's rows (it
        // assumes 100) and would scan the whole table rather than look each row up.
        let patched: Vec<Uuid> = self.changes.iter().filter(|(_, (_, p))| !p.is_empty()).map(|(id, _)| *id).collect();
        let patches: Vec<serde_json::Value> = self
            .changes
            .iter()
            .filter(|(_, (_, p))| !p.is_empty())
            .map(|(id, (_, p))| {
                let mut value = serde_json::to_value(p).expect("a patch is JSON");
                value["subscription_id"] = serde_json::json!(id);
                value
            })
            .collect();
        sqlx::query(
            "with started as (
                 insert into member_subscription (subscription_id, user_id, site, sites, kind, is_free_limited_trial,
                     biller, active_since, join_date, active, cancelled, ended, ended_at, nats_code, updated_at)
                 select r.subscription_id, r.user_id, r.site, r.sites, r.kind, r.is_free_limited_trial, r.biller,
                     r.active_since, r.active_since, r.active, r.cancelled, r.ended, r.ended_at, r.nats_code,
                     r.updated_at
                 from jsonb_to_recordset($1) as r(subscription_id uuid, user_id uuid, site text, sites text[],
                     kind text, is_free_limited_trial boolean, biller text, active_since timestamptz, active boolean,
                     cancelled boolean, ended text, ended_at timestamptz, nats_code text, updated_at timestamptz)
                 on conflict (subscription_id) do nothing
             )
             update member_subscription m set
                 kind = coalesce(p.kind, m.kind),
                 is_free_limited_trial = coalesce(p.is_free_limited_trial, m.is_free_limited_trial),
                 active = coalesce(p.active, m.active),
                 cancelled = coalesce(p.cancelled, m.cancelled),
                 ended = case when p.set_ended then p.ended else m.ended end,
                 ended_at = case when p.set_ended then p.ended_at else m.ended_at end,
                 updated_at = coalesce(p.updated_at, m.updated_at)
             from jsonb_to_recordset($2) as p(subscription_id uuid, kind text, is_free_limited_trial boolean,
                 active boolean, cancelled boolean, set_ended boolean, ended text, ended_at timestamptz,
                 updated_at timestamptz)
             where m.subscription_id = p.subscription_id and m.subscription_id = any($3)",
        )
        .bind(Json(&started))
        .bind(Json(&patches))
        .bind(&patched)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }
}

/// `member_subscription`, rebuilt from the event store.
pub const MEMBERS: ReadModel = ReadModel::own_events("subscription.members", &["member_subscription"], |tx, event| {
    Box::pin(async move { Ok(apply_subscription_event(tx, &runtime::event_store::decode(event)?).await?) })
});

/// `account`, fed by the profile-events consumer reading `queue` and rebuilt from its inbox.
pub fn accounts(queue: impl Into<String>) -> ReadModel {
    ReadModel::inbox("subscription.accounts", queue, &["account"], |tx, envelope| {
        Box::pin(apply_profile_event(tx, envelope))
    })
}

/// Applies one profile event to `account` (a type of no interest here is passed over).
pub async fn apply_profile_event(tx: &mut PgConnection, envelope: &Envelope) -> anyhow::Result<()> {
    let Some(event) = decode_known::<ProfileEvent>(envelope)? else { return Ok(()) };
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
