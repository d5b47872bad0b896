//! The unlock process manager: an unlock paid from the wallet is requested, debited and
//! recorded, and the reconciler finishes any unlock whose request stopped between the steps.
//!
//! One request takes one straight path: the pack's brand and channel from this service's copy
//! of the catalog, the access facts built once from one read of the subscription service, the
//! wallet's debit, the record. Finishing an unlock asks the access rules once, before the debit;
//! the completion takes that answer (docs/decisions/unlocks/one-straight-path-per-pack-unlock.md).
//!
//! Choice: the intent is recorded first (`UnlockRequested`, a `pending_unlock` row) and its
//! unlock id is the debit's idempotency key. Whoever finishes a pending unlock (the request,
//! a joined request, the reconciler) sends the same debit: the wallet debits once and
//! answers the same receipt, then the unlock is recorded once (the decider ignores a second
//! completion). A crash between debit and record leaves a pending row whose debit is
//! recorded; the reconciler's debit gets the receipt back and records the unlock.

use std::time::Duration;

use chrono::{DateTime, Utc};
use proto_events::unlocks::{UnlockEvent, UnlockRefusal, UnlockTarget};
use proto_events::wallet::{Asset, CreditsDebitReason, GemsDebitReason};
use proto_events::{Actor, EventMeta};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;
use wallet_contract::api::{DebitRequest, NotEnoughCredits, NotEnoughGems};
use wallet_contract::client::DebitRefusal as Refusal;

use super::{Command, Unlocks};
use crate::api::{PackUnlockResponse, UnlockVideoInput, UnlockVideoResponse};
use crate::entitlement::{self, may_take_free_trial_video, may_unlock_channel_pack, Asker, TrialRefusal};
use crate::error::{ApiError, PACK_UNLOCK_FAILED, VIDEO_UNLOCK_FAILED};
use crate::{commands, queries, State};

/// A finished pending unlock.
pub struct Finished {
    pub balance_after: u64,
    pub state: Unlocks,
}

/// Why a pending unlock was not finished.
pub enum NotFinished {
    /// The wallet refused; the unlock is given up (recorded).
    Refused(Refusal),
    /// The user no longer has the access a channel pack needs: given up before any debit.
    NoAccess,
    /// The unlock was given up (or its debit orphaned) before this debit: not sent again.
    GivenUp,
    /// The wallet did not answer; the unlock stays pending.
    WalletUnavailable(String),
    Store(ApiError),
}

impl From<ApiError> for NotFinished {
    fn from(e: ApiError) -> Self {
        NotFinished::Store(e)
    }
}

impl From<runtime::StoreError> for NotFinished {
    fn from(e: runtime::StoreError) -> Self {
        NotFinished::Store(e.into())
    }
}

/// Marks an unlock's debit as being sent by this process while it lives.
struct InFlight<'a> {
    state: &'a State,
    unlock_id: Uuid,
}

impl<'a> InFlight<'a> {
    fn enter(state: &'a State, unlock_id: Uuid) -> Self {
        *state.in_flight.lock().expect("in-flight lock").entry(unlock_id).or_default() += 1;
        InFlight { state, unlock_id }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Ok(mut map) = self.state.in_flight.lock() {
            if let Some(n) = map.get_mut(&self.unlock_id) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.unlock_id);
                }
            }
        }
    }
}

fn in_flight(state: &State, unlock_id: Uuid) -> bool {
    state.in_flight.lock().map(|m| m.contains_key(&unlock_id)).unwrap_or(false)
}

/// Debits a pending unlock under its id and records the outcome.
///
/// The unlock is re-read under the user's lock first: a given-up unlock is never debited
/// again (the wallet forgets refusals, so its key could debit after all); a completed one is
/// sent again only to get its receipt back (the wallet remembers debits); a pack unlock whose
/// user lost access is given up without a debit. A debit that still lands on an unlock given
/// up meanwhile (a cross-process race only the wallet could close) is recorded by
/// `CompleteUnlock` as `UnlockDebitOrphaned` when it cannot be honoured.
///
/// The access rules are asked of the owners here (the reconciler's way); a request that read
/// them already passes its answer to [`finish_with`].
pub async fn finish(state: &State, asker: &Asker, unlock_id: Uuid, meta: &EventMeta) -> Result<Finished, NotFinished> {
    finish_with(state, asker, unlock_id, meta, PackAccess::Unread).await
}

