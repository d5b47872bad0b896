//! The typed client of the internal API, for the gateway (and other services).
//!
//! One method per endpoint over the runtime's one internal client ([`Upstream`]); answers are
//! the same structs the handlers write ([`crate::api`]). A refusal comes back as
//! [`UpstreamError::Refused`] with the service's `code` (ALREADY_UNLOCKED, NOT_ENOUGH_GEMS,
//! REACHED_DOWNLOAD_QUOTA, ...) and its whole body, whose extra fields (`daysUntilRefreshGems`,
//! `downloadQuotaMax`, `remainingDays`, `denied`) the gateway maps into GraphQL error
//! extensions; `UNLOCK_FAILED` comes with its 503 as [`UpstreamError::Unavailable`]'s body.

use std::time::Duration;

use runtime::client::{CallContext, Upstream, UpstreamError};
use uuid::Uuid;

use crate::api::*;
use crate::routes;

#[derive(Clone, Debug)]
pub struct UnlocksClient {
    upstream: Upstream,
}

impl UnlocksClient {
    /// A client of the service at `base` (`runtime::config::service_url("unlocks", 8104)`);
    /// an unlock may wait on the wallet's debit, so calls may take up to 30 s.
    pub fn new(base: impl Into<String>) -> Self {
        UnlocksClient { upstream: Upstream::new("unlocks", base, Duration::from_secs(30)) }
    }

    /// The channel-pack unlock (UnlockChannel modal).
    pub async fn unlock_channel_pack(
        &self,
        caller: &CallContext,
        channel_pack_id: Uuid,
    ) -> Result<PackUnlockResponse, UpstreamError> {
        self.upstream
            .post(&routes::UNLOCK_CHANNEL_PACK.path_with(&[&channel_pack_id]), &serde_json::json!({}), caller)
            .await
    }

    /// UnlockVideo.
    pub async fn unlock_video(
        &self,
        caller: &CallContext,
        input: &UnlockVideoInput,
    ) -> Result<UnlockVideoResponse, UpstreamError> {
        self.upstream.post(&routes::UNLOCK_VIDEO, input, caller).await
    }

    /// The signed-in user's unlocks (profile fields).
    pub async fn unlock_state(&self, caller: &CallContext) -> Result<UnlockStateResponse, UpstreamError> {
        self.upstream.get(&routes::UNLOCK_STATE, &[], caller).await
    }

    /// Any user's unlocks, for trusted internal callers.
    pub async fn user_unlock_state(&self, user_id: Uuid) -> Result<UnlockStateResponse, UpstreamError> {
        self.upstream.get(&routes::USER_UNLOCK_STATE.path_with(&[&user_id]), &[], &CallContext::system()).await
    }

    /// Access to a page of videos at once (the videos' `denied`).
    pub async fn video_access(
        &self,
        caller: &CallContext,
        video_ids: &[Uuid],
    ) -> Result<VideoAccessResponse, UpstreamError> {
        // A read, so safe to retry.
        let body = VideoAccessRequest { video_ids: video_ids.to_vec() };
        self.upstream.post_idempotent(&routes::VIDEO_ACCESS, &body, caller).await
    }

    /// getToken.
    pub async fn video_tokens(
        &self,
        caller: &CallContext,
        video_id: Uuid,
        device: &str,
    ) -> Result<TokenResponse, UpstreamError> {
        let body = TokenRequest { device: device.into() };
        self.upstream.post(&routes::VIDEO_TOKENS.path_with(&[&video_id]), &body, caller).await
    }

    pub async fn download_resolutions(
        &self,
        caller: &CallContext,
        video_id: Uuid,
    ) -> Result<DownloadResolutionsResponse, UpstreamError> {
        self.upstream.get(&routes::DOWNLOAD_RESOLUTIONS.path_with(&[&video_id]), &[], caller).await
    }

    /// The video download (id and size).
    pub async fn download(
        &self,
        caller: &CallContext,
        video_id: Uuid,
        size: &str,
    ) -> Result<DownloadResponse, UpstreamError> {
        let body = DownloadRequest { size: size.into() };
        self.upstream.post(&routes::DOWNLOAD.path_with(&[&video_id]), &body, caller).await
    }

    /// downloadQuotas of a site (default: the caller's brand) and of the channel categories.
    pub async fn download_quotas(
        &self,
        caller: &CallContext,
        site: Option<&str>,
    ) -> Result<DownloadQuotasResponse, UpstreamError> {
        let query: Vec<(&str, String)> = site.map(|s| ("site", s.to_owned())).into_iter().collect();
        self.upstream.get(&routes::DOWNLOAD_QUOTAS, &query, caller).await
    }
}
