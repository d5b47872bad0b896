//! The one error type of the HTTP surface: `{code, message, ...}` with SCREAMING_SNAKE codes.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::domain::DomainError;
use crate::entitlement::{Denied, TrialRefusal};
use crate::quota::DownloadQuotas;

pub use crate::api::{PACK_UNLOCK_FAILED, UNLOCK_FAILED, VIDEO_UNLOCK_FAILED};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    NotFound { code: &'static str, message: String },
    #[error("already unlocked")]
    AlreadyUnlocked,
    #[error("not enough gems: {balance} held, {needed} needed")]
    NotEnoughGems { balance: u64, needed: u64, days_until_refresh_gems: u32 },
    #[error("not enough credits: {balance} held, {needed} needed")]
    NotEnoughCredits { balance: u64, needed: u64 },
    #[error("channel packs are unlocked by members with access")]
    NoTenantAccess,
    #[error("Your free trial's {0} full videos are taken. Upgrade to watch every video in full.")]
    NoFreeTrialVideosLeft(u32),
    /// A free limited trial user asked for a video their trial does not cover (never a
    /// shortage of credits: the trial spends none).
    #[error("{}", free_trial_message(*.0))]
    FreeTrialRefused(TrialRefusal),
    /// The user may not watch or download the video.
    #[error("access denied")]
    AccessDenied(Denied),
    /// ReachedDownloadQuotaError.
    #[error("{}", crate::quota::reached_message(.0.remaining_days))]
    ReachedDownloadQuota(DownloadQuotas),
    /// The unlock could not be finished now (the wallet did not answer); the reconciler will.
    #[error("{message}")]
    UnlockFailed { message: &'static str },
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("the service is busy, try again")]
    Busy(#[source] crate::commands::Failure),
    /// The subscription service, whose read the access rules need, did not answer.
    #[error("the subscription service is unavailable, try again")]
    SubscriptionUnavailable(#[source] runtime::client::UpstreamError),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::AlreadyUnlocked
            | ApiError::NotEnoughGems { .. }
            | ApiError::NotEnoughCredits { .. }
            | ApiError::NoFreeTrialVideosLeft(_) => StatusCode::CONFLICT,
            ApiError::NoTenantAccess | ApiError::AccessDenied(_) | ApiError::FreeTrialRefused(_) => {
                StatusCode::FORBIDDEN
            }
            ApiError::ReachedDownloadQuota(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::UnlockFailed { .. } | ApiError::Busy(_) | ApiError::SubscriptionUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NotFound { code, .. } => code,
            ApiError::AlreadyUnlocked => "ALREADY_UNLOCKED",
            ApiError::NotEnoughGems { .. } => "NOT_ENOUGH_GEMS",
            ApiError::NotEnoughCredits { .. } => "NOT_ENOUGH_CREDITS",
            ApiError::NoTenantAccess => "NO_TENANT_ACCESS",
            ApiError::NoFreeTrialVideosLeft(_) => NO_FREE_TRIAL_VIDEOS_LEFT,
            ApiError::FreeTrialRefused(refusal) => free_trial_code(*refusal),
            ApiError::AccessDenied(_) => "FORBIDDEN",
            ApiError::ReachedDownloadQuota(_) => "REACHED_DOWNLOAD_QUOTA",
            ApiError::UnlockFailed { .. } => UNLOCK_FAILED,
            ApiError::Invalid(_) => "INVALID_REQUEST",
            ApiError::BadRequest(_) => "BAD_REQUEST",
            ApiError::Busy(_) | ApiError::SubscriptionUnavailable(_) => "RETRY",
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    pub fn video_not_found() -> Self {
        ApiError::NotFound { code: "VIDEO_NOT_FOUND", message: "no such video".into() }
    }
}

/// UnlockVideo's refusals to a free limited trial user (docs/decisions/unlocks/free-trial-refusals-say-why.md).
pub const NO_FREE_TRIAL_VIDEOS_LEFT: &str = "NO_FREE_TRIAL_VIDEOS_LEFT";
pub const NOT_A_FREE_TRIAL_VIDEO: &str = "NOT_A_FREE_TRIAL_VIDEO";
pub const FREE_TRIAL_VIDEO_OF_ANOTHER_SITE: &str = "FREE_TRIAL_VIDEO_OF_ANOTHER_SITE";
pub const FREE_TRIAL_EXPIRED: &str = "FREE_TRIAL_EXPIRED";

fn free_trial_code(refusal: TrialRefusal) -> &'static str {
    match refusal {
        TrialRefusal::Expired => FREE_TRIAL_EXPIRED,
        TrialRefusal::NoneLeft => NO_FREE_TRIAL_VIDEOS_LEFT,
        TrialRefusal::AlreadyTaken => "ALREADY_UNLOCKED",
        TrialRefusal::NotATrialVideo => NOT_A_FREE_TRIAL_VIDEO,
        TrialRefusal::OtherSite => FREE_TRIAL_VIDEO_OF_ANOTHER_SITE,
    }
}

/// The plain words of each refusal, which the front end shows as they are.
pub fn free_trial_message(refusal: TrialRefusal) -> &'static str {
    match refusal {
        TrialRefusal::Expired => "Your limited trial expired. Upgrade to watch every video in full.",
        TrialRefusal::NoneLeft => "Your free trial's full videos are taken. Upgrade to watch every video in full.",
        TrialRefusal::AlreadyTaken => "already unlocked",
        TrialRefusal::NotATrialVideo => {
            "This video is not one of your free trial's videos. Upgrade to watch it, or pick a video marked free for your trial."
        }
        TrialRefusal::OtherSite => {
            "This free trial video belongs to another site's trial, not yours. Pick a video marked free for your trial."
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        match &self {
            ApiError::NotEnoughGems { balance, needed, days_until_refresh_gems } => {
                body["balance"] = json!(balance);
                body["needed"] = json!(needed);
                body["daysUntilRefreshGems"] = json!(days_until_refresh_gems);
            }
            ApiError::NotEnoughCredits { balance, needed } => {
                body["balance"] = json!(balance);
                body["needed"] = json!(needed);
            }
            ApiError::AccessDenied(denied) => body["denied"] = json!(denied),
            ApiError::ReachedDownloadQuota(q) => {
                body["downloadQuotaMax"] = json!(q.download_quota_max);
                body["remainingDays"] = json!(q.remaining_days);
                body["downloadQuotas"] = json!(q);
            }
            ApiError::Busy(e) => tracing::warn!(error = %e, "unlocks request failed, retryable"),
            ApiError::SubscriptionUnavailable(e) => tracing::warn!(error = %e, "subscription read unavailable"),
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "unlocks request failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match e {
            DomainError::AlreadyUnlocked => ApiError::AlreadyUnlocked,
            DomainError::NoTenantAccess => ApiError::NoTenantAccess,
            DomainError::NoFreeTrialVideosLeft { allowance } => ApiError::NoFreeTrialVideosLeft(allowance),
            DomainError::ReachedDownloadQuota(q) => ApiError::ReachedDownloadQuota(q),
            e @ (DomainError::UnknownUnlock(_) | DomainError::UnlockPending) => ApiError::Internal(e.into()),
        }
    }
}

runtime::api_error_from!(failures for ApiError: busy Busy, internal Internal; crate::commands::Failure, runtime::StoreError);
runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error);
runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable Invalid);