/// Whether the user may unlock the pack an unlock is for: read by the request that asked, or
/// read at most once by the finish that needs it.
#[derive(Clone, Copy, Debug)]
pub enum PackAccess {
    Read(bool),
    Unread,
}

impl PackAccess {
    async fn may_unlock(&mut self, state: &State, asker: &Asker, channel_pack_id: Uuid) -> Result<bool, ApiError> {
        let may = match *self {
            PackAccess::Read(may) => may,
            PackAccess::Unread => may_unlock_pack(state, asker, channel_pack_id).await?,
        };
        *self = PackAccess::Read(may);
        Ok(may)
    }
}

/// [`finish`], with what the request already knows of the user's access.
pub async fn finish_with(
    state: &State,
    asker: &Asker,
    unlock_id: Uuid,
    meta: &EventMeta,
    mut access: PackAccess,
) -> Result<Finished, NotFinished> {
    let _flight = InFlight::enter(state, unlock_id);
    let (user_id, tenant) = (asker.user_id, Some(asker.tenant.as_str()).filter(|t| !t.is_empty()));
    let pending = match commands::unlock_standing(&state.pool, user_id, unlock_id).await? {
        commands::Standing::Pending(pending) => {
            if let UnlockTarget::ChannelPack { channel_pack_id, .. } = pending.target {
                if !access.may_unlock(state, asker, channel_pack_id).await? {
                    let command =
                        Command::RefuseUnlock { unlock_id, reason: UnlockRefusal::NoTenantAccess, now: state.now() };
                    state.book.submit(user_id, command, meta).await.map_err(ApiError::from)?.map_err(ApiError::from)?;
                    return Err(NotFinished::NoAccess);
                }
            }
            pending
        }
        commands::Standing::Completed(mut paid) => {
            if paid.amount == 0 {
                paid.amount = state.config.video_credits;
            }
            paid
        }
        commands::Standing::GivenUp => return Err(NotFinished::GivenUp),
    };
    let call = runtime::client::CallContext {
        bearer: None,
        tenant: tenant.map(str::to_owned),
        correlation_id: Some(meta.correlation_id.to_string()),
    };
    let reason = match pending.asset {
        Asset::Gems => GemsDebitReason::PackUnlock.as_str(),
        Asset::Credits => CreditsDebitReason::VideoUnlock.as_str(),
    };
    let channel_pack_id = match pending.target {
        UnlockTarget::ChannelPack { channel_pack_id, .. } => Some(channel_pack_id),
        UnlockTarget::Video { .. } => None,
    };
    let debit = DebitRequest {
        asset: pending.asset,
        amount: pending.amount as u64,
        idempotency_key: unlock_id.to_string(),
        reason: reason.to_owned(),
        channel_pack_id,
    };
    let answer = state.wallet.debit(user_id, &debit, &call).await;
    match answer {
        Err(unavailable) => {
            tracing::warn!(%unlock_id, error = %unavailable, "unlock debit unanswered, left to the reconciler");
            Err(NotFinished::WalletUnavailable(unavailable.to_string()))
        }
        Ok(Ok(receipt)) => {
            #[cfg(any(test, feature = "test-hooks"))]
            (state.after_debit)(unlock_id);
            let may_unlock = match pending.target {
                UnlockTarget::ChannelPack { channel_pack_id, .. } => {
                    access.may_unlock(state, asker, channel_pack_id).await?
                }
                UnlockTarget::Video { .. } => true,
            };
            let command = Command::CompleteUnlock { unlock_id, paid: pending.clone(), may_unlock, now: state.now() };
            let outcome = state.book.submit(user_id, command, meta).await.map_err(ApiError::from)?.map_err(|refused| {
                tracing::error!(%unlock_id, %user_id, error = %refused, "a debit without its unlock: needs an operator");
                ApiError::from(refused)
            })?;
            let orphaned = outcome.decided.iter().any(|e| matches!(e, UnlockEvent::UnlockDebitOrphaned { .. }))
                || !outcome.state.completed.contains(&unlock_id)
                || state_orphaned(state, unlock_id).await?;
            if orphaned {
                tracing::error!(%unlock_id, %user_id, "a debit that opened nothing: recorded as UnlockDebitOrphaned for an operator");
                return Err(NotFinished::GivenUp);
            }
            Ok(Finished { balance_after: receipt.balance_after, state: outcome.state })
        }
        Ok(Err(refusal)) => {
            remember_refusal(state, user_id, unlock_id, &refusal).await?;
            let reason = match refusal {
                Refusal::NotEnoughGems(_) => UnlockRefusal::NotEnoughGems,
                Refusal::NotEnoughCredits(_) => UnlockRefusal::NotEnoughCredits,
                Refusal::Other { .. } => UnlockRefusal::WalletRefused,
            };
            let command = Command::RefuseUnlock { unlock_id, reason, now: state.now() };
            state.book.submit(user_id, command, meta).await.map_err(ApiError::from)?.map_err(ApiError::from)?;
            Err(NotFinished::Refused(refusal))
        }
    }
}

