//! The weekly gems: a job that passes over the current gems week every few seconds and
//! grants each earning subscription its gems for that week, once.
//!
//! Once is the decider's doing, not the job's: a grant's reference is
//! `<subscription>/<week>`, the decider refuses it a second time, and the wallet's row lock
//! makes a second worker decide after the first one committed. So any number of workers may
//! pass over a week at once, and one that dies mid-pass leaves nothing half done: its open
//! transaction rolls back, and the next pass (its own after a restart, or another worker's)
//! grants what is still due.
//!
//! A grant reads its subscription `for share` in the transaction that appends the grant,
//! and the consumer folds a cancel in `for update` before it forfeits: the two serialise, so
//! a grant never lands after the forfeit of a cancel that it did not see.

use std::sync::Arc;

use proto_events::{Actor, EventMeta};
use runtime::service::Job;
use runtime::StoreError;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::calendar::{GemsWeek, WeekKey};
use crate::commands::{self, retrying, Item};
use crate::domain::{Command, DomainError, Earning};
use crate::projections::{subscription, Lock};
use crate::State;

/// What one grant attempt did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrantOutcome {
    Granted,
    /// Already granted (by this worker earlier, or another).
    AlreadyGranted,
    /// Not earning for this week (cancelled, ended, not a full member, started after the grant instant).
    NotEarning,
    /// Refused for another reason (logged).
    Refused,
}

/// What one pass over a week did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    pub due: usize,
    pub granted: usize,
    pub already_granted: usize,
    pub not_earning: usize,
    pub refused: usize,
}

type OnGrant = Arc<dyn Fn(Uuid, WeekKey) + Send + Sync>;

#[derive(Clone)]
pub struct Scheduler {
    state: State,
    on_grant: Option<OnGrant>,
}

impl Scheduler {
    pub fn new(state: State) -> Self {
        Scheduler { state, on_grant: None }
    }

    /// Calls `f` after each grant this scheduler commits.
    pub fn on_grant(mut self, f: impl Fn(Uuid, WeekKey) + Send + Sync + 'static) -> Self {
        self.on_grant = Some(Arc::new(f));
        self
    }

    /// The scheduler as a service job.
    pub fn job(self) -> Job {
        Box::new(move |cancel| Box::pin(self.run(cancel)))
    }

    /// Passes over the current week every `scheduler_interval` until cancelled.
    pub async fn run(self, cancel: CancellationToken) {
        let interval = self.state.config.scheduler_interval;
        tracing::info!(interval_ms = interval.as_millis() as u64, "friday gems scheduler started");
        while !cancel.is_cancelled() {
            match self.pass().await {
                Ok(report) if report.granted > 0 => {
                    tracing::info!(granted = report.granted, due = report.due, "friday gems pass done")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "friday gems pass failed"),
            }
            tokio::select! {
                _ = cancel.cancelled() => break,
                _ = tokio::time::sleep(interval) => {}
            }
        }
        tracing::info!("friday gems scheduler stopped");
    }

    /// One pass over the week the clock is in.
    pub async fn pass(&self) -> anyhow::Result<PassReport> {
        let week = self.state.config.calendar.week_of(self.state.clock.now());
        self.grant_week(week).await
    }

    /// Grants `week`'s gems to every subscription due them.
    pub async fn grant_week(&self, week: GemsWeek) -> anyhow::Result<PassReport> {
        let due = self.due(week).await?;
        let mut report = PassReport { due: due.len(), ..PassReport::default() };
        for subscription_id in due {
            match self.grant(subscription_id, week).await? {
                GrantOutcome::Granted => report.granted += 1,
                GrantOutcome::AlreadyGranted => report.already_granted += 1,
                GrantOutcome::NotEarning => report.not_earning += 1,
                GrantOutcome::Refused => report.refused += 1,
            }
        }
        Ok(report)
    }

    /// Earning subscriptions without their grant for `week`: a plain read, each one checked
    /// again under lock when granted.
    async fn due(&self, week: GemsWeek) -> Result<Vec<Uuid>, sqlx::Error> {
        sqlx::query_scalar(
            "select s.subscription_id from subscription s
             where s.status = 'active' and s.kind = 'member' and s.member_since <= $1
               and not exists (
                   select 1 from ledger_entry l
                   where l.lookup = s.user_id::text || ' ' || s.subscription_id::text || '/' || $2
                     and l.entry_type = 'grant' and l.currency = 'gems' and l.reason = 'friday_gems')
             order by s.subscription_id",
        )
        .bind(week.starts_at)
        .bind(week.key.to_string())
        .fetch_all(&self.state.pool)
        .await
    }

    /// Grants one subscription its gems for `week`, if it earns them and has not had them.
    #[tracing::instrument(name = "friday_gems_grant", skip(self, week), fields(week = %week.key))]
    pub async fn grant(&self, subscription_id: Uuid, week: GemsWeek) -> Result<GrantOutcome, StoreError> {
        let state = &self.state;
        let outcome = retrying(|| async move {
            let mut tx = state.pool.begin().await?;
            let Some(subscription) = subscription(&mut tx, subscription_id, Lock::ForShare).await? else {
                return Ok(GrantOutcome::NotEarning);
            };
            let earning = subscription.earning();
            if earning == Earning::NotEarning {
                return Ok(GrantOutcome::NotEarning);
            }
            let command = Command::GrantFridayGems { subscription_id, week, amount: state.config.weekly_gems, earning };
            let meta = EventMeta::new(Actor::System("wallet.friday-gems".into()));
            let mut outcomes =
                commands::run_in(&mut tx, &state.store, subscription.user_id, &[Item::new(command, meta)]).await?;
            let outcome = match outcomes.remove(0) {
                Ok(done) if done.events.is_empty() => GrantOutcome::AlreadyGranted,
                Ok(_) => GrantOutcome::Granted,
                Err(DomainError::NotEarningThisWeek { .. }) => GrantOutcome::NotEarning,
                Err(refused) => {
                    tracing::warn!(%subscription_id, week = %week.key, error = %refused, "friday gems refused");
                    GrantOutcome::Refused
                }
            };
            tx.commit().await?;
            if outcome == GrantOutcome::Granted {
                state.store.wake_relay();
            }
            Ok(outcome)
        })
        .await?;
        if outcome == GrantOutcome::Granted {
            tracing::debug!(%subscription_id, week = %week.key, "friday gems granted");
            if let Some(f) = &self.on_grant {
                f(subscription_id, week.key);
            }
        }
        Ok(outcome)
    }
}