/// Whether the user may (still) unlock the pack: the access rules, asked with the owners'
/// facts now. The pack being the one this unlock is for, it counts as not held yet.
async fn may_unlock_pack(state: &State, asker: &Asker, channel_pack_id: Uuid) -> Result<bool, ApiError> {
    let standing = entitlement::standing_for_pack(state, asker, channel_pack_id).await?;
    Ok(may_unlock_channel_pack(&standing, channel_pack_id))
}

async fn state_orphaned(state: &State, unlock_id: Uuid) -> Result<bool, ApiError> {
    Ok(sqlx::query_scalar::<_, bool>("select exists (select 1 from orphaned_debit where unlock_id = $1)")
        .bind(unlock_id)
        .fetch_one(&state.pool)
        .await?)
}

/// Keeps the wallet's refusal as this request is answered, before the unlock is given up: a
/// copy of the request that joined it and finds it given up answers the same (see
/// [`given_up_answer`]).
async fn remember_refusal(state: &State, user_id: Uuid, unlock_id: Uuid, refusal: &Refusal) -> Result<(), ApiError> {
    let (message, balance, needed, days) = match refusal {
        Refusal::NotEnoughGems(gems) => ("", gems.balance, gems.needed, gems.days_until_refresh_gems),
        Refusal::NotEnoughCredits(credits) => ("", credits.balance, credits.needed, 0),
        Refusal::Other { message, .. } => (message.as_str(), 0, 0, 0),
    };
    let code = refusal.code();
    let now = state.now();
    sqlx::query("delete from refused_unlock where refused_at < $1")
        .bind(now - chrono::Duration::days(1))
        .execute(&state.pool)
        .await?;
    sqlx::query(
        "insert into refused_unlock (unlock_id, user_id, code, message, balance, needed, days_until_refresh_gems, refused_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (unlock_id) do update set code = $3, message = $4, balance = $5, needed = $6,
             days_until_refresh_gems = $7, refused_at = $8",
    )
    .bind(unlock_id)
    .bind(user_id)
    .bind(code)
    .bind(message)
    .bind(balance as i64)
    .bind(needed as i64)
    .bind(days as i32)
    .bind(now)
    .execute(&state.pool)
    .await?;
    Ok(())
}

/// The answer to a request whose unlock was given up before it could finish it: the wallet's
/// refusal the first request was answered, when the wallet refused it; otherwise UNLOCK_FAILED.
async fn given_up_answer(state: &State, user_id: Uuid, unlock_id: Uuid, failed: &'static str) -> ApiError {
    /// code, message, balance, needed, days until the gems refresh.
    type Row = (String, String, i64, i64, i32);
    let row: Result<Option<Row>, sqlx::Error> = sqlx::query_as(
        "select code, message, balance, needed, days_until_refresh_gems from refused_unlock
         where user_id = $1 and unlock_id = $2",
    )
    .bind(user_id)
    .bind(unlock_id)
    .fetch_optional(&state.pool)
    .await;
    match row {
        Ok(Some((code, message, balance, needed, days))) => {
            let (balance, needed, days) = (balance.max(0) as u64, needed.max(0) as u64, days.max(0) as u32);
            let refusal = Refusal::from_parts(code, message, balance, needed, days);
            refusal_error(refusal, failed)
        }
        Ok(None) => ApiError::UnlockFailed { message: failed },
        Err(e) => e.into(),
    }
}

fn refusal_error(refusal: Refusal, failed: &'static str) -> ApiError {
    match refusal {
        Refusal::NotEnoughGems(NotEnoughGems { balance, needed, days_until_refresh_gems }) => {
            ApiError::NotEnoughGems { balance, needed, days_until_refresh_gems }
        }
        Refusal::NotEnoughCredits(NotEnoughCredits { balance, needed }) => {
            ApiError::NotEnoughCredits { balance, needed }
        }
        Refusal::Other { code, message } => {
            tracing::warn!(code, message, "wallet refused an unlock debit");
            ApiError::UnlockFailed { message: failed }
        }
    }
}

/// Unlock a channel pack with gems.
#[tracing::instrument(name = "unlock_channel_pack", skip(state, meta))]
pub async fn unlock_channel_pack(
    state: &State,
    asker: &Asker,
    channel_pack_id: Uuid,
    meta: &EventMeta,
) -> Result<PackUnlockResponse, ApiError> {
    let user_id = asker.user_id;
    // A pack of a channel the asker's brand does not carry is another brand's: not found here.
    let channel_id = queries::carried_channel_pack(&state.pool, channel_pack_id, &asker.tenant).await?.ok_or(
        ApiError::NotFound { code: crate::api::CHANNEL_PACK_NOT_FOUND, message: "no such channel pack".into() },
    )?;
    let may_unlock = may_unlock_pack(state, asker, channel_pack_id).await?;
    let command = Command::RequestPackUnlock {
        unlock_id: Uuid::now_v7(),
        channel_pack_id,
        channel_id,
        gems: state.config.pack_gems,
        may_unlock,
        now: state.now(),
    };
    let requested = state.book.submit(user_id, command, meta).await??;
    let target = UnlockTarget::ChannelPack { channel_pack_id, channel_id };
    let unlock_id = pending_of(&requested.state, &target)?;
    match finish_with(state, asker, unlock_id, meta, PackAccess::Read(may_unlock)).await {
        Ok(finished) => {
            let unlocked_at = unlocked_at(state, user_id, channel_pack_id).await?;
            Ok(PackUnlockResponse {
                status: "success".into(),
                unlock_id,
                channel_pack_id,
                unlocked_at,
                gems_balance: finished.balance_after,
            })
        }
        Err(NotFinished::Refused(refusal)) => Err(refusal_error(refusal, PACK_UNLOCK_FAILED)),
        Err(NotFinished::NoAccess) => Err(ApiError::NoTenantAccess),
        Err(NotFinished::GivenUp) => Err(given_up_answer(state, user_id, unlock_id, PACK_UNLOCK_FAILED).await),
        Err(NotFinished::WalletUnavailable(_)) => Err(ApiError::UnlockFailed { message: PACK_UNLOCK_FAILED }),
        Err(NotFinished::Store(e)) => Err(e),
    }
}

fn pending_of(state: &Unlocks, target: &UnlockTarget) -> Result<Uuid, ApiError> {
    state.pending_for(target).ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a requested unlock is not pending")))
}

async fn unlocked_at(state: &State, user_id: Uuid, channel_pack_id: Uuid) -> Result<DateTime<Utc>, ApiError> {
    let at: Option<DateTime<Utc>> =
        sqlx::query_scalar("select unlocked_at from channel_pack_unlock where user_id = $1 and channel_pack_id = $2 and forfeited_at is null")
            .bind(user_id)
            .bind(channel_pack_id)
            .fetch_optional(&state.pool)
            .await?;
    // Forfeited in the meantime: still unlocked by this request, at the last unlock.
    Ok(at.unwrap_or_else(|| state.now()))
}

/// UnlockVideo: for a free limited trial user, one of the trial's full videos when the trial
/// may take it (refused with the trial's reason otherwise); for anyone else, pay-per-video
/// credits.
#[tracing::instrument(name = "unlock_video", skip(state, input, meta), fields(video_id = %input.video_id))]
pub async fn unlock_video(
    state: &State,
    asker: &Asker,
    input: UnlockVideoInput,
    meta: &EventMeta,
) -> Result<UnlockVideoResponse, ApiError> {
    let user_id = asker.user_id;
    if input.video_new_id.is_empty() || input.video_new_id.len() > 100 {
        return Err(ApiError::Invalid("videoNewId must have 1 to 100 characters".into()));
    }
    if input.video_sources_url.as_ref().is_some_and(|u| u.len() > 2000) {
        return Err(ApiError::Invalid("videoSourcesUrl must have at most 2000 characters".into()));
    }
    let video = queries::video(&state.pool, input.video_id).await?.ok_or_else(ApiError::video_not_found)?;
    if video.new_id != input.video_new_id {
        return Err(ApiError::Invalid("videoNewId is not the video's newId".into()));
    }
    let standing = entitlement::standing(state, asker).await?;
    let response = |unlock_id, paid_with: &str, credits, free_left, unlocked_at| UnlockVideoResponse {
        status: "success".into(),
        unlock_id,
        video_id: video.video_id,
        video_new_id: video.new_id.clone(),
        video_sources_url: input.video_sources_url.clone(),
        paid_with: paid_with.into(),
        pay_per_video_credits: credits,
        free_videos_left: free_left,
        unlocked_at,
    };
    let trial = may_take_free_trial_video(&standing, &video);
    // A credits unlock of the video requested before the trial began, still pending, is
    // finished (joined) rather than refused or opened twice.
    let refused_but_pending = match trial {
        Some(Err(TrialRefusal::AlreadyTaken)) | Some(Ok(())) | None => false,
        Some(Err(_)) => queries::credits_unlock_pending(&state.pool, user_id, video.video_id).await?,
    };
    match trial {
        // Not on the free limited trial: credits pay.
        None => {}
        Some(Ok(())) => {
            let now = state.now();
            let command = Command::TakeFreeTrialVideo {
                unlock_id: Uuid::now_v7(),
                video_id: video.video_id,
                new_id: video.new_id.clone(),
                allowance: state.config.free_trial_videos,
                now,
            };
            match state.book.submit(user_id, command, meta).await? {
                Ok(outcome) => {
                    let (unlock_id, _) = outcome.state.videos[&video.video_id];
                    let left = state.config.free_trial_videos.saturating_sub(outcome.state.free_trial_videos_used);
                    return Ok(response(unlock_id, "free_limited_trial", None, Some(left), now));
                }
                // A credits unlock of the video is pending: join it rather than open the
                // video twice.
                Err(crate::domain::DomainError::UnlockPending) => {}
                Err(refused) => return Err(refused.into()),
            }
        }
        Some(Err(_)) if refused_but_pending => {}
        // The free limited trial spends no credits: its refusal says why, never a shortage
        // of credits (docs/decisions/unlocks/free-trial-refusals-say-why.md).
        Some(Err(TrialRefusal::NoneLeft)) => {
            return Err(ApiError::NoFreeTrialVideosLeft(state.config.free_trial_videos))
        }
        Some(Err(TrialRefusal::AlreadyTaken)) => return Err(ApiError::AlreadyUnlocked),
        Some(Err(refusal)) => return Err(ApiError::FreeTrialRefused(refusal)),
    }
    let command = Command::RequestVideoUnlock {
        unlock_id: Uuid::now_v7(),
        video_id: video.video_id,
        new_id: video.new_id.clone(),
        credits: state.config.video_credits,
        now: state.now(),
    };
    let requested = state.book.submit(user_id, command, meta).await??;
    let target = UnlockTarget::Video { video_id: video.video_id, new_id: video.new_id.clone() };
    let unlock_id = pending_of(&requested.state, &target)?;
    match finish(state, asker, unlock_id, meta).await {
        Ok(finished) => Ok(response(unlock_id, "credits", Some(finished.balance_after), None, state.now())),
        Err(NotFinished::Refused(refusal)) => Err(refusal_error(refusal, VIDEO_UNLOCK_FAILED)),
        Err(NotFinished::NoAccess) => Err(ApiError::NoTenantAccess),
        Err(NotFinished::GivenUp) => Err(given_up_answer(state, user_id, unlock_id, VIDEO_UNLOCK_FAILED).await),
        Err(NotFinished::WalletUnavailable(_)) => Err(ApiError::UnlockFailed { message: VIDEO_UNLOCK_FAILED }),
        Err(NotFinished::Store(e)) => Err(e),
    }
}

#[derive(sqlx::FromRow)]
struct Stale {
    unlock_id: Uuid,
    user_id: Uuid,
    tenant: Option<String>,
    attempts: i32,
}

/// The wait before trying a pending unlock again after `attempts` failed tries: the
/// interval doubled per try, at most an hour.
pub fn backoff(interval: Duration, attempts: u32) -> Duration {
    (interval.max(Duration::from_millis(10)) * 2u32.saturating_pow(attempts.min(20))).min(Duration::from_secs(3600))
}

/// What one reconciler pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub finished: u32,
    pub refused: u32,
    pub left: u32,
}

/// The reconciler: finishes pending unlocks older than `reconcile_after`.
pub struct Reconciler {
    state: State,
}

impl Reconciler {
    pub fn new(state: State) -> Self {
        Reconciler { state }
    }

    /// One pass over the unlocks left pending whose next try is due, the longest waiting
    /// first. Each row is re-read under its user's lock by [`finish`]; an unlock whose debit
    /// this process is sending is skipped; a try that fails backs off.
    pub async fn pass(&self) -> anyhow::Result<Pass> {
        let state = &self.state;
        let now = state.now();
        let before = now - chrono::Duration::from_std(state.config.reconcile_after)?;
        let stale: Vec<Stale> = sqlx::query_as(
            "select p.unlock_id, p.user_id, p.tenant, coalesce(a.attempts, 0) as attempts
             from pending_unlock p left join reconcile_attempt a using (unlock_id)
             where p.requested_at <= $1 and (a.next_attempt_at is null or a.next_attempt_at <= $2)
             order by coalesce(a.next_attempt_at, p.requested_at) limit 500",
        )
        .bind(before)
        .bind(now)
        .fetch_all(&state.pool)
        .await?;
        let mut pass = Pass::default();
        let meta = EventMeta::new(Actor::System("unlocks.reconciler".into()));
        for row in stale {
            if in_flight(state, row.unlock_id) {
                pass.left += 1;
                continue;
            }
            let asker = Asker::system(row.user_id, row.tenant.as_deref().unwrap_or_default());
            let failed = match finish(state, &asker, row.unlock_id, &meta).await {
                Ok(_) => {
                    tracing::info!(unlock_id = %row.unlock_id, user_id = %row.user_id, "reconciler finished an unlock");
                    pass.finished += 1;
                    None
                }
                Err(NotFinished::Refused(_) | NotFinished::NoAccess | NotFinished::GivenUp) => {
                    pass.refused += 1;
                    None
                }
                Err(NotFinished::WalletUnavailable(e)) => {
                    pass.left += 1;
                    Some(e)
                }
                Err(NotFinished::Store(e)) => {
                    tracing::warn!(unlock_id = %row.unlock_id, error = %e, "reconciler could not record an unlock");
                    pass.left += 1;
                    Some(e.to_string())
                }
            };
            match failed {
                None => {
                    sqlx::query("delete from reconcile_attempt where unlock_id = $1")
                        .bind(row.unlock_id)
                        .execute(&state.pool)
                        .await?;
                }
                Some(error) => {
                    let attempts = row.attempts as u32 + 1;
                    let next =
                        state.now() + chrono::Duration::from_std(backoff(state.config.reconcile_interval, attempts))?;
                    sqlx::query(
                        "insert into reconcile_attempt (unlock_id, attempts, next_attempt_at, last_error)
                         values ($1, $2, $3, $4)
                         on conflict (unlock_id) do update set attempts = excluded.attempts,
                             next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error",
                    )
                    .bind(row.unlock_id)
                    .bind(attempts as i32)
                    .bind(next)
                    .bind(error)
                    .execute(&state.pool)
                    .await?;
                }
            }
        }
        Ok(pass)
    }

    /// Passes every `reconcile_interval` (the first at once) until cancelled.
    pub fn job(self) -> runtime::service::Job {
        Box::new(move |cancel: CancellationToken| {
            Box::pin(async move {
                let interval = self.state.config.reconcile_interval.max(Duration::from_millis(10));
                loop {
                    match self.pass().await {
                        Ok(pass) if pass != Pass::default() => tracing::info!(?pass, "reconciler pass"),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = %format!("{e:#}"), "reconciler pass failed"),
                    }
                    tokio::select! {
                        _ = cancel.cancelled() => break,
                        _ = tokio::time::sleep(interval) => {}
                    }
                }
            })
        })
    }
}
